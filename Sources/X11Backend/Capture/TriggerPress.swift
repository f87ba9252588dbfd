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
    /// The grab of a claimed press was let go before its release, for a screen locker
    /// (``X11InputCapture/yieldClaimedPress()``).
    var grabLetGo = false
    /// The device that pressed no longer held the button when the press came through the
    /// grab: its raw release may have been read before the press (and not kept) or come with
    /// the events read since; if it does not, the press ends once they are handled.
    var letGoUnseen = false

    /// The last two steps of the pointer by the raw events, newest first (see ``likelyNextMotion``).
    private(set) var lastStep: Step? = nil
    private(set) var stepBefore: Step? = nil

    /// One step of the pointer: how far it went, when it got there, and how long after the
    /// step before (zero for the first).
    struct Step: Hashable {
        let move: Point
        let at: Instant
        let after: Interval
    }

    /// The pointer moved to `p` at `t` (a raw motion of the source).
    mutating func moved(to p: Point, at t: Instant) {
        stepBefore = lastStep
        lastStep = Step(move: p - position, at: t, after: lastStep.map { t - $0.at } ?? Interval(milliseconds: 0))
        position = p
    }

    /// Where and when the pointer's next motion is likely to be, by the last two steps: the
    /// shorter of them once more, after as long. A hand drags at a steady pace from one step to
    /// the next; the shorter step errs towards a motion that does not go as far.
    var likelyNextMotion: (to: Point, at: Instant)? {
        guard let lastStep else { return nil }
        var step = lastStep
        if let stepBefore, stepBefore.move.length < lastStep.move.length { step = stepBefore }
        return (position + step.move, lastStep.at + step.after)
    }

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

/// When the pointer was frozen by a press of the trigger button, in the serial numbers of the
/// requests on the bridge's connection: every event carries the serial of the last request the
/// server had processed when it sent the event, so the serials say whether the server sent an
/// event before or after it processed the thaw — whenever the daemon gets to read it.
///
/// A press that the grab delivers late (see ``EarlyReleases``) was made while the pointer was
/// frozen; its raw release too, when it is read before the press. Such a release was sent at or
/// after the press that froze the pointer (``start``, that event's serial) and before the server
/// processed the request that let it go (``end``, that request's serial; `nil` while the press
/// is undecided or its claim is not sent yet). A wall clock cannot tell this: a daemon slowed by
/// a busy machine, or one that sends a claim only after the rest of what it read (keys go out
/// before the thaw), reads queued input long after it let the press go.
struct PointerFreeze: Hashable {
    /// The serial of the grabbed press that froze the pointer; `nil` before the first.
    var start: UInt?
    /// The serial of the `XIAllowEvents` request that thawed it.
    var end: UInt?

    /// Whether an event with `serial` was sent by the server during the freeze.
    func contains(_ serial: UInt) -> Bool {
        guard let start, serial >= start else { return false }
        return end.map { serial < $0 } ?? true
    }
}

/// Raw releases of the trigger button that no followed press took, kept until a press they
/// may belong to comes through the grab: the release of a press the server delivered late.
///
/// A press can reach the passive grab long after it happened. While the master pointer is
/// frozen (a press of ours still undecided, another client's synchronous grab), its further
/// events wait in the server's queue, but the raw events of the slave that made them are
/// delivered at once. So when the daemon is slow — stopped (`SIGSTOP`), or busy — and the
/// hand releases and presses again behind an undecided press, the raw release of that second
/// press is read *before* the press itself is replayed into the grab, and no raw release
/// follows it. The engine would wait for that release for ever: a long press begun on it would
/// never end (its repeats firing on), and the press would only end at the next one.
///
/// Only releases the server sent while a press of ours held the pointer frozen are kept
/// (``PointerFreeze``): a release sent at another time (a click another client's grab took, an
/// injected click) belongs to no press that can still come through the grab, and a later press
/// of the same device in the very same millisecond (server times are in milliseconds) would take
/// it as its own and be given back as a click.
///
/// Each kept release is a slave's (`deviceid == sourceid`), with its server time; the press
/// takes the first one of its device and button at or after its own time (a slave releases a
/// button only after pressing it). Releases older than a press of their device can belong to
/// no later press and are dropped then; at most ``capacity`` are kept.
struct EarlyReleases {
    /// One raw release of `button` by the slave `source` at `time`.
    struct Release: Hashable {
        var source: Int32
        var button: Int
        var time: Instant
    }

    /// The most releases kept: a hand cannot queue this many presses behind one freeze, and
    /// an XTest client that queues more gets, for each press whose release was forgotten, a
    /// release at the time it comes through the grab (the device is asked whether it still
    /// holds the button), never a wait for the engine's deadline. 1,024 releases are 32 KiB.
    static let capacity = 1024

    private(set) var releases: [Release] = []

    /// Keeps a raw release that no press in progress took.
    mutating func note(source: Int32, button: Int, time: Instant) {
        releases.append(Release(source: source, button: button, time: time))
        if releases.count > Self.capacity { releases.removeFirst(releases.count - Self.capacity) }
    }

    /// The time of the release of a press of `button` by `source` at `time`, when that release
    /// was read already; forgets it and every release of that device and button before it.
    mutating func take(source: Int32, button: Int, pressedAt time: Instant) -> Instant? {
        let mine = { (r: Release) in r.source == source && r.button == button }
        releases.removeAll { mine($0) && $0.time < time }
        guard let index = releases.firstIndex(where: mine) else { return nil }
        return releases.remove(at: index).time
    }
}
