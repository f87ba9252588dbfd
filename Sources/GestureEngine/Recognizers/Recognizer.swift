/// One recognizer of a gesture group: the state of one kind of gesture in that group, what
/// it needs to judge it (its deadline, what it saw when it began), its verdict on the group's
/// measures, and the fields it adds to its reports.
///
/// Recognizers never call each other and never emit: they judge and remember. The arena
/// (``GestureGroup``) asks them in its order, moves their states (checked by
/// ``canMove(to:)``, traced for `--verbose`), rejects the losers and reports. A recognizer no
/// binding of the group names stays `failed`; those a binding names come into play (`possible`)
/// when the finger count is fixed.
///
/// ```swift
/// var tap = TapRecognizer()
/// tap.prepare(start: Instant(milliseconds: 0), maxTaps: 2, RecognizerSettings())
/// tap.state = .possible
/// tap.evaluate(measures, settings)   // .fail once a finger wandered past slop_px
/// ```
protocol Recognizer {
    /// The kind of gesture it recognizes.
    var kind: GestureKind { get }
    /// Where it is; changed by the arena only, through a move its diagram allows.
    var state: RecognizerState { get set }
    /// Whether its diagram allows the move from ``state`` to `next`.
    func canMove(to next: RecognizerState) -> Bool
}

/// The state of one recognizer inside a gesture group (each recognizer's own diagram says
/// which moves it makes).
///
/// ```text
///   possible ──(thresholds met)──▶ active ──(last lift)──▶ done         continuous gestures
///   possible ──(thresholds met)──▶ done                                 discrete gestures
///   possible ──(ruled out: moved, too slow, too late, another won)──▶ failed
/// ```
/// A swipe whose thresholds are met while a stroke is bound becomes `pending` instead of `done`:
/// it is decided at the lift, where a matching stroke wins over it (docs/interface.md, «Strokes»).
enum RecognizerState: UInt8, CustomStringConvertible {
    case possible, active, done, failed
    /// A swipe that met its thresholds while a stroke is bound, waiting for the lift.
    case pending

    /// Whether the recognizer can still win the group: `possible`, or a `pending` swipe.
    var canStillWin: Bool { self == .possible || self == .pending }

    var description: String {
        switch self {
        case .possible: "possible"
        case .active: "active"
        case .done: "done"
        case .failed: "failed"
        case .pending: "pending"
        }
    }

    /// The moves of a discrete gesture (tap, stroke): it wins once, or fails.
    func discreteCanMove(to next: RecognizerState) -> Bool {
        self == .possible && (next == .done || next == .failed)
    }

    /// The moves of a continuous gesture (long press, pan, pinch, rotate): it begins and runs
    /// until the last lift or a cancel, or fails before it began.
    func continuousCanMove(to next: RecognizerState) -> Bool {
        switch (self, next) {
        case (.possible, .active), (.possible, .failed), (.active, .done): true
        default: false
        }
    }
}

/// A recognizer's verdict on the group's measures at one moment.
enum Verdict: Equatable {
    /// Nothing decided yet.
    case undecided
    /// It cannot win any more.
    case fail
    /// Its thresholds are met: it wins (or begins), when the arena lets it.
    case win
}

/// Whether a measured value reaches a threshold (inclusively, see ``RepeatRatchet/reaches(_:_:)``).
@inline(__always) func reaches(_ value: Double, _ threshold: Double) -> Bool {
    RepeatRatchet.reaches(value, threshold)
}
