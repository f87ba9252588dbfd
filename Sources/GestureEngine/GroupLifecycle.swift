// The states a gesture group moves through, each in one value with its transitions in one
// place: where the group is in its life (`GroupPhase`) and who owns its input
// (`InputDecision`). Each recognizer's own states are in `Recognizers/`.

/// Where a gesture group is in its life. Changed only through `GestureGroup.move(to:)`, which
/// checks ``canMove(to:)`` and reports any other transition as an engine bug.
///
/// ```text
///            begin              settle               first lift
///   idle ───────────▶ settling ──────────▶ open ─────────────────▶ lifting
///    ▲                                      │                         │
///    │                     a swipe won, a   │                         │ a late finger,
///    │                     late finger, a   │                         │ a touch cancel
///    │                     touch cancel, no │                         │
///    │                     binding can win  ▼                         │
///    │                                   finished ◀───────────────────┘
///    │
///    └── end (last lift, button release, touchpad end), abandon (reload, shutdown), or the
///        input released to the application: from every phase but idle
/// ```
///
/// - `settling`: fingers may still join (the touchscreen's finger-settle window); the count and
///   so the recognizers are not known yet. Pointer and touchpad groups settle at once.
/// - `open`: the count is fixed and the bound recognizers compete; timers run.
/// - `lifting`: a finger lifted. Values are frozen as they were before it; a running gesture
///   goes on until the last lift and a tap may still complete, but nothing new begins.
/// - `finished`: nothing more can be recognized; the group waits for its input to end.
enum GroupPhase: UInt8, CustomStringConvertible {
    case idle, settling, open, lifting, finished

    /// Whether a group may go from this phase to `next` (see the diagram).
    func canMove(to next: GroupPhase) -> Bool {
        switch (self, next) {
        case (.idle, .settling), (.settling, .open), (.open, .lifting), (.open, .finished), (.lifting, .finished):
            true
        case (.settling, .idle), (.open, .idle), (.lifting, .idle), (.finished, .idle):
            true
        default:
            false
        }
    }

    var description: String {
        switch self {
        case .idle: "idle"
        case .settling: "settling"
        case .open: "open"
        case .lifting: "lifting"
        case .finished: "finished"
        }
    }
}

/// Who owns a group's input. Each touch, press or touchpad sequence gets exactly one decision.
///
/// ```text
///   undecided ──a binding won (or claim_on_second_finger)──▶ claimed ──a finger joins──▶ claimed
///       │                                                       (the newcomer is claimed too)
///       ├──no binding can win any more──▶ released
///       └──the group was a tap──▶ handedToTaps (the multi-tap sequence decides its touches)
/// ```
enum InputDecision: UInt8, CustomStringConvertible {
    case undecided, claimed, released, handedToTaps

    var description: String {
        switch self {
        case .undecided: "undecided"
        case .claimed: "claimed"
        case .released: "released"
        case .handedToTaps: "handed to the multi-tap"
        }
    }
}

/// What a group tells its source: engine outputs, in order, and its tap's verdict at the
/// moment it falls, so the touchscreen's multi-tap sequence is decided in the same order.
/// Sources that never tap (pointer, touchpad) pass the engine outputs on and nothing else.
enum GroupOutput {
    /// An output for the engine's caller.
    case engine(EngineOutput)
    /// The group's tap recognizer failed at this instant: a multi-tap waiting for this group is
    /// decided now, with the taps it has.
    case tapFailed(at: Instant)
    /// The group was a tap.
    case tapCompleted(CompletedTap)
}

/// A tap a group completed: what the multi-tap sequence needs to count it.
struct CompletedTap {
    var time: Instant
    var fingers: Int
    /// Where the fingers landed (centroid).
    var position: Point
    var app: FocusedApp
    /// The monitor the tap started on (`nil`: the screen is unknown).
    var monitor: String?
    /// How far from it the next tap of a multi-tap may land, in pixels of that monitor.
    var multiTapDistancePx: Double
    /// The modifier keys held when the tap began.
    var modifiers: Modifiers
    /// The group's touches, whose ownership the sequence now decides.
    var touches: [Int]
    /// The highest tap count bound for these fingers here: reached, the sequence fires at once.
    var maxTaps: Int
}

/// An impossible transition inside the engine: a bug, reported instead of ignored (libinput's
/// `log_gesture_bug`). Debug builds also stop at an assertion.
public struct EngineBug: Hashable, Sendable, CustomStringConvertible {
    /// When it happened.
    public var time: Instant
    /// The device whose gesture group hit it.
    public var device: DeviceKind
    /// What was attempted, from which state.
    public var message: String

    public init(time: Instant, device: DeviceKind, message: String) {
        self.time = time
        self.device = device
        self.message = message
    }

    public var description: String {
        "engine bug (please report it): \(device.rawValue) gesture group: \(message)"
    }
}
