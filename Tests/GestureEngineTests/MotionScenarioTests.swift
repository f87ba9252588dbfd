import GestureEngine
import GestureTestKit
import Testing

/// Long press, swipe and pan, after Hammer.js `test_press.js`/`test_swipe.js`/`test_pan.js`,
/// Flutter `long_press_test.dart`/`drag_test.dart`, Chromium `gesture_provider_unittest.cc`.
let longPressScenarios: [Scenario] = [
    Scenario("a long press begins at its duration and ends on lift", [longPress()],
             expected: ["long-press began f1 touchscreen →0", "long-press ended f1 touchscreen"]) {
        $0.down(1, 100, 100, at: 0); $0.up(1, 100, 100, at: 800)
    },
    Scenario("a release before the duration is nothing", [longPress()], expected: []) {
        $0.down(1, 100, 100, at: 0); $0.up(1, 100, 100, at: 400)
    },
    Scenario("movement past slop before the duration rules the long press out", [longPress()], expected: []) {
        $0.down(1, 100, 100, at: 0); $0.move(1, 120, 100, at: 200); $0.up(1, 120, 100, at: 800)
    },
    Scenario("jitter within slop keeps the long press", [longPress()],
             expected: ["long-press began f1 touchscreen →0", "long-press ended f1 touchscreen"]) {
        $0.down(1, 100, 100, at: 0); $0.move(1, 105, 104, at: 200); $0.up(1, 105, 104, at: 800)
    },
    Scenario("movement after it began is unlimited and reported as changed", [longPress()],
             expected: ["long-press began f1 touchscreen →0", "long-press changed f1 touchscreen", "long-press ended f1 touchscreen"]) {
        $0.down(1, 100, 100, at: 0); $0.move(1, 300, 100, at: 600); $0.up(1, 300, 100, at: 700)
    },
    Scenario("on = end fires at the lift", [longPress(on: .end)],
             expected: ["long-press began f1 touchscreen", "long-press ended f1 touchscreen →0"]) {
        $0.down(1, 100, 100, at: 0); $0.up(1, 100, 100, at: 800)
    },
    Scenario("a touch cancel cancels a running long press", [longPress(), longPress(on: .end)],
             expected: ["long-press began f1 touchscreen →0", "long-press cancelled f1 touchscreen"]) {
        $0.down(1, 100, 100, at: 0); $0.cancel(1, at: 700)
    },
    Scenario("a late finger ends a running long press", [longPress(), longPress(on: .end)],
             expected: ["long-press began f1 touchscreen →0", "long-press ended f1 touchscreen →1"]) {
        $0.down(1, 100, 100, at: 0); $0.down(2, 200, 100, at: 700); $0.up(1, 100, 100, at: 800); $0.up(2, 200, 100, at: 800)
    },
    Scenario("a two-finger long press", [longPress(f: 2)],
             expected: ["long-press began f2 touchscreen →0", "long-press ended f2 touchscreen"]) {
        $0.down(1, 100, 100, at: 0); $0.down(2, 150, 100, at: 10); $0.up(1, 100, 100, at: 800); $0.up(2, 150, 100, at: 810)
    },
    Scenario("repeat_every fires while held", [longPress(every: 200)],
             expected: ["long-press began f1 touchscreen →0", "long-press changed f1 touchscreen →0",
                        "long-press changed f1 touchscreen →0", "long-press ended f1 touchscreen"]) {
        $0.down(1, 100, 100, at: 0); $0.up(1, 100, 100, at: 1000)
    },
    Scenario("with tap and long press bound a short press is a tap", [tap(), longPress()],
             expected: ["tap recognized taps=1 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0, hold: 120)
    },
    Scenario("with tap and long press bound a long press is never also a tap", [tap(), longPress()],
             expected: ["long-press began f1 touchscreen →1", "long-press ended f1 touchscreen"]) {
        $0.tap(at: 100, 100, time: 0, hold: 600)
    },
    Scenario("a long press wins over a slow pan that starts after it began", [longPress(), pan()],
             expected: ["long-press began f1 touchscreen →0", "long-press changed f1 touchscreen", "long-press ended f1 touchscreen"]) {
        $0.down(1, 100, 100, at: 0); $0.move(1, 150, 100, at: 600); $0.up(1, 150, 100, at: 700)
    },
]

let swipeScenarios: [Scenario] = {
    var list: [Scenario] = []
    let four: [Trigger] = [swipe(.left), swipe(.right), swipe(.up), swipe(.down)]
    let vectors: [(Direction, Double, Double)] = [(.left, -200, 0), (.right, 200, 0), (.up, 0, -200), (.down, 0, 200)]
    for fingers in 1...5 {
        for (i, (d, dx, dy)) in vectors.enumerated() {
            let triggers = four.map { Trigger(gesture: .swipe, fingers: fingers, direction: $0.direction) }
            list.append(Scenario("a fast \(fingers)-finger swipe \(d.rawValue)", triggers,
                                 expected: ["swipe recognized \(d.rawValue) f\(fingers) touchscreen →\(i)"]) {
                $0.drag(fingers: fingers, from: 400, 400, by: dx, dy, time: 0, duration: 100)
            })
        }
    }
    let eight = Direction.planar.map { swipe($0) }
    let diagonals: [(Direction, Double, Double)] = [(.upLeft, -150, -150), (.upRight, 150, -150), (.downLeft, -150, 150), (.downRight, 150, 150)]
    for (d, dx, dy) in diagonals {
        let index = Direction.planar.firstIndex(of: d)!
        list.append(Scenario("a diagonal swipe \(d.rawValue) with diagonals bound", eight,
                             expected: ["swipe recognized \(d.rawValue) f1 touchscreen →\(index)"]) {
            $0.drag(from: 400, 400, by: dx, dy, time: 0, duration: 100)
        })
    }
    list += [
        Scenario("a diagonal movement snaps to the dominant axis when no diagonal is bound", [swipe(.right), swipe(.up)],
                 expected: ["swipe recognized right f1 touchscreen →0"]) {
            $0.drag(from: 400, 400, by: 150, -100, time: 0, duration: 100)
        },
        Scenario("a near-axis movement stays on the axis with diagonals bound", eight,
                 expected: ["swipe recognized right f1 touchscreen →1"]) {
            $0.drag(from: 400, 400, by: 200, -60, time: 0, duration: 100)
        },
        Scenario("a slow drag is no swipe", [swipe(.right)], expected: []) {
            $0.drag(from: 400, 400, by: 200, 0, time: 0, duration: 2000, steps: 20)
        },
        Scenario("a short flick below swipe_min_px is no swipe", [swipe(.right)], expected: []) {
            $0.drag(from: 400, 400, by: 60, 0, time: 0, duration: 30)
        },
        Scenario("a swipe in an unbound direction is reported and fires nothing", [swipe(.left)],
                 expected: ["swipe recognized right f1 touchscreen"]) {
            $0.drag(from: 400, 400, by: 200, 0, time: 0, duration: 100)
        },
        Scenario("at most one swipe per gesture", [swipe(.left), swipe(.right)], expected: ["swipe recognized right f1 touchscreen →1"]) {
            $0.drag(from: 400, 400, by: 200, 0, time: 0, duration: 100, lift: nil)
            $0.move(1, 100, 400, at: 200); $0.up(1, 100, 400, at: 250)
        },
        Scenario("a binding without direction takes every swipe", [swipe()], expected: ["swipe recognized down f1 touchscreen →0"]) {
            $0.drag(from: 400, 400, by: 0, 200, time: 0, duration: 100)
        },
        Scenario("a 3-finger swipe is never first a 1-finger one", [swipe(.left, f: 1), swipe(.left, f: 3)],
                 expected: ["swipe recognized left f3 touchscreen →1"]) {
            $0.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 150, stagger: 30)
        },
        Scenario("a 3-finger swipe with fingers landing 45 ms apart", [swipe(.right, f: 3)],
                 expected: ["swipe recognized right f3 touchscreen →0"]) {
            $0.drag(fingers: 3, from: 300, 400, by: 300, 0, time: 0, duration: 150, stagger: 45)
        },
        Scenario("a 2-finger swipe does not fire a 3-finger binding", [swipe(.right, f: 3)], expected: []) {
            $0.drag(fingers: 2, from: 300, 400, by: 300, 0, time: 0, duration: 100)
        },
        Scenario("an edge swipe from the left edge", [swipe(.right, edge: .left)],
                 expected: ["swipe recognized right f1 touchscreen edge=left →0"], screen: (1280, 800)) {
            $0.drag(from: 5, 400, by: 200, 0, time: 0, duration: 100)
        },
        Scenario("an edge binding does not match away from the edge", [swipe(.right, edge: .left), swipe(.right)],
                 expected: ["swipe recognized right f1 touchscreen →1"], screen: (1280, 800)) {
            $0.drag(from: 300, 400, by: 200, 0, time: 0, duration: 100)
        },
        Scenario("an edge binding wins over a plain one at the edge", [swipe(.right), swipe(.right, edge: .left)],
                 expected: ["swipe recognized right f1 touchscreen edge=left →1"], screen: (1280, 800)) {
            $0.drag(from: 10, 400, by: 200, 0, time: 0, duration: 100)
        },
        Scenario("without a screen size no edge matches", [swipe(.right, edge: .left)], expected: []) {
            $0.drag(from: 5, 400, by: 200, 0, time: 0, duration: 100)
        },
        Scenario("an edge swipe up from the bottom", [swipe(.up, edge: .bottom)],
                 expected: ["swipe recognized up f1 touchscreen edge=bottom →0"], screen: (1280, 800)) {
            $0.drag(from: 640, 795, by: 0, -200, time: 0, duration: 100)
        },
        Scenario("an edge swipe from the right edge at exactly edge_px", [swipe(.left, edge: .right)],
                 expected: ["swipe recognized left f1 touchscreen edge=right →0"], screen: (1280, 800)) {
            $0.drag(from: 1260, 400, by: -200, 0, time: 0, duration: 100)
        },
    ]
    return list
}()

