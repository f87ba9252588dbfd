import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// Watches files for changes with inotify, wherever they are and whatever their path leads to
/// later: through their directories (editors that save by renaming a new file over the old
/// one), before they exist, through symlinks, and across a directory that is replaced.
///
/// For each path `DIR/NAME` it watches:
/// - `DIR` for changes of `NAME` (written, created, removed, renamed to or from, its mode);
/// - the parent of `DIR` for `DIR` itself being created, removed, renamed or re-pointed (a
///   directory replaced with `mv dir dir.old; mkdir dir`, GNU stow's folded directory links);
/// - when `DIR` does not exist yet, the deepest directory on the way that does, for the next
///   name on the way (`~/.config/gesture-bridge` created after the daemon started);
/// - when `DIR/NAME` is a symlink, the same for its target, hop by hop (dotfile managers:
///   stow, home-manager, chezmoi's symlink mode), so edits of the target are seen, and the
///   link being re-pointed is seen in `DIR`.
///
/// Every event about a name on the way re-arms the watches (the path may now lead elsewhere),
/// so they always follow what the paths lead to now. Events about other names in the same
/// directories wake the reader but are not changes. A chain of symlinks is followed as far as
/// the kernel follows one (``symlinkHops``); a longer one is noted (``overlongChains``) for the
/// daemon to say so — nothing can open such a path either.
///
/// ```swift
/// let watcher = FileWatcher(paths: ["/home/ann/.config/gesture-bridge/config.toml"])
/// // poll watcher.fileDescriptor for POLLIN, then:
/// if watcher?.drainChanges() == true { reload() }
/// ```
public final class FileWatcher {
    /// The descriptor to poll.
    public let fileDescriptor: Int32
    /// The paths watched, as given.
    public let paths: [String]
    /// The names that matter in each watched directory, by watch descriptor.
    private var watches: [Int32: Set<String>] = [:]
    /// The paths whose symlink chain is longer than ``symlinkHops`` now, as given: changes
    /// past the last hop followed are not seen.
    public private(set) var overlongChains: Set<String> = []

    /// At most this many symlinks are followed from one path: the kernel's own limit
    /// (`MAXSYMLINKS`), beyond which opening the path fails with `ELOOP` anyway. It was 16, and
    /// a chain of 17 to 40 links — which the daemon reads fine — was silently not followed.
    public static let symlinkHops = 40
    /// Events about a name in a directory: the file itself changed, or what the name leads to.
    private static let nameEvents = UInt32(
        IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
    /// Events about a name that change where a path leads (re-arm after them).
    private static let structureEvents = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
    /// Events about a watched directory itself: it is gone from where it was.
    private static let selfEvents = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)

    /// Starts watching `paths`; returns nil when inotify is unavailable.
    public init?(paths: [String]) {
        guard let fd = try? SystemCall.retryingInterrupts("inotify_init1", { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }) else {
            return nil
        }
        fileDescriptor = fd
        self.paths = paths
        arm()
    }

    /// Starts watching one path; returns nil when inotify is unavailable.
    public convenience init?(path: String) {
        self.init(paths: [path])
    }

