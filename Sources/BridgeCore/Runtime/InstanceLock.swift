import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// One gesture-bridge per display: an exclusive `flock` on
/// `$XDG_RUNTIME_DIR/gesture-bridge-display-N.lock`, held until the process ends (the kernel
/// drops it even on a crash).
///
/// The lock is keyed on the display, not on how it was named: `:0`, `:0.0`, `unix:0` and
/// `unix/:0` are one display (see ``DisplayAddress``). It lives where no other local user can
/// create or redirect it:
/// - `$XDG_RUNTIME_DIR` (the user's private runtime directory), which must be a directory
///   owned by this user and writable by no one else, or the lock is refused with the reason;
/// - without `$XDG_RUNTIME_DIR` (sessions started without pam_systemd or elogind), a private
///   directory in the user's state directory, `$XDG_STATE_HOME/gesture-bridge` (by default
///   `~/.local/state/gesture-bridge`), created with mode 0700 and refused unless it is a real
///   directory (not a symlink) owned by this user that no one else can enter; the file's name
///   carries the host's name, as a home directory may be shared between machines. It used to
///   be `/tmp/gesture-bridge-UID`, which another user could create first (a directory, a file
///   or a symlink there kept the daemon from ever starting, and the sticky `/tmp` let no one
///   but them remove it); in the user's home only the user can.
///
/// The file is opened with `O_NOFOLLOW` (a symlink planted at its path is refused, never
/// followed) and must be a regular file owned by this user before it is written to.
///
/// ```swift
/// let lock = try InstanceLock(display: ":0.0", environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
/// lock.path   // "/run/user/1000/gesture-bridge-display-0.lock"
/// ```
public final class InstanceLock {
    /// The lock file's path.
    public let path: String
    /// Something to tell the user about where the lock went (no `$XDG_RUNTIME_DIR`), or nil.
    public let notice: String?
    private let descriptor: FileDescriptor

    /// Why the lock could not be taken.
    public enum Failure: Error, CustomStringConvertible {
        /// Another process holds it.
        case held(path: String)
        /// The file could not be created, opened or locked.
        case unavailable(path: String, reason: String)
        /// The file could be reached or changed by someone else.
        case unsafe(path: String, reason: String)
        /// The directory for the file is missing, or could be reached by someone else.
        case directory(path: String, reason: String)

        public var description: String {
            switch self {
            case .held(let path): "another gesture-bridge is already running on this display (lock \(path))"
            case .unavailable(let path, let reason): "cannot create the lock file \(path): \(reason)"
            case .unsafe(let path, let reason): "refusing to use \(path) for the single-instance lock: \(reason)"
            case .directory(let path, let reason): "cannot keep the single-instance lock in \(path): \(reason)"
            }
        }
    }

    /// Takes the lock for `display` or throws.
    ///
    /// - Parameters:
    ///   - display: the display's name as opened (`:0`, `:0.0`, `unix:0`, `host:10.0`).
    ///   - environment: the process environment (`XDG_RUNTIME_DIR`; without it `XDG_STATE_HOME`
    ///     or `HOME`).
    public init(display: String, environment: [String: String]) throws(Failure) {
        let (path, notice) = try Self.path(display: display, environment: environment)
        self.path = path
        self.notice = notice
        let descriptor: FileDescriptor
        do throws(SystemError) {
            // O_NONBLOCK: a FIFO planted at the path must not block the open.
            descriptor = try SystemCall.system("open") {
                try FileDescriptor.open(
                    FilePath(path), .readWrite, options: [.create, .noFollow, .closeOnExec, .nonBlocking],
                    permissions: .ownerReadWrite)
            }
        } catch where error.code == .tooManySymbolicLinkLevels {
            throw .unsafe(path: path, reason: "it is a symbolic link (remove it; it is never followed)")
        } catch {
            throw .unavailable(path: path, reason: error.message)
        }
        guard Self.isOwnRegularFile(descriptor) else {
            SystemCall.close(descriptor.rawValue)
            throw .unsafe(path: path, reason: "it is not a regular file owned by this user (remove it)")
        }
        do throws(SystemError) {
            try SystemCall.retryingInterrupts("flock") { flock(descriptor.rawValue, LOCK_EX | LOCK_NB) }
        } catch {
            SystemCall.close(descriptor.rawValue)
            if error.code == .wouldBlock { throw .held(path: path) }
            throw .unavailable(path: path, reason: error.message)
        }
        // Ours, checked above: the pid is for people looking at the file; the lock does not depend on it.
        _ = try? SystemCall.retryingInterrupts("ftruncate") { ftruncate(descriptor.rawValue, 0) }
        _ = try? SystemCall.system("write") { try descriptor.writeAll("\(getpid())\n".utf8) }
        self.descriptor = descriptor
    }

