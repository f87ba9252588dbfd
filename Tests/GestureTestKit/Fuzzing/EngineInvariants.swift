public import GestureEngine

/// Checks what the engine emits against the promises it makes for any input, whatever the
/// gestures: the property tests run it on random streams and the fuzzers on every input.
///
/// - Every `began` ends exactly once, in `ended` or `cancelled`; nothing of that gesture comes
///   after it (no `changed`, no second end) until the next `began`.
/// - Reports are in time order, and none is later than the latest instant the engine was given.
/// - Each piece of input gets exactly one ownership decision: every touch (a begin of an id
///   that is not down), every press that starts a pointer gesture (``PointerPresses``: of a
///   trigger button, with the modifiers a binding of it wants), every touchpad sequence; the
///   decision of a press or a touchpad sequence comes by its end.
/// - Discrete gestures are only `recognized`, continuous ones never; a firing names a bound
///   trigger of the same gesture.
/// - No ``EngineOutput/bug(_:)``; at most ``maximumReportsPerCall`` reports per event or advance.
///   The work of one event is bounded by the configuration, never by the input's values.
///
/// Feed it each step before the engine handles it (``willHandle(_:)``, ``willAdvance(to:)``),
/// every output (``observe(_:)``), the end of each call (``endCall()``), then ``finish()``.
///
/// ```swift
/// var check = EngineInvariants(configuration)
/// for e in events {
///     check.willHandle(e)
///     engine.handle(e) { check.observe($0) }
///     check.endCall()
/// }
/// check.finish()
/// #expect(check.violations.isEmpty, "\(check.violations)")
/// ```
public struct EngineInvariants: Sendable {
    /// The most gesture reports one event or advance may bring: each bound trigger may fire 32
    /// repeat steps for one event in each of the three sources (equally specific triggers fire
    /// side by side; one trigger of any device repeats on the touchscreen and the pointer at
    /// once), besides a few phases (a multi-tap, a swipe, pinches and rotates beginning and
    /// ending).
    public let maximumReportsPerCall: Int
    /// Violations beyond this many are not recorded (the first ones say it).
    static let maximumViolations = 20

    /// What went wrong, in the order found; empty when every promise held.
    public private(set) var violations: [String] = []

    private let triggers: [Trigger]
    /// Which presses start a pointer gesture.
    private let presses: PointerPresses
    private var step = 0
    private var latest: Instant? = nil
    private var lastReport: Instant? = nil
    private var reportsThisCall = 0
    /// Continuous gestures in progress, by device and gesture.
    private var running: Set<String> = []
    /// Input side: the touch ids down now.
    private var touchesDown: Set<Int> = []
    /// Touches (by id) that began and have no decision yet, oldest first per id.
    private var undecidedTouches: [Int: Int] = [:]
    /// Input side: the button of the press that started a pointer gesture, while it is down.
    private var triggerDown: Int? = nil
    /// The button of the last press that started a pointer gesture: its decision names it.
    private var lastTrigger = 0
    /// A press that starts a gesture while such a press is down (input no X server sends, but
    /// a trace may): which press a decision belongs to is then no longer known, so presses go
    /// unchecked.
    private var pointerUnknown = false
    private var undecidedPresses = 0
    /// Input side: the touchpad sequence's family (pinch: true) while one is open.
    private var touchpadPinch: Bool? = nil
    private var undecidedSequences = 0
    /// What the step being handled must have settled by the end of the call.
    private var mustSettle: (presses: Bool, sequences: Bool) = (false, false)

    /// A checker for an engine with `configuration`.
    public init(_ configuration: EngineConfiguration) {
        triggers = configuration.triggers
        presses = PointerPresses(triggers: configuration.triggers, defaultButton: configuration.pointerButton)
        maximumReportsPerCall = 16 + 3 * 32 * max(1, configuration.triggers.count)
    }

    private mutating func fail(_ message: String) {
        guard violations.count < Self.maximumViolations else { return }
        violations.append("step \(step): " + message)
    }

    private mutating func reach(_ instant: Instant) {
        if let latest, instant <= latest { return }
        latest = instant
    }

    /// Notes the event the engine is about to handle.
    public mutating func willHandle(_ event: InputEvent) {
        step += 1
        reach(event.time)
        switch event.kind {
        case .touchBegin(let id, _, _):
            if touchesDown.insert(id).inserted { undecidedTouches[id, default: 0] += 1 }
        case .touchEnd(let id, _), .touchCancel(let id, _):
            touchesDown.remove(id)
        case .buttonPress(let button, _, let modifiers) where presses.starts(button: button, modifiers: modifiers):
            if triggerDown != nil { pointerUnknown = true }
            triggerDown = button
            lastTrigger = button
            undecidedPresses += 1
        case .buttonRelease(let button, _) where button == triggerDown:
            mustSettle.presses = true
            triggerDown = nil
        case .touchpadSwipeBegin, .touchpadPinchBegin:
            // A begin without an end ends the sequence before it.
            if touchpadPinch != nil { mustSettle.sequences = true }
            if case .touchpadPinchBegin = event.kind { touchpadPinch = true } else { touchpadPinch = false }
            undecidedSequences += 1
        case .touchpadSwipeEnd where touchpadPinch == false, .touchpadPinchEnd where touchpadPinch == true:
            touchpadPinch = nil
            mustSettle.sequences = true
        default:
            break
        }
    }

