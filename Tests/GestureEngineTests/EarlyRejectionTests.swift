import GestureEngine
import GestureTestKit
import Testing

/// Touches go back to applications the moment no bound gesture can win them, and before the
/// X server stops keeping their events for the application (issue 24, item 5): two fingers
/// moving together are no pinch and no rotation; a touch undecided after
/// ``Engine/replayableTouchUpdates`` updates goes back.
@Suite struct EarlyRejectionTests {
    /// What Firefox and Chromium users bind: a 3-finger swipe and a 2-finger pinch.
    static let swipeAndPinch = [swipe(.left, f: 3), pinch()]

    /// Runs `script` event by event: for each touch, its decision and the time of the event
    /// (or timer) that made it, and how many of its updates the engine had seen then.
    private func decisions(_ triggers: [Trigger], _ script: Script) -> [Int: (ownership: Ownership, at: Double, updates: Int)] {
        var engine = Engine(EngineConfiguration(triggers: triggers))
        var decided: [Int: (ownership: Ownership, at: Double, updates: Int)] = [:]
        var updates: [Int: Int] = [:]
        func note(_ o: EngineOutput, at t: Double) {
            if case .touch(let id, let ownership) = o, decided[id] == nil { decided[id] = (ownership, t, updates[id, default: 0]) }
        }
        for e in script.events {
            // Timers due before the event fire first, at their own time.
            while let due = engine.nextDeadline, due < e.time {
                engine.advance(to: due) { note($0, at: due.milliseconds) }
            }
            if case .touchUpdate(let id, _) = e.kind { updates[id, default: 0] += 1 }
            engine.handle(e) { note($0, at: e.time.milliseconds) }
        }
        let end = Instant(milliseconds: (script.events.last?.time.milliseconds ?? 0) + 10_000)
        engine.advance(to: end) { note($0, at: end.milliseconds) }
        return decided
    }

    // MARK: - Fingers moving together

    @Test("two fingers scrolling together go back as they pass the slop, not at the lift, while a pinch is bound")
    func aParallelScrollGoesBackAtTheSlop() throws {
        var s = Script()
        // Fingers 80 px apart scroll down 200 px over 1 s (5 px per 25 ms), lifting at 1010 ms;
        // the settle window (100 ms: a 3-finger swipe is bound) has closed long before the slop.
        s.down(1, 400, 400, at: 0); s.down(2, 480, 400, at: 0)
        for k in 1...40 {
            let t = 100 + Double(k) * 25, y = 400 + 5 * Double(k)
            s.move(1, 400, y, at: t); s.move(2, 480, y, at: t)
        }
        s.up(1, 400, 600, at: 1_130); s.up(2, 480, 600, at: 1_130)
        let d = decisions(Self.swipeAndPinch, s)
        // Past 10 px (slop_px) at the third step: 15 px at 175 ms.
        for id in [1, 2] {
            let decision = try #require(d[id])
            #expect(decision.ownership == .release && decision.at == 175, "touch \(id): \(decision)")
        }
        #expect(lines(run(Self.swipeAndPinch, s)).isEmpty)
    }

    @Test("a parallel scroll that passed the slop while the fingers settled goes back when they have settled")
    func aScrollPastTheSlopWhileSettlingGoesBackAtSettle() throws {
        var s = Script()
        s.drag(fingers: 2, from: 400, 400, by: 0, 200, time: 0, duration: 400, steps: 40, spacing: 80)
        let d = decisions(Self.swipeAndPinch, s)
        #expect(d[1]?.ownership == .release && d[1]?.at == 100, "\(String(describing: d[1]))")
        #expect(d[2]?.ownership == .release && d[2]?.at == 100, "\(String(describing: d[2]))")
    }

