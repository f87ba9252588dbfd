import GestureEngine

/// One press of the trigger button that the passive grab took: from the press, through the
/// engine's single decision, to the physical release.
///
/// The button grab is *synchronous*: the moment it activates, the server holds (freezes) every
/// further event of that master pointer, so nothing reaches an application and the cursor
/// waits. While frozen, the engine follows the press through the raw events of the slave
/// device that pressed (raw slave events are still delivered). The decision thaws the pointer:
///
/// ```text
///            press (grab activates, master frozen)
///                 │
///             undecided ──claim──────▶ claimed    XIAllowEvents(XIAsyncDevice): the held events,
///                 │                               then the rest of the press, come to the bridge
///                 └──────release─────▶ givenBack  XIAllowEvents(XIReplayDevice): the server replays
///                                                 the press where it happened, the held motion in
///                                                 order, then the release, to the application
/// raw release of the source: released = true      (any state; the press ends once also decided)
/// ```
///
/// Replaying through the server is what makes a give-back exact: an XTest replay cannot press
/// a button that a physical device still holds (the master already has it down), so the
/// application would see a release without its press. The passive grab itself is never lifted
/// to give a press back, so it cannot be lost on the way.
struct TriggerPress: Hashable {
    /// What the engine decided about the press.
    enum Decision: Hashable {
        /// The master pointer is frozen, waiting for the engine.
        case undecided
        /// A bound gesture won it: the rest of the press belongs to the bridge.
        case claimed
        /// No binding can match: replayed to the application, which owns the rest of it.
        case givenBack
    }

    /// The X button number.
    let button: Int
    /// The master pointer whose grab froze: the device `XIAllowEvents` is sent to.
    let master: Int32
    /// The slave device that pressed: its raw events carry the press's motion and release.
    let source: Int32
    /// The pointer's position by the raw events so far.
    var position: Point
    var decision = Decision.undecided
    /// The source device released the button.
    var released = false

    /// Whether the engine still follows the press: a press given back is the application's.
    var feedsEngine: Bool { decision != .givenBack }

    /// Whether nothing more is to happen: released, and decided.
    var isFinished: Bool { released && decision != .undecided }

    /// Takes the engine's decision; `nil` when the press was decided already (a decision
    /// comes once: a second one is ignored).
    mutating func decide(_ ownership: Ownership) -> Decision? {
        guard decision == .undecided else { return nil }
        decision = ownership == .claim ? .claimed : .givenBack
        return decision
    }
}

/// How a slave pointer's raw motion moves the pointer: the valuators 0 and 1 of a relative
/// device are (accelerated) deltas, those of an absolute one are positions in its axis range.
///
/// Raw events carry no screen position, and the frozen master's own position does not move
/// while the press is undecided, so the position is followed from the raw values. XTest's
/// absolute motion is the exception it cannot see: the XTest device is relative, but an
/// absolute fake motion sends screen coordinates through it; test tools that drag with the
/// trigger button held move relatively (`xdotool mousemove_relative`).
struct PointerAxes {
    /// The x and y axis ranges of an absolute device; nil: a relative device.
    var absoluteRange: (x: ClosedRange<Double>, y: ClosedRange<Double>)?

    /// Where raw values `x`, `y` (either may be absent) put the pointer that was at `from`, on
    /// a screen of `width` × `height`; kept on the screen as the server keeps it.
    func move(_ from: Point, x: Double?, y: Double?, width: Int, height: Int) -> Point {
        var p = from
        if let range = absoluteRange {
            if let x { p.x = Self.scale(x, range.x, Double(width)) }
            if let y { p.y = Self.scale(y, range.y, Double(height)) }
        } else {
            p.x += x ?? 0
            p.y += y ?? 0
        }
        p.x = min(max(p.x, 0), Double(max(width - 1, 0)))
        p.y = min(max(p.y, 0), Double(max(height - 1, 0)))
        return p
    }

    /// The server's own scale (`rescaleValuatorAxis`): the axis spans `max - min + 1` units.
    static func scale(_ v: Double, _ range: ClosedRange<Double>, _ size: Double) -> Double {
        (v - range.lowerBound) / (range.upperBound - range.lowerBound + 1) * size
    }
}
