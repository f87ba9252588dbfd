@testable import GestureEngine
import GestureTestKit
import Testing

/// Input that once hung the engine or fired what no binding names (issue 9 items 1, 8, 14):
/// the work per event is bounded whatever the values, and a hand of more fingers than any
/// binding fires nothing.
@Suite struct HardeningTests {
    /// Firings per handled event or advance, the largest.
    static func mostFiringsPerCall(_ triggers: [Trigger], _ events: [InputEvent], advanceTo end: Instant? = nil) -> (most: Int, total: Int) {
        var engine = Engine(EngineConfiguration(triggers: triggers))
        var most = 0, total = 0
        func count(_ body: (_ emit: (EngineOutput) -> Void) -> Void) {
            var n = 0
            body { if case .gesture(let r) = $0, r.firing != nil { n += 1 } }
            most = max(most, n)
            total += n
        }
        for e in events { count { engine.handle(e, emit: $0) } }
        if let end { count { engine.advance(to: end, emit: $0) } }
        return (most, total)
    }

    @Test func aTinyRepeatStepOnAOneSidedRotationEnds() {
        // +50° then −40° with repeat_every 1e-15: the ratchet moving back once looped for ever.
        var s = Script()
        s.twoFingers(around: 600, 400, degrees: 50, time: 0, lift: false)
        let events = s.events + [
            InputEvent(time: Instant(milliseconds: 400), .touchUpdate(id: 1, at: rotated(600, 400, span: 200, degrees: 10).0)),
            InputEvent(time: Instant(milliseconds: 400), .touchUpdate(id: 2, at: rotated(600, 400, span: 200, degrees: 10).1)),
            InputEvent(time: Instant(milliseconds: 450), .touchEnd(id: 1, at: .zero)),
            InputEvent(time: Instant(milliseconds: 450), .touchEnd(id: 2, at: .zero)),
        ]
        let (most, total) = Self.mostFiringsPerCall([rotate(.cw, every: 1e-15)], events)
        #expect(most <= 33, "one began + at most 32 steps per event")
        #expect(total > 0)
    }

    @Test(arguments: [-1e20, 1e20, -1e300])
    func anAbsurdTouchpadDeltaFiresAtMostThirtyTwoSteps(dx: Double) {
        var s = Script()
        s.add(0, .touchpadSwipeBegin(fingers: 3, at: Point(x: 500, y: 500)))
        s.add(10, .touchpadSwipeUpdate(fingers: 3, delta: Point(x: -30, y: 0)))
        s.add(20, .touchpadSwipeUpdate(fingers: 3, delta: Point(x: dx, y: 0)))
        s.add(30, .touchpadSwipeUpdate(fingers: 3, delta: Point(x: -dx, y: 0)))
        s.add(40, .touchpadSwipeEnd(fingers: 3, cancelled: false))
        let (most, _) = Self.mostFiringsPerCall([pan(.left, f: 3, every: 50), pan(.right, f: 3, every: 50)], s.events)
        #expect(most <= 33)
    }

    /// A touch from −1e308 to +1e308 px: its translation and velocity overflow to infinity,
    /// which `replay --json` printed as `"vx":null`. Reports carry finite numbers only.
    @Test(arguments: [1e308, Double.greatestFiniteMagnitude])
    func aPanBeyondTheFiniteRangeReportsFiniteNumbers(x: Double) {
        var s = Script()
        s.add(0, .touchBegin(id: 1, at: Point(x: -x, y: 0)))
        s.add(10, .touchUpdate(id: 1, at: Point(x: x, y: 0)))
        s.add(20, .touchUpdate(id: 1, at: Point(x: x, y: -x)))
        s.add(30, .touchEnd(id: 1, at: Point(x: x, y: -x)))
        var engine = Engine(EngineConfiguration(triggers: [pan()]))
        var reports: [GestureReport] = []
        for e in s.events { engine.handle(e) { if case .gesture(let r) = $0 { reports.append(r) } } }
        #expect(!reports.isEmpty)
        for r in reports {
            let numbers = [r.position.x, r.position.y, r.translation?.x, r.translation?.y, r.velocity?.x, r.velocity?.y].compactMap { $0 }
            let finite = numbers.allSatisfy(\.isFinite)
            #expect(finite, "\(r)")
        }
        let first = reports.first?.translation?.x
        #expect(first == .greatestFiniteMagnitude, "an overflow reads as the largest value, in its direction")
    }

