import GestureEngine
import GestureTestKit
import Testing

/// Random but well-formed input: touches that begin, move and end (some cancelled), pointer
/// presses, touchpad sequences, focus and screen changes, interleaved with random gaps.
func randomStream(seed: UInt64, length: Int = 400) -> [InputEvent] {
    var rng = SplitMix64(seed: seed)
    var t = 0.0
    var events: [InputEvent] = [InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800))]
    var down: [Int: Point] = [:]
    var nextID = 1
    var buttonDown = false
    var touchpad: (swipe: Bool, fingers: Int)? = nil
    func point(_ rng: inout SplitMix64) -> Point { Point(x: Double.random(in: 0...1280, using: &rng), y: Double.random(in: 0...800, using: &rng)) }
    for _ in 0..<length {
        t += [0, 1, 5, 16, 40, 120, 350, 700].randomElement(using: &rng)!
        let roll = Int.random(in: 0..<100, using: &rng)
        let kind: InputEvent.Kind
        switch roll {
        case 0..<18 where down.count < 5:
            let p = point(&rng); down[nextID] = p
            kind = .touchBegin(id: nextID, at: p); nextID += 1
        case 0..<55 where !down.isEmpty:
            let id = down.keys.sorted().randomElement(using: &rng)!
            let p = down[id]! + Point(x: Double.random(in: -40...40, using: &rng), y: Double.random(in: -40...40, using: &rng))
            down[id] = p
            kind = .touchUpdate(id: id, at: p)
        case 55..<68 where !down.isEmpty:
            let id = down.keys.sorted().randomElement(using: &rng)!
            let p = down.removeValue(forKey: id)!
            kind = roll == 55 ? .touchCancel(id: id, at: p) : .touchEnd(id: id, at: p)
        case 68..<74:
            buttonDown.toggle()
            kind = buttonDown ? .buttonPress(button: [1, 3, 3].randomElement(using: &rng)!, at: point(&rng)) : .buttonRelease(button: 3, at: point(&rng))
        case 74..<80:
            kind = .motion(at: point(&rng))
        case 80..<84 where touchpad == nil:
            let swipe = Bool.random(using: &rng)
            let fingers = Int.random(in: 2...4, using: &rng)
            touchpad = (swipe, fingers)
            kind = swipe ? .touchpadSwipeBegin(fingers: fingers, at: nil) : .touchpadPinchBegin(fingers: fingers, at: nil)
        case 80..<95 where touchpad != nil:
            let (swipe, fingers) = touchpad!
            kind = swipe
                ? .touchpadSwipeUpdate(fingers: fingers, delta: Point(x: Double.random(in: -30...30, using: &rng), y: Double.random(in: -30...30, using: &rng)))
                : .touchpadPinchUpdate(fingers: fingers, delta: .zero, scale: Double.random(in: 0.3...2.5, using: &rng), angle: Double.random(in: -20...20, using: &rng))
        case 95..<98 where touchpad != nil:
            let (swipe, fingers) = touchpad!
            let cancelled = Bool.random(using: &rng)
            kind = swipe ? .touchpadSwipeEnd(fingers: fingers, cancelled: cancelled) : .touchpadPinchEnd(fingers: fingers, cancelled: cancelled)
            touchpad = nil
        case 98:
            kind = .focus(app: ["firefox", "xterm", "gimp"].randomElement(using: &rng)!)
        default:
            kind = .motion(at: point(&rng))
        }
        events.append(InputEvent(time: Instant(milliseconds: t), kind))
    }
    t += 10
    for (id, p) in down.sorted(by: { $0.key < $1.key }) { events.append(InputEvent(time: Instant(milliseconds: t), .touchEnd(id: id, at: p))) }
    if buttonDown { events.append(InputEvent(time: Instant(milliseconds: t), .buttonRelease(button: 3, at: .zero))) }
    if let (swipe, fingers) = touchpad {
        events.append(InputEvent(time: Instant(milliseconds: t), swipe ? .touchpadSwipeEnd(fingers: fingers, cancelled: false) : .touchpadPinchEnd(fingers: fingers, cancelled: false)))
    }
    return events
}

/// A broad set of bindings so that every recognizer takes part.
let everythingBound: [Trigger] = [
    tap(), tap(2), tap(3), tap(f: 2), tap(2, f: 3),
    longPress(), longPress(on: .end), longPress(f: 2, every: 150),
    swipe(.left), swipe(.right, f: 3), swipe(.upLeft, f: 2), swipe(.up, edge: .bottom), swipe(.left, f: 3, app: "firefox"),
    pan(f: 2), pan(.down, f: 1, every: 30), pan(.up, f: 4, on: .end), pan(f: 3),
    pinch(.in, every: 0.1), pinch(.out), rotate(.cw, every: 10), rotate(on: .end),
    pinch(f: 3), swipe(.down, f: 4), swipe(device: .pointer), longPress(device: .pointer),
]

