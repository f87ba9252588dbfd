#if canImport(Glibc)
import Glibc
#endif

/// A listening socket at an X display's address that accepts connections (the kernel does, from
/// its backlog) and never answers: what a stopped or wedged X server looks like to a client.
///
/// It listens in the abstract namespace (`@/tmp/.X11-unix/XN`), where libxcb looks first on
/// Linux, so it leaves no file behind; the numbers of ``TestDisplays`` are tried from the top
/// down (test X servers start elsewhere in the range) until one is free.
/// Closing it resets the waiting connections, which ends any client still stuck in its setup.
///
/// ```swift
/// let silent = try #require(SilentXSocket())
/// // DISPLAY=\(silent.displayName): XOpenDisplay hangs in its setup
/// ```
public final class SilentXSocket {
    /// The display it poses as, `:N`.
    public let displayName: String
    private let fd: Int32

    /// Listens at the first free display of ``TestDisplays`` from the top; nil when none could
    /// be had.
    public init?() {
        guard TestDisplays.problem == nil else { return nil }
        for number in TestDisplays.range.reversed() {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return nil }
            // The file-system socket must not exist either: a real server may be there.
            if access("/tmp/.X11-unix/X\(number)", F_OK) == 0 {
                close(fd)
                continue
            }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let name = Array("/tmp/.X11-unix/X\(number)".utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw[0] = 0  // abstract
                for (i, b) in name.enumerated() { raw[i + 1] = b }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            if bound == 0, listen(fd, 16) == 0 {
                self.fd = fd
                displayName = ":\(number)"
                return
            }
            close(fd)
        }
        return nil
    }

    deinit { close(fd) }
}