    @Test(arguments: [1e11, 1e300])
    func anAbsurdTouchpadAngleOrScaleFiresAtMostThirtyTwoSteps(value: Double) {
        var s = Script()
        s.add(0, .touchpadPinchBegin(fingers: 2, at: Point(x: 500, y: 500)))
        s.add(10, .touchpadPinchUpdate(fingers: 2, delta: .zero, scale: 1.2, angle: 20))
        s.add(20, .touchpadPinchUpdate(fingers: 2, delta: .zero, scale: value, angle: value))
        s.add(30, .touchpadPinchUpdate(fingers: 2, delta: .zero, scale: 1, angle: -value))
        s.add(40, .touchpadPinchEnd(fingers: 2, cancelled: false))
        let triggers = [rotate(every: 10), rotate(.ccw, every: 10), pinch(every: 0.1), pinch(.in, every: 0.1)]
        let (most, _) = Self.mostFiringsPerCall(triggers, s.events)
        #expect(most <= 34, "began of pinch and rotate + at most 32 steps between them")
    }

    @Test(arguments: [0.001, 100.0])
    func aLongPressRepeatFiresAtMostThirtyTwoTimesPerAdvance(every: Double) {
        var s = Script()
        s.down(1, 500, 500, at: 0)
        // 0.001 ms for 100 ms once fired 100,000 times; 100 ms until t = 4e18 printed 99,999 lines.
        let end = every < 1 ? Instant(milliseconds: 600) : Instant(milliseconds: 4e18)
        let (most, total) = Self.mostFiringsPerCall([longPress(every: every)], s.events, advanceTo: end)
        #expect(most <= 33, "the began + at most 32 repeats")
        #expect(total >= 2)
    }

    @Test func aRepeatStillStepsExactlyAtItsThresholds() {
        // The arithmetic count agrees with stepping one by one, boundaries included.
        var ratchet = 0.0
        #expect(RepeatRatchet.advance(&ratchet, to: 0.3, every: 0.1, twoSided: false, cap: 32) == 3)
        // Back by 0.15: one step back, silently (one-sided); the ratchet is at 0.2 now.
        #expect(RepeatRatchet.advance(&ratchet, to: 0.15, every: 0.1, twoSided: false, cap: 32) == 0)
        #expect(RepeatRatchet.advance(&ratchet, to: 0.29, every: 0.1, twoSided: false, cap: 32) == 0)
        // 0.3 − 0.2 is 0.0999… in floating point: it still reaches the step.
        #expect(RepeatRatchet.advance(&ratchet, to: 0.3, every: 0.1, twoSided: false, cap: 32) == 1)
        // Two-sided: back steps fire too, and at most the cap.
        #expect(RepeatRatchet.advance(&ratchet, to: 0.0, every: 0.1, twoSided: true, cap: 32) == 3)
        #expect(RepeatRatchet.advance(&ratchet, to: -1e300, every: 0.1, twoSided: true, cap: 32) == 32)
        #expect(ratchet == -1e300)
    }

    // MARK: - A hand of more fingers than any binding

    /// Nothing is bound for more than three fingers: a fourth spoils the group, and a fifth
    /// once started a fresh one-finger gesture while four fingers were still down.
    static let handBindings: [Trigger] = [longPress(), tap(f: 2), tap(f: 3), swipe(.left, f: 3)]

