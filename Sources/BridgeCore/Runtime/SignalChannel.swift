import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Signals as readable events on a file descriptor (`signalfd`), so the daemon's one thread
/// handles them in its `poll` loop instead of in a signal handler.
public final class SignalChannel {
    /// The descriptor to poll.
    public let fileDescriptor: Int32

    /// Blocks `signals` for normal delivery and routes them to the descriptor.
    public init(_ signals: [Int32]) throws(RuntimeFailure) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { throw RuntimeFailure("cannot block signals") }
        let fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else { throw RuntimeFailure("signalfd: \(String(cString: strerror(errno)))") }
        fileDescriptor = fd
    }

    /// The signals that arrived since the last call.
    public func drain() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        while read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }

    deinit { close(fileDescriptor) }
}

/// A failure of the daemon's runtime (not of X, not of the config).
public struct RuntimeFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
