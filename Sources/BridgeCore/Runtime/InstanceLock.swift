#if canImport(Glibc)
import Glibc
#endif

/// One gesture-bridge per display: an exclusive `flock` on
/// `$XDG_RUNTIME_DIR/gesture-bridge-DISPLAY.lock` (or `/tmp/gesture-bridge-UID-DISPLAY.lock`),
/// held until the process ends (the kernel drops it even on a crash).
public final class InstanceLock {
    /// The lock file's path.
    public let path: String
    private let fd: Int32

    /// Why the lock could not be taken.
    public enum Failure: Error, CustomStringConvertible {
        case held(path: String)
        case unavailable(path: String, reason: String)
        public var description: String {
            switch self {
            case .held(let path): "another gesture-bridge is already running on this display (lock \(path))"
            case .unavailable(let path, let reason): "cannot create the lock file \(path): \(reason)"
            }
        }
    }

    /// Takes the lock for `display` or throws.
    public init(display: String, environment: [String: String]) throws(Failure) {
        let safe = String(display.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" })
        if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty {
            path = "\(dir)/gesture-bridge-\(safe).lock"
        } else {
            path = "/tmp/gesture-bridge-\(getuid())-\(safe).lock"
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unavailable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let e = errno
            close(fd)
            if e == EWOULDBLOCK { throw .held(path: path) }
            throw .unavailable(path: path, reason: String(cString: strerror(e)))
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(fd, $0, strlen($0)) }
        self.fd = fd
    }

    deinit { close(fd) }
}
