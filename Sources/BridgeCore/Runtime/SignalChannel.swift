import CLinux
import POSIX
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
        do throws(SystemError) {
            try SystemCall.returningErrno("pthread_sigmask") { pthread_sigmask(SIG_BLOCK, &mask, nil) }
        } catch {
            throw RuntimeFailure("cannot block signals: \(error.message)")
        }
        do throws(SystemError) {
            fileDescriptor = try SystemCall.retryingInterrupts("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
        } catch {
            throw RuntimeFailure("\(error)")
        }
    }

    /// The signals that arrived since the last call.
    public func drain() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        // Non-blocking: `EAGAIN` once every signal was read.
        let descriptor = FileDescriptor(rawValue: fileDescriptor)
        while (try? SystemCall.system("read") { try withUnsafeMutableBytes(of: &info) { try descriptor.read(into: $0) } }) == size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }

    deinit { SystemCall.close(fileDescriptor) }
}

/// A failure of the daemon's runtime (not of X, not of the config).
public struct RuntimeFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