    @Test("a pinch past its threshold is a pinch, also when its fingers drift together")
    func aDriftingPinchIsAPinch() throws {
        var s = Script()
        // Spreading from 200 to 400 px apart while the pair drifts 20 px down.
        s.down(1, 300, 400, at: 0); s.down(2, 500, 400, at: 0)
        for k in 1...10 {
            let t = 100 + Double(k) * 20, k = Double(k)
            s.move(1, 300 - 10 * k, 400 + 2 * k, at: t); s.move(2, 500 + 10 * k, 400 + 2 * k, at: t)
        }
        s.up(1, 200, 420, at: 330); s.up(2, 600, 420, at: 330)
        let out = run(Self.swipeAndPinch, s)
        #expect(lines(out).first == "pinch began f2 touchscreen →1")
        #expect(touchDecisions(out) == [1: [.claim], 2: [.claim]])
    }

    /// One finger rests, the other moves: the fingers move together exactly as much as apart.
    @Test("a pinch or a turn made about one still finger still begins", arguments: [true, false])
    func aPinchOrTurnAboutOneStillFingerBegins(_ spreading: Bool) throws {
        var s = Script()
        s.down(1, 400, 400, at: 0); s.down(2, 500, 400, at: 0)
        for k in 1...20 {
            let t = 100 + Double(k) * 10, k = Double(k)
            if spreading {
                s.move(2, 500 + 4 * k, 400, at: t)  // 100 → 180 px apart
            } else {
                // Turning about finger 1 by 3° a step.
                let a = 3 * k * Double.pi / 180
                s.move(2, 400 + 100 * cosine(a), 400 + 100 * sine(a), at: t)
            }
        }
        s.up(1, 400, 400, at: 320); s.up(2, 480, 400, at: 320)
        let triggers = [swipe(.left, f: 3), pinch(), rotate()]
        let first = try #require(reports(run(triggers, s)).first)
        #expect(first.gesture == (spreading ? .pinch : .rotate) && first.phase == .began, "\(describe(first))")
    }

    @Test("a touchpad pinch that drifts is still a pinch: libinput already told it from a scroll")
    func aDriftingTouchpadPinchIsAPinch() {
        var s = Script()
        s.add(0, .touchpadPinchBegin(fingers: 2, at: Point(x: 400, y: 300), modifiers: []))
        for k in 1...10 {
            s.add(Double(k) * 20, .touchpadPinchUpdate(fingers: 2, delta: Point(x: 0, y: 30), scale: 1 + 0.01 * Double(k), angle: 0))
        }
        for k in 11...20 {
            s.add(Double(k) * 20, .touchpadPinchUpdate(fingers: 2, delta: .zero, scale: 1 + 0.03 * Double(k - 10) + 0.1, angle: 0))
        }
        s.add(420, .touchpadPinchEnd(fingers: 2, cancelled: false))
        #expect(lines(run([pinch()], s)).first == "pinch began f2 touchpad →0")
    }

    // MARK: - The server's replay limit

    @Test("two resting fingers undecided for 90 updates go back at the 90th, before the server's 98 are used up")
    func undecidedTouchesGoBackBeforeTheReplayLimit() throws {
        var s = Script()
        // Resting fingers that tremble within a pixel, 200 updates each at 250 Hz.
        s.down(1, 400, 400, at: 0); s.down(2, 500, 400, at: 0)
        for k in 1...200 {
            let t = Double(k) * 4, wobble = Double(k % 2)
            s.move(1, 400 + wobble, 400, at: t); s.move(2, 500, 400 + wobble, at: t)
        }
        // Then a real pinch, too late: the touches are the application's.
        for k in 1...10 { s.move(2, 500 + 20 * Double(k), 400, at: 800 + Double(k) * 10) }
        s.up(1, 400, 400, at: 920); s.up(2, 700, 400, at: 920)
        let d = decisions(Self.swipeAndPinch, s)
        for id in [1, 2] {
            let decision = try #require(d[id])
            #expect(decision.ownership == .release && decision.updates <= Engine.replayableTouchUpdates, "touch \(id): \(decision)")
            #expect(decision.updates < 98, "the server replays the begin and 98 updates")
        }
        #expect(d[1]?.updates == Engine.replayableTouchUpdates, "the first finger's 90th update decides: \(String(describing: d[1]))")
        #expect(lines(run(Self.swipeAndPinch, s)).isEmpty)
    }