    /// Notes that time is about to run on to `instant` with no event.
    public mutating func willAdvance(to instant: Instant) {
        step += 1
        reach(instant)
    }

    /// Checks one output, as the engine emits it.
    public mutating func observe(_ output: EngineOutput) {
        switch output {
        case .gesture(let r):
            reportsThisCall += 1
            check(r)
        case .touch(let id, let ownership):
            guard let n = undecidedTouches[id], n > 0 else {
                fail("touch \(id) got a second decision (\(ownership.rawValue)), or one for a touch that never began")
                return
            }
            undecidedTouches[id] = n == 1 ? nil : n - 1
        case .pointer(let button, let ownership):
            if button != lastTrigger && !pointerUnknown {
                fail("a decision (\(ownership.rawValue)) for button \(button), not the trigger button pressed (\(lastTrigger))")
            }
            if undecidedPresses == 0 {
                if !pointerUnknown { fail("a second decision (\(ownership.rawValue)) for a press of button \(button)") }
            } else {
                undecidedPresses -= 1
            }
        case .touchpad(let ownership):
            if undecidedSequences == 0 {
                fail("a second decision (\(ownership.rawValue)) for a touchpad sequence")
            } else {
                undecidedSequences -= 1
            }
        case .transition, .path:
            break
        case .bug(let bug):
            fail("engine bug: \(bug)")
        }
    }

    private mutating func check(_ r: GestureReport) {
        let line = describe(r) + " at \(r.time.milliseconds)"
        if let lastReport, r.time < lastReport { fail("time ran backwards from \(lastReport.milliseconds) to \(line)") }
        if let latest, r.time > latest { fail("a report later than any instant given (\(latest.milliseconds)): \(line)") }
        lastReport = r.time
        if let f = r.firing {
            if !triggers.indices.contains(f) {
                fail("a firing of trigger \(f) of \(triggers.count): \(line)")
            } else if triggers[f].gesture != r.gesture {
                fail("trigger \(f) is a \(triggers[f].gesture.rawValue), fired by \(line)")
            }
        }
        guard r.gesture.isContinuous else {
            if r.phase != .recognized { fail("a discrete gesture \(r.phase.rawValue): \(line)") }
            return
        }
        let key = "\(r.device.rawValue) \(r.gesture.rawValue)"
        switch r.phase {
        case .began:
            if !running.insert(key).inserted { fail("\(key) began twice: \(line)") }
        case .changed:
            if !running.contains(key) { fail("\(key) changed while not running (before began or after its end): \(line)") }
        case .ended, .cancelled:
            if running.remove(key) == nil { fail("\(key) \(r.phase.rawValue) while not running: \(line)") }
        case .recognized:
            fail("a continuous gesture recognized: \(line)")
        }
    }

    /// Checks what one event or advance settled: its number of reports, and the decision of
    /// a press or touchpad sequence that ended.
    public mutating func endCall() {
        if reportsThisCall > maximumReportsPerCall {
            fail("\(reportsThisCall) reports for one step (at most \(maximumReportsPerCall))")
        }
        reportsThisCall = 0
        if mustSettle.presses && !pointerUnknown && undecidedPresses > 0 {
            fail("a press of button \(lastTrigger) was released without a decision")
        }
        // The sequence that began in this step may be undecided yet; none before it.
        let open = touchpadPinch != nil ? 1 : 0
        if mustSettle.sequences && undecidedSequences > open {
            fail("a touchpad sequence ended without a decision")
        }
        mustSettle = (false, false)
    }

    /// The final checks, once the input is over and time ran on (and, for a fuzzer, the
    /// engine abandoned what was left): every gesture ended, every input decided.
    public mutating func finish() {
        for key in running.sorted() { fail("\(key) never ended") }
        for (id, n) in undecidedTouches.sorted(by: { $0.key < $1.key }) where n > 0 {
            fail("touch \(id): \(n) without a decision")
        }
        if !pointerUnknown && undecidedPresses > 0 { fail("\(undecidedPresses) press(es) of button \(lastTrigger) without a decision") }
        if undecidedSequences > 0 { fail("\(undecidedSequences) touchpad sequence(s) without a decision") }
    }
}

extension EngineInvariants {
    /// Runs `events` through a fresh engine, lets time run 10 s past the last, and returns
    /// every broken promise (see ``EngineInvariants``). Nothing is abandoned at the end: input
    /// that ended must have been decided by itself.
    ///
    /// ```swift
    /// let violations = EngineInvariants.violations(EngineConfiguration(triggers: [tap()]), events)
    /// #expect(violations.isEmpty, "\(violations)")
    /// ```
    public static func violations(_ configuration: EngineConfiguration, _ events: [InputEvent]) -> [String] {
        var engine = Engine(configuration)
        var check = EngineInvariants(configuration)
        var last = Instant(milliseconds: 0)
        for e in events {
            check.willHandle(e)
            engine.handle(e) { check.observe($0) }
            check.endCall()
            last = max(last, e.time)
        }
        let end = last + Interval(milliseconds: 10_000)
        check.willAdvance(to: end)
        engine.advance(to: end) { check.observe($0) }
        check.endCall()
        check.finish()
        return check.violations
    }
}
