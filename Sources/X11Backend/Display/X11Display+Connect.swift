internal import CX11
import BridgeCore
internal import CLinux
import Glibc
import Synchronization

extension X11Display {
    /// How long opening a display may take before gesture-bridge gives up on it.
    ///
    /// An X server answers a connection in milliseconds; one that is busy starting a session
    /// may take a second or two. Ten seconds leaves room for that and still ends a start-up
    /// that would otherwise hang for ever on a socket that accepts but never answers (a stopped
    /// or wedged server, or something else listening at the display's address).
    public static let defaultConnectTimeout = Duration.seconds(10)

    /// The environment variable that overrides ``defaultConnectTimeout``: seconds, a number
    /// above 0 (`0.5`, `30`). Others are ignored.
    public static let connectTimeoutVariable = "GESTURE_BRIDGE_CONNECT_TIMEOUT"

    /// The connect timeout a value of ``connectTimeoutVariable`` asks for, or the default.
    public static func connectTimeout(fromEnvironment value: String?) -> Duration {
        guard let value, let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            return defaultConnectTimeout
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// `XOpenDisplay(name)`, given up after `timeout`.
    ///
    /// Xlib (through xcb) connects, sends its setup request and then reads the reply without
    /// any time limit, and retries when a signal interrupts it. So the call runs on a helper
    /// thread that blocks every signal (they stay the main thread's), and the caller waits for
    /// it with `poll` on an eventfd. A helper that is given up on closes the display itself
    /// if it ever opens; the caller normally exits at once.
    ///
    /// - Throws: ``X11Error/cannotOpenDisplay(_:)`` when Xlib fails,
    ///   ``X11Error/notAnswering(_:timeout:)`` when the time is up.
    static func openConnection(_ name: String, timeout: Duration) throws(X11Error) -> OpaquePointer {
        let attempt: ConnectAttempt
        do throws(SystemError) {
            attempt = try ConnectAttempt(name: name)
        } catch {
            // No eventfd: open without the time limit rather than not at all.
            guard let handle = XOpenDisplay(name) else { throw .cannotOpenDisplay(name) }
            return handle
        }
        var thread = pthread_t()
        let argument = Unmanaged.passRetained(attempt).toOpaque()
        guard pthread_create(&thread, nil, connectOnHelperThread, argument) == 0 else {
            Unmanaged<ConnectAttempt>.fromOpaque(argument).release()
            guard let handle = XOpenDisplay(name) else { throw .cannotOpenDisplay(name) }
            return handle
        }
        pthread_detach(thread)

        let deadline = ContinuousClock.now + timeout
        var descriptors = [pollfd(fd: attempt.event, events: Int16(POLLIN), revents: 0)]
        while true {
            let now = ContinuousClock.now
            let outcome = attempt.state.withLock { state -> ConnectAttempt.State in
                if case .waiting = state, now >= deadline { state = .abandoned }
                return state
            }
            switch outcome {
            case .opened(let bits):
                return OpaquePointer(bitPattern: bits)!
            case .failed:
                throw .cannotOpenDisplay(name)
            case .abandoned:
                throw .notAnswering(name, timeout: timeout)
            case .waiting:
                let ms = ((deadline - now) / .milliseconds(1)).rounded(.up)
                descriptors[0].revents = 0
                _ = try? SystemCall.poll(&descriptors, timeout: Int32(max(1, min(ms, Double(Int32.max)))))
            }
        }
    }
}

/// One `XOpenDisplay` on a helper thread, and what became of it.
final class ConnectAttempt: Sendable {
    enum State: Sendable {
        /// Still connecting.
        case waiting
        /// Connected: the `Display*` as a bit pattern.
        case opened(UInt)
        /// `XOpenDisplay` returned NULL.
        case failed
        /// The caller gave up; the helper closes what it opens.
        case abandoned
    }

    /// The display name to open.
    let name: String
    /// What became of it, shared by the two threads.
    let state = Mutex<State>(.waiting)
    /// An eventfd the helper signals when it is done.
    let event: Int32

    init(name: String) throws(SystemError) {
        self.name = name
        event = try SystemCall.retryingInterrupts("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) }
    }

    deinit { SystemCall.close(event) }
}

/// The helper thread's body: connect, then hand the display over or, if the caller gave up,
/// close it.
private func connectOnHelperThread(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let attempt = Unmanaged<ConnectAttempt>.fromOpaque(argument!).takeRetainedValue()
    // Signals stay with the main thread (its signalfd, or their default action).
    var all = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_BLOCK, &all, nil)
    let handle = XOpenDisplay(attempt.name)
    let handedOver = attempt.state.withLock { state -> Bool in
        if case .abandoned = state { return false }
        state = handle.map { .opened(UInt(bitPattern: $0)) } ?? .failed
        var one: UInt64 = 1
        _ = try? SystemCall.retryingInterrupts("write") { write(attempt.event, &one, MemoryLayout<UInt64>.size) }
        return true
    }
    if !handedOver, let handle { X11Display.closeAbandoned(handle) }
    return nil
}