    deinit { SystemCall.close(descriptor.rawValue) }

    /// Whether a gesture-bridge holds the lock for a display, as ``probe(display:environment:fallbackBase:)`` found it.
    public enum Probe: Hashable, Sendable {
        /// No process holds it: a daemon could take it (the lock file, which may not exist yet).
        case free(path: String)
        /// A process holds it; the pid it wrote into the file, when it is readable.
        case held(path: String, pid: Int?)
    }

    /// Looks whether another process holds the lock for `display`, without taking it for
    /// real: the file is not created (no file, no holder) and not written; a shared lock is
    /// tried without blocking and dropped at once. A daemon that starts in that same instant
    /// finds the lock held and says so.
    ///
    /// - Throws: what ``init(display:environment:)`` would refuse for the lock's
    ///   directory or file (``Failure/directory(path:reason:)``, ``Failure/unsafe(path:reason:)``,
    ///   ``Failure/unavailable(path:reason:)``).
    public static func probe(display: String, environment: [String: String]) throws(Failure) -> Probe {
        let (path, _) = try Self.path(display: display, environment: environment)
        let descriptor: FileDescriptor
        do throws(SystemError) {
            descriptor = try SystemCall.system("open") {
                try FileDescriptor.open(FilePath(path), .readOnly, options: [.noFollow, .closeOnExec, .nonBlocking])
            }
        } catch where error.code == .noSuchFileOrDirectory {
            return .free(path: path)
        } catch where error.code == .tooManySymbolicLinkLevels {
            throw .unsafe(path: path, reason: "it is a symbolic link (remove it; it is never followed)")
        } catch {
            throw .unavailable(path: path, reason: error.message)
        }
        defer { SystemCall.close(descriptor.rawValue) }
        guard isOwnRegularFile(descriptor) else {
            throw .unsafe(path: path, reason: "it is not a regular file owned by this user (remove it)")
        }
        do throws(SystemError) {
            try SystemCall.retryingInterrupts("flock") { flock(descriptor.rawValue, LOCK_SH | LOCK_NB) }
        } catch {
            if error.code == .wouldBlock { return .held(path: path, pid: readPID(descriptor)) }
            throw .unavailable(path: path, reason: error.message)
        }
        _ = try? SystemCall.retryingInterrupts("flock") { flock(descriptor.rawValue, LOCK_UN) }
        return .free(path: path)
    }

    /// Whether `descriptor` is a regular file that belongs to this user.
    private static func isOwnRegularFile(_ descriptor: FileDescriptor) -> Bool {
        guard let status = try? SystemCall.system("fstat", { try descriptor.stat() }) else { return false }
        return status.type == .regular && status.userID.rawValue == geteuid()
    }

