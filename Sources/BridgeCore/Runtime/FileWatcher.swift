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
        guard let fd = try? SystemCall.retryingInterrupts("inotify_init1", { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }) else {
            return nil
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY)
        do throws(SystemError) {
            try SystemCall.retryingInterrupts("inotify_add_watch") {
                inotify_add_watch(fd, directory.isEmpty ? "/" : directory, mask)
            }
        } catch {
            SystemCall.close(fd)
            return nil
        }
        fileDescriptor = fd
    }

    /// Reads pending notifications; true when one concerned the watched file.
    public func drainChanges() -> Bool {
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Each event is a fixed `inotify_event` header, then `len` bytes of NUL-padded name.
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            // Non-blocking: `EAGAIN` once everything was read.
            let read = buffer.withUnsafeMutableBytes { bytes in
                try? SystemCall.retryingInterrupts("read") { Glibc.read(fileDescriptor, bytes.baseAddress, bytes.count) }
            }
            guard let n = read, n > 0 else { break }
            var offset = 0
            while offset + headerSize <= n {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let length = Int(event.len)
                let nameStart = offset + headerSize
                if length > 0 {
                    let bytes = buffer[nameStart..<min(nameStart + length, n)].prefix { $0 != 0 }
                    if String(decoding: bytes, as: UTF8.self) == name { changed = true }
                }
                offset = nameStart + length
            }
        }
        return changed
    }

    deinit { SystemCall.close(fileDescriptor) }
}