let panScenarios: [Scenario] = [
    Scenario("a fast drag with swipe and pan bound is a swipe only", [swipe(.right), pan()],
             expected: ["swipe recognized right f1 touchscreen →0"]) {
        $0.drag(from: 400, 400, by: 200, 0, time: 0, duration: 100)
    },
    Scenario("a two-finger pan ends when the last finger lifts", [pan(f: 2)],
             // Each finger's update is a change: 8 updates, the first of which begins the pan.
             expected: ["pan began f2 touchscreen →0"] + Array(repeating: "pan changed f2 touchscreen", count: 7) + ["pan ended f2 touchscreen"]) {
        $0.drag(fingers: 2, from: 400, 400, by: 0, 100, time: 0, duration: 400, steps: 4)
    },
    Scenario("a late finger ends a running pan and fires its end binding", [pan(), pan(on: .end)],
             expected: ["pan began f1 touchscreen →0", "pan ended f1 touchscreen →1"]) {
        $0.drag(from: 400, 400, by: 0, 100, time: 0, duration: 400, steps: 1, lift: nil)
        $0.down(2, 500, 400, at: 500); $0.up(1, 400, 500, at: 600); $0.up(2, 500, 400, at: 600)
    },
    Scenario("a pan binding with a direction fires when the pan begins that way", [pan(.up), pan(.down)],
             expected: ["pan began f1 touchscreen →1", "pan ended f1 touchscreen"]) {
        $0.drag(from: 400, 400, by: 0, 100, time: 0, duration: 1000, steps: 1)
    },
    Scenario("on = end fires with the overall direction", [pan(.left, on: .end), pan(.right, on: .end)],
             expected: ["pan began f1 touchscreen", "pan changed f1 touchscreen", "pan ended f1 touchscreen →0"]) {
        $0.down(1, 400, 400, at: 0); $0.move(1, 420, 400, at: 300); $0.move(1, 300, 400, at: 600); $0.up(1, 300, 400, at: 700)
    },
    Scenario("an edge pan", [pan(.right, edge: .left)], expected: ["pan began f1 touchscreen edge=left →0", "pan ended f1 touchscreen edge=left"],
             screen: (1280, 800)) {
        $0.drag(from: 3, 400, by: 100, 0, time: 0, duration: 1000, steps: 1)
    },
    Scenario("a pan cancelled by a touch cancel fires no end binding", [pan(on: .end)],
             expected: ["pan began f1 touchscreen", "pan cancelled f1 touchscreen"]) {
        $0.drag(from: 400, 400, by: 100, 0, time: 0, duration: 1000, steps: 1, lift: nil); $0.cancel(1, at: 1100)
    },
]