    /// `n` fingers landing `gap` ms apart at 40 px spacing, then (optionally) moving left.
    static func hand(_ n: Int, gap: Double, moveLeft: Bool, liftAt: Double = 2000) -> Script {
        var s = Script(screen: (1920, 1080))
        for f in 1...n { s.down(f, 300 + Double(f) * 40, 500, at: Double(f - 1) * gap) }
        let landed = Double(n - 1) * gap
        if moveLeft {
            for step in 1...10 {
                for f in 1...n { s.move(f, 300 + Double(f) * 40 - Double(step) * 30, 500, at: landed + Double(step) * 10) }
            }
        }
        for f in 1...n { s.up(f, 300 + Double(f) * 40 - (moveLeft ? 300 : 0), 500, at: liftAt) }
        return s
    }

    @Test func fiveRestingFingersFireNoOneFingerLongPress() {
        let outputs = run(Self.handBindings, Self.hand(5, gap: 5, moveLeft: false))
        #expect(reports(outputs).filter { $0.firing != nil }.map(describe) == [])
        let decided = touchDecisions(outputs)
        for id in 1...5 { #expect(decided[id] == [.release], "touch \(id)") }
    }

    @Test func sevenFingersMovingLeftFireNoThreeFingerSwipe() {
        let outputs = run(Self.handBindings, Self.hand(7, gap: 4, moveLeft: true))
        #expect(reports(outputs).filter { $0.firing != nil }.map(describe) == [])
        let decided = touchDecisions(outputs)
        for id in 1...7 { #expect(decided[id] == [.release], "touch \(id)") }
    }

    @Test func elevenFingersFireNoFiveFingerTap() {
        let outputs = run([tap(f: 5)], Self.hand(11, gap: 3, moveLeft: false, liftAt: 150))
        #expect(reports(outputs).filter { $0.firing != nil }.map(describe) == [])
        #expect(touchDecisions(outputs).values.allSatisfy { $0 == [.release] })
    }

    @Test func afterTheHandLiftsGesturesWorkAgain() {
        var s = Self.hand(5, gap: 5, moveLeft: false, liftAt: 1000)
        s.down(20, 800, 500, at: 3000)  // one finger, resting: the bound long press
        s.up(20, 800, 500, at: 4000)
        let fired = reports(run(Self.handBindings, s)).filter { $0.firing != nil }.map(describe)
        #expect(fired.count == 1)
        #expect(fired.first?.hasPrefix("long-press began") == true)
    }

    @Test func aFingerLandingBesideAStillDownLateFingerBelongsToTheHand() {
        // Two fingers make a bound 2-finger tap's group; a third lands late and stays down while
        // the two lift; a fourth lands: it is part of the same hand, not a new one-finger gesture.
        var s = Script()
        s.down(1, 400, 400, at: 0); s.down(2, 440, 400, at: 2)
        s.down(3, 480, 400, at: 80)
        s.up(1, 400, 400, at: 120); s.up(2, 440, 400, at: 120)
        s.down(4, 520, 400, at: 200)
        s.up(3, 480, 400, at: 1500); s.up(4, 520, 400, at: 1500)
        let outputs = run([tap(f: 2), longPress()], s)
        #expect(!reports(outputs).contains { $0.gesture == .longPress })
        #expect(touchDecisions(outputs)[4] == [.release])
    }
}

/// Two points `span` apart around (cx, cy), turned by `degrees`.
private func rotated(_ cx: Double, _ cy: Double, span: Double, degrees: Double) -> (Point, Point) {
    var s = Script()
    s.twoFingers(around: cx, cy, span: span, degrees: degrees, time: 0, duration: 1, steps: 1, lift: false)
    guard case .touchUpdate(_, let a) = s.events[2].kind, case .touchUpdate(_, let b) = s.events[3].kind else { return (.zero, .zero) }
    return (a, b)
}
