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
        let fd: Int32
        do throws(SystemError) {
            let path = path  // not `self` in the closure: `fd` is not set yet
            fd = try SystemCall.retryingInterrupts("open") { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        } catch {
            throw .unavailable(path: path, reason: error.message)
        }
        do throws(SystemError) {
            try SystemCall.retryingInterrupts("flock") { flock(fd, LOCK_EX | LOCK_NB) }
        } catch {
            SystemCall.close(fd)
            if error.code == .wouldBlock { throw .held(path: path) }
            throw .unavailable(path: path, reason: error.message)
        }
        // The pid is for people looking at the file; the lock does not depend on it.
        _ = try? SystemCall.retryingInterrupts("ftruncate") { ftruncate(fd, 0) }
        var pid = "\(getpid())\n"
        pid.withUTF8 { _ = try? SystemCall.writeAll(fd, UnsafeRawBufferPointer($0)) }
        self.fd = fd
    }

    deinit { SystemCall.close(fd) }
}