    /// Reads pending notifications; true when one concerned a watched path (the file, or a
    /// directory or symlink on its way). Re-arms the watches when what a path leads to changed.
    public func drainChanges() -> Bool {
        var changed = false
        var rearm = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Each event is a fixed `inotify_event` header, then `len` bytes of NUL-padded name.
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            // Non-blocking: `EAGAIN` once everything was read.
            let read = buffer.withUnsafeMutableBytes { bytes in
                try? SystemCall.system("read") { try FileDescriptor(rawValue: fileDescriptor).read(into: bytes) }
            }
            guard let n = read, n > 0 else { break }
            var offset = 0
            while offset + headerSize <= n {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let length = Int(event.len)
                let nameStart = offset + headerSize
                offset = nameStart + length
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost: anything may have happened.
                    changed = true
                    rearm = true
                    continue
                }
                // Watches removed by a re-arm still report their removal: not ours any more.
                guard let names = watches[event.wd] else { continue }
                if event.mask & Self.selfEvents != 0 {
                    changed = true
                    rearm = true
                    continue
                }
                guard length > 0 else { continue }
                let bytes = buffer[nameStart..<min(nameStart + length, n)].prefix { $0 != 0 }
                guard names.contains(String(decoding: bytes, as: UTF8.self)) else { continue }
                changed = true
                if event.mask & Self.structureEvents != 0 { rearm = true }
            }
        }
        if rearm { arm() }
        return changed
    }

    deinit { SystemCall.close(fileDescriptor) }

    // MARK: - Arming

    /// Puts the watches where the paths lead now, and removes those no path needs any more.
    ///
    /// What is on disk may change while this runs (a directory created after it was found
    /// missing, before its parent was watched): it looks again until two looks agree.
    private func arm() {
        var previous: [String: Set<String>]? = nil
        for _ in 0..<8 {
            let (wanted, overlong) = Self.wantedWatches(for: paths)
            overlongChains = overlong
            if wanted == previous { break }
            previous = wanted
            var fresh: [Int32: Set<String>] = [:]
            for (directory, names) in wanted {
                // Two paths to one directory get one descriptor: their names add up.
                let mask = Self.nameEvents | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_MASK_ADD)
                guard let wd = try? SystemCall.retryingInterrupts("inotify_add_watch", { inotify_add_watch(fileDescriptor, directory, mask) }) else {
                    continue  // gone meanwhile: the next look sees that
                }
                fresh[wd, default: []].formUnion(names)
            }
            for wd in watches.keys where fresh[wd] == nil {
                _ = inotify_rm_watch(fileDescriptor, wd)
            }
            watches = fresh
        }
    }

    /// The directories to watch and the names that matter in each, for `paths` as the file
    /// system is now; and the paths whose symlink chain goes on past ``symlinkHops``.
    static func wantedWatches(for paths: [String]) -> (watches: [String: Set<String>], overlong: Set<String>) {
        var wanted: [String: Set<String>] = [:]
        var overlong: Set<String> = []
        for given in paths {
            var path = given
            var hops = 0
            while true {
                let (directory, name) = split(path)
                guard isDirectory(directory) else {
                    // Wait for the next missing name on the way to appear.
                    if let (existing, next) = deepestExistingAncestor(of: directory) { wanted[existing, default: []].insert(next) }
                    break
                }
                wanted[directory, default: []].insert(name)
                if directory != "/" {
                    let (parent, directoryName) = split(directory)
                    if isDirectory(parent) { wanted[parent, default: []].insert(directoryName) }
                }
                guard let target = readLink(path) else { break }
                guard hops < symlinkHops else {
                    overlong.insert(given)
                    break
                }
                hops += 1
                path = target.hasPrefix("/") ? target : (directory == "/" ? "/" : directory + "/") + target
            }
        }
        return (wanted, overlong)
    }

    /// `DIR` and `NAME` of `DIR/NAME`; a bare name is in `.`, `/NAME` in `/`.
    static func split(_ path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let directory = trimmed[..<slash]
        return (directory.isEmpty ? "/" : String(directory), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// The deepest existing directory above `directory` (itself missing), and the name below it
    /// on the way to `directory`.
    private static func deepestExistingAncestor(of directory: String) -> (String, String)? {
        var child = directory
        while true {
            let (parent, name) = split(child)
            if isDirectory(parent) { return (parent, name) }
            if parent == child || parent == "/" || parent == "." { return nil }
            child = parent
        }
    }

    /// Whether `path` leads to a directory (through symlinks).
    private static func isDirectory(_ path: String) -> Bool {
        (try? SystemCall.system("stat") { try FilePath(path).stat() })?.type == .directory
    }

    /// The target of the symlink at `path`, or nil when it is not one.
    private static func readLink(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            try? SystemCall.retryingInterrupts("readlink") {
                readlink(path, UnsafeMutableRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), bytes.count)
            }
        }
        guard let count, count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