    /// The pid a holder wrote into the lock file (a short decimal line), if there is one.
    private static func readPID(_ descriptor: FileDescriptor) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { bytes in
            (try? SystemCall.system("pread") { try descriptor.read(fromAbsoluteOffset: 0, into: bytes) }) ?? 0
        }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return Int(text.prefix { $0 != "\n" })
    }

    /// The lock file's path for `display`, its directory checked (and made when it is the
    /// fallback); and a notice when it is not in `$XDG_RUNTIME_DIR`.
    static func path(display: String, environment: [String: String]) throws(Failure) -> (String, String?) {
        let key = DisplayAddress(display).lockKey
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            guard let status = try? SystemCall.system("stat", { try FilePath(runtime).stat() }), status.type == .directory else {
                throw .directory(path: runtime, reason: "XDG_RUNTIME_DIR is not a directory")
            }
            guard status.userID.rawValue == geteuid(), status.permissions.isDisjoint(with: [.groupWrite, .otherWrite]) else {
                throw .directory(
                    path: runtime,
                    reason: "XDG_RUNTIME_DIR must be owned by this user and writable by no one else (owner \(status.userID.rawValue), mode \(octal(status)))")
            }
            return ("\(runtime)/gesture-bridge-\(key).lock", nil)
        }
        let directory = try privateStateDirectory(environment: environment)
        let path = "\(directory)/gesture-bridge-\(hostName())-\(key).lock"
        return (path, "XDG_RUNTIME_DIR is not set: the single-instance lock is \(path)")
    }

    /// `$XDG_STATE_HOME/gesture-bridge` (`$HOME/.local/state/gesture-bridge` by default),
    /// made with mode 0700 where missing, and checked: a real directory of this user's that
    /// no one else can enter.
    private static func privateStateDirectory(environment: [String: String]) throws(Failure) -> String {
        let state: String
        if let given = environment["XDG_STATE_HOME"], given.hasPrefix("/") {
            state = given
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            state = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/state"
        } else {
            throw .directory(
                path: "XDG_RUNTIME_DIR",
                reason: "XDG_RUNTIME_DIR is not set, nor HOME: set XDG_RUNTIME_DIR to a directory only you can write to (login managers make /run/user/\(geteuid()))")
        }
        let directory = state + "/gesture-bridge"
        // Each missing directory on the way, as XDG's base directory specification asks: 0700.
        var made = ""
        for component in directory.split(separator: "/") {
            made += "/" + component
            do throws(SystemError) {
                try SystemCall.retryingInterrupts("mkdir") { mkdir(made, 0o700) }
            } catch where error.code == Errno(rawValue: EEXIST) {
                // There already: the last one is checked below, whoever made it.
            } catch where made != directory && (error.code == .permissionDenied || error.code == .readOnlyFileSystem) {
                // `/home` and the like: not ours to make, and there already when it matters.
            } catch {
                throw .directory(path: made, reason: "\(error.message); set XDG_RUNTIME_DIR to a directory only you can write to")
            }
        }
        let status = try? SystemCall.system("lstat") { try FilePath(directory).stat(followTargetSymlink: false) }
        guard let status, status.type == .directory, status.userID.rawValue == geteuid(),
              status.permissions.isDisjoint(with: [.groupReadWriteExecute, .otherReadWriteExecute])
        else {
            throw .directory(
                path: directory,
                reason: "XDG_RUNTIME_DIR is not set, and this fallback must be a directory (not a symlink) owned by this user with mode 0700 (owner \(status.map { String($0.userID.rawValue) } ?? "unknown"), mode \(status.map(octal) ?? "unknown")); remove it, or set XDG_RUNTIME_DIR")
        }
        return directory
    }

    /// This machine's name, safe in a file name (`_` for anything else).
    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        return safe.isEmpty ? "localhost" : safe
    }

    private static func octal(_ status: Stat) -> String {
        "0" + String(status.permissions.rawValue, radix: 8)
    }
}

/// An X display as its address, not its spelling: `[PROTOCOL/][HOST]:NUMBER[.SCREEN]`, with
/// the screen dropped and the local spellings (no host, `unix`, the `unix/` and `local/`
/// protocols) made one.
///
/// Another host, including `localhost` (a TCP connection, as SSH's X forwarding uses, which is
/// a different server from the local `:N`), stays apart.
///
/// ```swift
/// DisplayAddress(":70.0") == DisplayAddress("unix:70")   // true
/// DisplayAddress(":70").lockKey                          // "display-70"
/// DisplayAddress("localhost:10.0").lockKey               // "display-localhost-10"
/// ```
public struct DisplayAddress: Hashable, Sendable {
    /// The host, lowercased; nil for the local machine's Unix socket.
    public var host: String?
    /// The display number; nil when the name could not be read as an address (it is then
    /// kept whole in ``host``).
    public var number: Int?

    /// Reads a display name as Xlib does.
    public init(_ name: String) {
        var rest = Substring(name)
        var localProtocol = false
        // A protocol prefix (`tcp/`, `unix/`, `inet6/`), but not a socket path (`/tmp/…:0`).
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/"), let colon = rest.lastIndex(of: ":"), slash < colon {
            let scheme = rest[..<slash].lowercased()
            localProtocol = scheme == "unix" || scheme == "local"
            rest = rest[rest.index(after: slash)...]
        }
        guard let colon = rest.lastIndex(of: ":") else {
            host = name
            number = nil
            return
        }
        var hostPart = rest[..<colon].lowercased()
        if hostPart.hasPrefix("["), hostPart.hasSuffix("]") { hostPart = String(hostPart.dropFirst().dropLast()) }
        let displayPart = rest[rest.index(after: colon)...].prefix { $0 != "." }
        guard let number = Int(displayPart), number >= 0 else {
            host = name
            self.number = nil
            return
        }
        self.number = number
        host = localProtocol || hostPart.isEmpty || hostPart == "unix" ? nil : hostPart
    }

    /// A file-name-safe key: `display-N` for the local display N, `display-HOST-N` otherwise.
    public var lockKey: String {
        let parts = [host, number.map(String.init)].compactMap { $0 }
        let safe = parts.joined(separator: "-").map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        return "display-" + String(safe)
    }
}