@Suite struct PropertyTests {
    static let seeds: [UInt64] = Array(1...60)

    @Test(arguments: seeds, [false, true])
    func randomStreamsKeepTheEngineInvariants(seed: UInt64, claimOnSecondFinger: Bool) {
        // Time order, every began ended once, one decision per touch, press and touchpad
        // sequence, firings of bound triggers, no engine bug: the promises the fuzzers check
        // too (EngineInvariants), here on well-formed random streams.
        let events = randomStream(seed: seed)
        let configuration = EngineConfiguration(triggers: everythingBound, claimOnSecondFinger: claimOnSecondFinger)
        let violations = EngineInvariants.violations(configuration, events)
        #expect(violations.isEmpty, "seed \(seed): \(violations.joined(separator: "\n"))")
    }

    // Determinism across runs and builds is pinned by the golden traces (CLITests/GoldenTraceTests):
    // two runs in one process could not disagree.

    @Test(arguments: seeds.prefix(20))
    func advancingInSmallStepsEqualsAdvancingAtOnce(seed: UInt64) {
        // Timers fire at their own deadlines whether the caller polls often or rarely.
        let events = randomStream(seed: seed, length: 200)
        func drive(step: Double?) -> [EngineOutput] {
            var engine = Engine(EngineConfiguration(triggers: everythingBound))
            var out: [EngineOutput] = []
            var t = 0.0
            for e in events {
                if let step {
                    while t + step < e.time.milliseconds { t += step; engine.advance(to: Instant(milliseconds: t)) { out.append($0) } }
                }
                engine.handle(e) { out.append($0) }
            }
            engine.advance(to: (events.last?.time ?? Instant(milliseconds: 0)) + Interval(milliseconds: 10_000)) { out.append($0) }
            return out
        }
        #expect(drive(step: nil) == drive(step: 7))
    }
}

@Suite struct TrigonometryTests {
    @Test func rotationSignFollowsTheScreen() throws {
        var s = Script()
        // Right of centre moving down is clockwise on a y-down screen.
        s.down(1, 300, 400, at: 0); s.down(2, 500, 400, at: 0)
        for k in 1...6 {
            let a = Double(k) * 5 * Double.pi / 180
            let dx = 100 * (1 - a * a / 2 + a * a * a * a / 24), dy = 100 * (a - a * a * a / 6 + a * a * a * a * a / 120)
            s.move(1, 400 - dx, 400 - dy, at: Double(k) * 20); s.move(2, 400 + dx, 400 + dy, at: Double(k) * 20)
        }
        let began = try #require(reports(run([rotate()], s)).first)
        #expect(began.angle! > 14.9)
    }
}

@Suite struct TransitionTracingTests {
    @Test(arguments: Array(PropertyTests.seeds.prefix(10)))
    func tracingAddsTransitionsAndChangesNothingElse(seed: UInt64) {
        let events = randomStream(seed: seed, length: 200)
        func drive(tracing: Bool) -> [EngineOutput] {
            var engine = Engine(EngineConfiguration(triggers: everythingBound))
            engine.tracesTransitions = tracing
            var out: [EngineOutput] = []
            for e in events { engine.handle(e) { out.append($0) } }
            return out
        }
        let traced = drive(tracing: true)
        let plain = drive(tracing: false)
        #expect(traced.filter { if case .transition = $0 { false } else { true } } == plain)
        #expect(traced.contains { if case .transition = $0 { true } else { false } })
    }

    /// The transitions of `gesture`'s recognizer (nil: of the group) that a tracing engine with a
    /// tap and a long press bound reports for one tap.
    static func tapTransitions(of gesture: GestureKind?) -> [String] {
        var s = Script()
        s.tap(at: 100, 100, time: 0)
        var engine = Engine(EngineConfiguration(triggers: [tap(), longPress()]))
        engine.tracesTransitions = true
        var notes: [String] = []
        for e in s.events { engine.handle(e) { if case .transition(let t) = $0, t.gesture == gesture { notes.append(t.description) } } }
        return notes
    }

    @Test func aTapsRecognizerGoesFromPossibleToDone() {
        let notes = Self.tapTransitions(of: .tap)
        #expect(notes == ["touchscreen tap: idle → touch-begin → possible", "touchscreen tap: possible → touch-end → done"])
    }

    @Test func theGroupsPhasesAreTracedAsTheyHappen() {
        let notes = Self.tapTransitions(of: nil)
        #expect(notes == [
            "touchscreen group: idle → touch-begin → settling", "touchscreen group: settling → touch-begin → open",
            "touchscreen group: open → touch-end → lifting", "touchscreen group: lifting → touch-end → finished",
            "touchscreen group: finished → touch-end → idle",
        ])
    }
}
