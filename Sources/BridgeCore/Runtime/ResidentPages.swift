import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Lets go of the memory that the waiting daemon does not use: the file pages of code and
/// constants that start-up read once (the loader's relocation tables, argument parsing, the
/// TOML parser, X set-up) or that a session of gestures mapped, and the heap's free pages.
///
/// The kernel maps a page of a program or library file into the process on first touch, and
/// with it the neighbouring pages already in the page cache (fault-around, 64 KiB), so
/// whatever start-up ran stays counted in the process's resident set for good, although the
/// idle loop never comes back to it. ``trim()`` unmaps those pages from this process
/// (`madvise(MADV_DONTNEED)`) in every mapping where that loses nothing: private, read-only
/// file mappings without a single page of their own (`Anonymous: 0 kB` in `/proc/self/smaps`),
/// whose every page is exactly the file's. The pages stay in the page cache (shared with every
/// other process that maps the same file) until the kernel wants the memory; code that runs
/// again is mapped back by a minor fault, without reading the disk. Writable mappings and any
/// mapping with a private copy of a page (relocated data) are never touched. It then returns
/// the heap's free pages with `malloc_trim`.
///
/// The daemon calls it once input has paused (see `Daemon`); the first gesture after it maps
/// back the code it runs by minor faults.
///
/// ```swift
/// let released = ResidentPages.trim()   // kB no longer resident
/// ```
public enum ResidentPages {
    /// One mapping that can be let go of: its address range and what of it is resident.
    public struct Mapping: Hashable, Sendable {
        /// First address.
        public var start: UInt
        /// One past the last address.
        public var end: UInt
        /// Resident kB (`Rss`).
        public var residentKB: Int
        /// The mapped file.
        public var path: String
    }

    /// Unmaps the releasable file pages and trims the heap; returns the kB unmapped (0 when
    /// `/proc/self/smaps` cannot be read).
    @discardableResult
    public static func trim() -> Int {
        var released = 0
        if let smaps = readProcFile("/proc/self/smaps") {
            for mapping in releasable(smaps: smaps) where mapping.residentKB > 0 {
                guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
                if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 { released += mapping.residentKB }
            }
        }
        _ = malloc_trim(0)
        return released
    }

    /// The mappings of `smaps` (the text of a `/proc/PID/smaps`) that ``trim()`` may unmap:
    /// private, not writable, backed by a file (a path, not `[vdso]` and the like, nor a
    /// deleted file), and without anonymous (privately copied) pages.
    public static func releasable(smaps: String) -> [Mapping] {
        var result: [Mapping] = []
        var current: Mapping? = nil
        var anonymous = 0
        var eligible = false
        func close() {
            if let mapping = current, eligible, anonymous == 0 { result.append(mapping) }
            current = nil
        }
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), !first.hasSuffix(":") {
                // A mapping's header: address range, permissions, offset, device, inode, path.
                close()
                let bounds = first.split(separator: "-")
                guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                      fields.count >= 2 else { continue }
                let permissions = Array(fields[1].utf8)
                let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
                eligible = permissions.count == 4 && permissions[1] == UInt8(ascii: "-") && permissions[3] == UInt8(ascii: "p")
                    && path.hasPrefix("/") && !path.hasPrefix("/dev/") && !path.hasSuffix("(deleted)")
                anonymous = 0
                current = Mapping(start: start, end: end, residentKB: 0, path: path)
            } else if fields.count >= 2, let value = Int(fields[1]) {
                switch first {
                case "Rss:": current?.residentKB = value
                case "Anonymous:": anonymous = value
                default: break
                }
            }
        }
        close()
        return result
    }

    /// The whole of a `/proc` file (whose size `stat` does not tell), or nil.
    private static func readProcFile(_ path: String) -> String? {
        guard let descriptor = try? SystemCall.system("open", { try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) })
        else { return nil }
        defer { SystemCall.close(descriptor.rawValue) }
        guard let bytes = try? descriptor.readToEnd() else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
