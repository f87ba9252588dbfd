import BridgeCore
import Glibc
import Synchronization

/// Keeps a stop from waiting for an X server that does not answer: a thread of its own that,
/// once a stop signal is pending or the loop has begun to stop, gives the X connections up
/// after ``giveUpAfter`` and ends the process after ``exitAfter`` if it still runs.
///
/// The daemon's one thread handles its signals in its `poll` loop; while it waits in Xlib for
/// a reply from a stopped or wedged server, neither a SIGTERM nor anything else reaches it (Xlib
/// waits as long as the server does: 60 s of `SIGSTOP` were 60 s of ignored SIGTERM). So this
/// thread watches the same signalfd without reading it (`poll`, then `sigpending` for the stop
/// signals) and is told when the loop begins its shutdown (``stopping()``); from the first of
/// the two it counts. Giving up shuts the sockets down (``giveUp``): the blocked Xlib call
/// returns, every later one fails at once, and the loop finishes its stop without the server.
/// What the daemon held through XTest is then its watcher's to release (``HeldKeyWatch``).
///
/// A stop that goes well ends the process long before: the thread just dies with it.
///
/// ```swift
/// let deadline = try StopDeadline(signals: channel.fileDescriptor, stopSignals: [SIGINT, SIGTERM],
///                                 giveUp: { X11Display.giveUpEveryConnection() }, exit: { _exit(0) })
/// // in the loop, on SIGTERM:
/// deadline.stopping()
/// ```
final class StopDeadline: Sendable {
    /// How long a stop may wait for the X server before the connections are given up. A server
    /// that answers lets go of the grabs and keys in milliseconds; a second leaves room for one
    /// that is busy, within the 2 s in which a SIGTERM is honoured (docs/reliability.md).
    static let giveUpAfter = Duration.seconds(1)
    /// How long after the stop began the process ends whatever it waits for (a log pipe nobody
    /// reads, a connection that did not end): still within 2 s.
    static let exitAfter = Duration.milliseconds(1800)
    /// How long the thread sleeps when other signals wait on the signalfd: the loop reads them,
    /// and until it does `poll` would wake at once, again and again.
    static let otherSignalsPause = Duration.milliseconds(50)

    private let signalDescriptor: Int32
    private let stopSignals: [Int32]
    /// A pipe ``stopping()`` writes to: read end, write end.
    private let stopPipe: [Int32]
    private let giveUp: @Sendable () -> Void
    private let exit: @Sendable () -> Void
    /// The stop is over (``finished()``): nothing more to give up or end.
    private let over = Atomic<Bool>(false)

    /// Starts the thread.
    ///
    /// - Parameters:
    ///   - signals: the daemon's signalfd (polled, never read).
    ///   - stopSignals: the signals that stop the daemon.
    ///   - giveUp: gives the X connections up (no Xlib call: another thread may be in one).
    ///   - exit: ends the process.
    init(
        signals: Int32, stopSignals: [Int32], giveUp: @escaping @Sendable () -> Void, exit: @escaping @Sendable () -> Void
    ) throws(SystemError) {
        self.signalDescriptor = signals
        self.stopSignals = stopSignals
        self.giveUp = giveUp
        self.exit = exit
        var ends: [Int32] = [-1, -1]
        try SystemCall.once("pipe") { pipe(&ends) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        stopPipe = ends
        var thread = pthread_t()
        let argument = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { argument in
            Unmanaged<StopDeadline>.fromOpaque(argument!).takeRetainedValue().watch()
            return nil
        }, argument)
        guard created == 0 else {
            Unmanaged<StopDeadline>.fromOpaque(argument).release()
            for end in stopPipe { SystemCall.close(end) }
            throw SystemError("pthread_create", code: Errno(rawValue: created))
        }
        pthread_detach(thread)
    }

    deinit { for end in stopPipe { SystemCall.close(end) } }

    /// The loop begins to stop: the deadlines count from now, unless a pending stop signal
    /// started them already.
    func stopping() {
        var one: UInt8 = 1
        _ = try? SystemCall.retryingInterrupts("write") { write(stopPipe[1], &one, 1) }
    }

    /// The stop is over and the run returns: the deadlines no longer apply (a process that goes
    /// on after the run, as a test may, keeps its connections).
    func finished() {
        over.store(true, ordering: .sequentiallyConsistent)
        // Wakes the thread if it still waits for a stop: it ends without acting.
        stopping()
    }

    /// The thread's body: waits for a stop, then for the deadlines.
    private func watch() {
        // The daemon's signals stay blocked here as in the thread that started this one (they
        // are the signalfd's); others are not blocked, so that a crash report can stop this
        // thread too (Swift's backtracer suspends every thread with a signal).
        var descriptors = [
            pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            for i in descriptors.indices { descriptors[i].revents = 0 }
            _ = try? SystemCall.poll(&descriptors, timeout: -1)
            if descriptors[0].revents != 0 { break }
            guard descriptors[1].revents != 0 else { continue }
            var pending = sigset_t()
            sigpending(&pending)
            if stopSignals.contains(where: { sigismember(&pending, $0) == 1 }) { break }
            sleep(for: Self.otherSignalsPause)
        }
        let began = ContinuousClock.now
        sleep(until: began + Self.giveUpAfter)
        guard !over.load(ordering: .sequentiallyConsistent) else { return }
        giveUp()
        sleep(until: began + Self.exitAfter)
        guard !over.load(ordering: .sequentiallyConsistent) else { return }
        exit()
    }

    private func sleep(until instant: ContinuousClock.Instant) {
        while ContinuousClock.now < instant { sleep(for: instant - .now) }
    }

    private func sleep(for duration: Duration) {
        let (seconds, attoseconds) = max(duration, .zero).components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        _ = nanosleep(&request, nil)
    }
}