@Suite struct MotionScenarioTests {
    @Test(arguments: longPressScenarios) func longPresses(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }
    @Test(arguments: swipeScenarios) func swipes(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }
    @Test(arguments: panScenarios) func pans(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }

    @Test func aSwipeIsRecognizedTheMomentItCrossesItsThresholds() throws {
        var s = Script()
        s.drag(from: 400, 400, by: 200, 0, time: 0, duration: 100, steps: 10)  // 20 px per 10 ms
        let r = try #require(reports(run([swipe(.right)], s)).first)
        #expect(r.time == Instant(milliseconds: 40))  // 80 px after 40 ms, while the finger is down
        #expect(r.position == Point(x: 480, y: 400))
    }

    @Test func aSlowDragBeginsAPanOnceTheSwipeCanNoLongerHappen() throws {
        var s = Script()
        s.drag(from: 400, 400, by: 200, 0, time: 0, duration: 2000, steps: 20)  // 10 px per 100 ms
        let out = reports(run([swipe(.right), pan()], s))
        let began = try #require(out.first)
        #expect(began.gesture == .pan && began.phase == .began && began.firing == 1)
        // 80 px at 0.3 px/ms: no swipe can happen after 266.67 ms; the pan begins right then.
        #expect(abs(began.time.milliseconds - 80.0 / 0.3) < 1e-9)
        #expect(began.translation == Point(x: 20, y: 0))
    }

