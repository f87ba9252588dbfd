#if canImport(Glibc)
import Glibc
#endif

/// Watches one file for changes with inotify, through its directory, so that editors that
/// save by renaming a new file over the old one are seen too.
public final class FileWatcher {
    /// The descriptor to poll.
    public let fileDescriptor: Int32
    private let name: String

    /// Starts watching `path`; returns nil when inotify is unavailable.
    public init?(path: String) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY)
        guard inotify_add_watch(fd, directory.isEmpty ? "/" : directory, mask) >= 0 else {
            close(fd)
            return nil
        }
        fileDescriptor = fd
    }

    /// Reads pending notifications; true when one concerned the watched file.
    public func drainChanges() -> Bool {
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if length > 0 {
                    let bytes = buffer[nameStart..<min(nameStart + length, n)].prefix { $0 != 0 }
                    if String(decoding: bytes, as: UTF8.self) == name { changed = true }
                }
                offset = nameStart + length
            }
        }
        return changed
    }

    deinit { close(fileDescriptor) }
}
