public import GestureEngine

/// Why the screen counts as locked. While it is, gestures perform nothing.
///
/// The live layer says which (X11Backend's `ScreenLockMonitor`: the MIT-SCREEN-SAVER state and
/// the windows of known lockers); the pipeline only gates on it.
public enum ScreenLock: Hashable, Sendable, CustomStringConvertible {
    /// The X server's screen saver is on (MIT-SCREEN-SAVER `ScreenSaverOn`, or cycling).
    case screenSaver
    /// A known screen locker has a window mapped; the `WM_CLASS` name that matched.
    case locker(String)

    public var description: String {
        switch self {
        case .screenSaver: "the screen saver is on"
        case .locker(let name): "the screen locker \(name) has its window up"
        }
    }
}

/// Decides whether a gesture may perform, from the screen lock and the input seen.
///
/// A gesture performs nothing while the screen is locked, and neither does one whose input
/// began while it was locked: the press or touch that wakes the screen saver (the X server turns
/// the saver off at the first input, before anyone sees that input) only wakes the screen, and
/// a gesture held through an unlock does not act once it is over. So after a lock ends, gestures
/// stay blocked until the input of that time is all lifted and the engine is idle (no timer
/// pending: a tap that waits for a second one is still the lock's); input that began at or
/// before the instant the lock ended (events queued behind the unlock) counts as the lock's.
/// When input woke the screen saver, the first input to begin after the end, within
/// ``saverWakeSlack`` of it and with nothing else in between, counts too: a device's input turns
/// the saver off at that input's own time, but XTest input (xdotool, test drivers, remote
/// desktops) turns it off when the request arrives, stamped with the server's last time, a few
/// milliseconds before the press it queues (more under load: a CI run saw the waking press
/// perform). A saver a client turned off (`xset s reset`) and a locker's window closing end at
/// once.
///
/// ```text
/// unlocked ──lock──▶ locked ──unlock at T──▶ lingering ──(nothing down, engine idle, an event after T)──▶ unlocked
///                      ▲                        │
///                      └─────────lock───────────┘
/// ```
public struct ScreenLockGate: Sendable {
    /// The lock as the display reports it now; nil when unlocked.
    public private(set) var lock: ScreenLock?
    /// The lock that ended while input of its time may still make a gesture.
    private var lingering: ScreenLock?
    /// When ``lock`` last ended, on the input clock.
    private var endedAt: Instant?
    /// After input woke the screen saver: until when the first input to begin is still the one
    /// that woke it (nil once any input came, or when no input ended the lock).
    private var wakeUntil: Instant?
    private var touches: Set<Int> = []
    private var buttons: Set<Int> = []
    private var touchpad = false

    /// How long after input woke the screen saver input still counts as the one that woke it.
    public static let saverWakeSlack = Interval(milliseconds: 250)

    public init() {}

    /// The lock that stops gestures performing now, if any.
    public var blocking: ScreenLock? { lock ?? lingering }

    /// Whether any input the gate follows is down.
    private var inputDown: Bool { !touches.isEmpty || !buttons.isEmpty || touchpad }

    /// Takes the lock state the display reports, from `instant` on; `endedByInput`: an unlock
    /// that input caused (it woke the screen saver).
    public mutating func set(_ newLock: ScreenLock?, at instant: Instant, endedByInput: Bool = false) {
        if newLock == nil, let lock {
            lingering = lock
            endedAt = instant
            wakeUntil = endedByInput ? instant + Self.saverWakeSlack : nil
        }
        if newLock != nil { lingering = nil }
        lock = newLock
    }

    /// Follows one input event, before the engine handles it.
    ///
    /// - Parameter engineIdle: the engine has no timer pending (nothing of an earlier gesture
    ///   can still fire).
    public mutating func note(_ event: InputEvent, engineIdle: Bool) {
        if lock == nil, lingering != nil, !inputDown, engineIdle, let endedAt {
            if event.time <= endedAt {
                // Input of the lock's time; a press among it is the one that woke the saver.
                if event.kind.beginsInput { wakeUntil = nil }
            } else if let wake = wakeUntil, event.time <= wake, event.kind.beginsInput {
                // The input that woke the saver, stamped after the unlock: still the lock's.
                wakeUntil = nil
            } else {
                lingering = nil
                wakeUntil = nil
            }
        }
        switch event.kind {
        case .touchBegin(let id, _, _): touches.insert(id)
        case .touchEnd(let id, _), .touchCancel(let id, _): touches.remove(id)
        case .buttonPress(let button, _, _): buttons.insert(button)
        case .buttonRelease(let button, _): buttons.remove(button)
        case .touchpadSwipeBegin, .touchpadPinchBegin: touchpad = true
        case .touchpadSwipeEnd, .touchpadPinchEnd: touchpad = false
        default: break
        }
    }

    /// Forgets input the bridge gave back to the application: no gesture can come of it (and
    /// the live capture reports no more of a pointer press given back, its release included).
    public mutating func passedOn(_ decision: OwnershipDecision) {
        switch decision {
        case .touch(let id, _): touches.remove(id)
        case .pointer(let button, _): buttons.remove(button)
        case .touchpad: touchpad = false
        }
    }
}

extension InputEvent.Kind {
    /// A press, a touch or a touchpad gesture beginning.
    fileprivate var beginsInput: Bool {
        switch self {
        case .buttonPress, .touchBegin, .touchpadSwipeBegin, .touchpadPinchBegin: true
        default: false
        }
    }
}