    @Test func aPanBeginsAtOnceWhenNoSwipeIsBound() throws {
        var s = Script()
        s.drag(from: 400, 400, by: 200, 0, time: 0, duration: 2000, steps: 20)
        let began = try #require(reports(run([pan()], s)).first)
        #expect(began.time == Instant(milliseconds: 200))  // 20 px > slop at the second step
    }

    @Test func aPansEndedLineReportsTheValuesFromBeforeTheFirstLift() throws {
        var s = Script()
        s.down(1, 100, 100, at: 0); s.down(2, 200, 100, at: 0)
        s.move(1, 100, 160, at: 200); s.move(2, 200, 160, at: 200)
        s.up(1, 100, 300, at: 400)  // lifts far away: must not count
        s.move(2, 200, 400, at: 450)
        s.up(2, 200, 400, at: 500)
        let ended = try #require(reports(run([pan(f: 2)], s)).last)
        #expect(ended.phase == .ended && ended.time == Instant(milliseconds: 500))
        #expect(ended.translation == Point(x: 0, y: 60))
        #expect(ended.position == Point(x: 150, y: 160))
    }

    @Test func panVelocityIsInPixelsPerSecond() throws {
        var s = Script()
        s.drag(from: 0, 0, by: 300, 0, time: 0, duration: 1000, steps: 10)  // 300 px/s
        let changed = try #require(reports(run([pan()], s)).first { $0.phase == .changed })
        let v = try #require(changed.velocity)
        #expect(abs(v.x - 300) < 1e-6 && v.y == 0)
    }

    @Test func aPanThatRestsBeforeLiftingEndsAtSpeedZero() throws {
        var s = Script()
        s.drag(from: 0, 0, by: 300, 0, time: 0, duration: 300, steps: 3, lift: 500)
        let ended = try #require(reports(run([pan()], s)).last)
        #expect(ended.velocity == .zero)
    }

    @Test func panRepeatFiresOncePerStepFromWhereItBegan() {
        var s = Script()
        s.drag(from: 0, 0, by: 200, 0, time: 0, duration: 2000, steps: 20)  // began at 20 px
        let fired = firings(run([pan(every: 50)], s))
        // began (20 px), then 70, 120, 170 px.
        #expect(fired == ["pan began f1 touchscreen →0"] + Array(repeating: "pan changed f1 touchscreen →0", count: 3))
    }

    @Test func panDirectionalRepeatsScrollBothWays() {
        var s = Script()
        s.down(1, 400, 400, at: 0)
        s.move(1, 400, 420, at: 100)   // pan begins going down (20 px)
        s.move(1, 400, 530, at: 200)   // +110 from began: two down steps
        s.move(1, 400, 420, at: 300)   // back up 110 px: two up steps; the down ratchet follows silently
        s.move(1, 400, 360, at: 400)   // 60 px above where it began: one more up step
        s.up(1, 400, 360, at: 500)
        let fired = firings(run([pan(.down, every: 50), pan(.up, every: 50)], s))
        #expect(fired == ["pan began f1 touchscreen →0", "pan changed f1 touchscreen →0", "pan changed f1 touchscreen →0"]
                + Array(repeating: "pan changed f1 touchscreen →1", count: 3))
    }

    @Test func oneEventCrossingManyStepsFiresAtMost32Times() {
        var s = Script()
        s.down(1, 0, 0, at: 0); s.move(1, 0, 20, at: 100); s.move(1, 0, 5000, at: 200); s.up(1, 0, 5000, at: 300)
        let fired = firings(run([pan(every: 10)], s))
        #expect(fired.count == 1 + 32)
    }
}