    @Test("a burst of updates while the fingers settle fixes their count and gives them back")
    func aBurstWhileSettlingGivesBack() throws {
        var s = Script()
        s.down(1, 400, 400, at: 0); s.down(2, 500, 400, at: 0)
        // 1 kHz: 95 updates of finger 1 before the 100 ms settle window closes.
        for k in 1...95 { s.move(1, 400 + Double(k % 3), 400, at: Double(k)) }
        s.up(1, 400, 400, at: 150); s.up(2, 500, 400, at: 150)
        let d = decisions(Self.swipeAndPinch, s)
        #expect(d[1]?.ownership == .release && d[1]?.at == 90 && d[1]?.updates == 90, "\(String(describing: d[1]))")
        #expect(d[2]?.ownership == .release && d[2]?.at == 90, "\(String(describing: d[2]))")
    }

    @Test("a claimed gesture runs on past the limit: a long pan keeps every update")
    func aClaimedPanRunsPastTheLimit() {
        var s = Script()
        s.drag(fingers: 2, from: 400, 400, by: 0, 600, time: 0, duration: 1_200, steps: 300, spacing: 80)
        let out = run([pan(f: 2), pinch()], s)
        let phases = reports(out).map(\.phase)
        #expect(phases.first == .began && phases.last == .ended)
        #expect(phases.filter { $0 == .changed }.count >= 250, "every update past the begin is a change")
        #expect(touchDecisions(out) == [1: [.claim], 2: [.claim]])
    }

    @Test("a stroke being drawn is claimed at the limit and matched at the lift; an unmatched one fires nothing")
    func aLongStrokeIsClaimedAtTheLimit() throws {
        var circle = Script()
        circle.path(drawn("circle"), time: 0, duration: 1_200)  // 49 points: far below the limit
        #expect(touchDecisions(run([stroke("circle")], circle)) == [1: [.claim]])
        var long = Script()
        long.path(line(from: 300, 300, by: 400, 0, n: 150), time: 0, duration: 1_500)
        let d = decisions([stroke("circle")], long)
        #expect(d[1]?.ownership == .claim && d[1]?.updates == Engine.replayableTouchUpdates, "\(String(describing: d[1]))")
        #expect(lines(run([stroke("circle")], long)).isEmpty, "a line is no circle: nothing fires")
    }

    @Test("a finger resting where a stroke and a long press are bound is no stroke yet: it goes back at the limit")
    func aRestingFingerWithAStrokeBoundGoesBack() throws {
        var s = Script()
        s.down(1, 400, 400, at: 0)
        for k in 1...120 { s.move(1, 400 + Double(k % 2), 400, at: Double(k) * 3) }
        s.up(1, 400, 400, at: 400)
        let d = decisions([stroke("circle"), longPress()], s)
        #expect(d[1]?.ownership == .release && d[1]?.updates == Engine.replayableTouchUpdates, "\(String(describing: d[1]))")
    }

    @Test("a long one-finger drag where only taps are bound goes back at the slop, far from the limit")
    func aDragWithOnlyTapsBoundGoesBackAtTheSlop() throws {
        var s = Script()
        s.drag(from: 400, 400, by: 0, 600, time: 0, duration: 1_500, steps: 150)
        let d = decisions([tap(), tap(2)], s)
        let decision = try #require(d[1])
        #expect(decision.ownership == .release && decision.updates == 3, "\(decision)")
    }
}

// The engine tests do without Foundation.
private func sine(_ x: Double) -> Double {
    var term = x, sum = x
    for n in 1..<12 {
        term *= -x * x / Double((2 * n) * (2 * n + 1))
        sum += term
    }
    return sum
}

private func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
