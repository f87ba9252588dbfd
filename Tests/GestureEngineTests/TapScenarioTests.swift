import GestureEngine
import GestureTestKit
import Testing

/// Taps and multi-taps, after Hammer.js `tests/unit/gestures/test_tap.js`, Flutter
/// `test/gestures/double_tap_test.dart` and UIKit's `UITapGestureRecognizer`.
let tapScenarios: [Scenario] = [
    Scenario("a single tap fires on release", [tap()], expected: ["tap recognized taps=1 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0)
    },
    Scenario("a press longer than tap_max is no tap", [tap()], expected: []) {
        $0.tap(at: 100, 100, time: 0, hold: 350)
    },
    Scenario("a press of exactly tap_max is still a tap", [tap()], expected: ["tap recognized taps=1 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0, hold: 300)
    },
    Scenario("a tap that wanders past slop is no tap", [tap()], expected: []) {
        $0.down(1, 100, 100, at: 0); $0.move(1, 115, 100, at: 20); $0.up(1, 115, 100, at: 40)
    },
    Scenario("jitter within slop is still a tap", [tap()], expected: ["tap recognized taps=1 f1 touchscreen →0"]) {
        $0.down(1, 100, 100, at: 0); $0.move(1, 106, 97, at: 20); $0.move(1, 98, 104, at: 30); $0.up(1, 101, 101, at: 40)
    },
    Scenario("a tap that lifts beyond slop is no tap", [tap()], expected: []) {
        $0.down(1, 100, 100, at: 0); $0.up(1, 112, 100, at: 40)
    },
    Scenario("a wander past slop and back is no tap", [tap()], expected: []) {
        $0.down(1, 100, 100, at: 0); $0.move(1, 120, 100, at: 20); $0.move(1, 100, 100, at: 40); $0.up(1, 100, 100, at: 60)
    },
    Scenario("double tap bound alone: a double tap fires it", [tap(2)], expected: ["tap recognized taps=2 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0); $0.tap(at: 104, 102, time: 200)
    },
    Scenario("double tap bound alone: a single tap is reported and fires nothing", [tap(2)], expected: ["tap recognized taps=1 f1 touchscreen"]) {
        $0.tap(at: 100, 100, time: 0)
    },
    Scenario("single and double bound: a single tap fires the single", [tap(1), tap(2)], expected: ["tap recognized taps=1 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0)
    },
    Scenario("single and double bound: a double tap fires only the double", [tap(1), tap(2)], expected: ["tap recognized taps=2 f1 touchscreen →1"]) {
        $0.tap(at: 100, 100, time: 0); $0.tap(at: 100, 100, time: 250)
    },
    Scenario("a second tap after the interval makes two single taps", [tap(1), tap(2)],
             expected: ["tap recognized taps=1 f1 touchscreen →0", "tap recognized taps=1 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0); $0.tap(at: 100, 100, time: 400)
    },
    Scenario("a second tap exactly at the interval still counts", [tap(1), tap(2)], expected: ["tap recognized taps=2 f1 touchscreen →1"]) {
        $0.tap(at: 100, 100, time: 0); $0.tap(at: 100, 100, time: 350)
    },
    Scenario("a second tap too far away makes two single taps", [tap(1), tap(2)],
             expected: ["tap recognized taps=1 f1 touchscreen →0", "tap recognized taps=1 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0); $0.tap(at: 180, 100, time: 200)
    },
    Scenario("a triple tap", [tap(1), tap(2), tap(3)], expected: ["tap recognized taps=3 f1 touchscreen →2"]) {
        $0.tap(at: 100, 100, time: 0); $0.tap(at: 100, 100, time: 200); $0.tap(at: 100, 100, time: 400)
    },
    Scenario("a double tap waits when a triple is bound, then fires", [tap(2), tap(3)], expected: ["tap recognized taps=2 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0); $0.tap(at: 100, 100, time: 200)
    },
    Scenario("a fourth tap starts a new sequence", [tap(1), tap(3)],
             expected: ["tap recognized taps=3 f1 touchscreen →1", "tap recognized taps=1 f1 touchscreen →0"]) {
        for k in 0..<4 { $0.tap(at: 100, 100, time: Double(k) * 200) }
    },
    Scenario("a two-finger tap", [tap(f: 2)], expected: ["tap recognized taps=1 f2 touchscreen →0"]) {
        $0.tap(fingers: 2, at: 100, 100, time: 0)
    },
    Scenario("a three-finger tap with fingers landing within the settle window", [tap(f: 3)],
             expected: ["tap recognized taps=1 f3 touchscreen →0"]) {
        $0.down(1, 100, 100, at: 0); $0.down(2, 130, 100, at: 40); $0.down(3, 160, 100, at: 80)
        $0.up(1, 100, 100, at: 150); $0.up(2, 130, 100, at: 155); $0.up(3, 160, 100, at: 160)
    },
    Scenario("a one-finger tap is not the two-finger tap", [tap(f: 1), tap(f: 2)], expected: ["tap recognized taps=1 f1 touchscreen →0"]) {
        $0.tap(at: 100, 100, time: 0)
    },
    Scenario("a two-finger tap fires nothing when only one finger is bound", [tap(f: 1)], expected: []) {
        $0.tap(fingers: 2, at: 100, 100, time: 0)
    },
    Scenario("a two-finger double tap", [tap(2, f: 2)], expected: ["tap recognized taps=2 f2 touchscreen →0"]) {
        $0.tap(fingers: 2, at: 100, 100, time: 0); $0.tap(fingers: 2, at: 100, 100, time: 250, firstID: 5)
    },
    Scenario("a finger landing after the settle window spoils the tap", [tap(f: 1), tap(f: 2)], expected: []) {
        $0.down(1, 100, 100, at: 0); $0.down(2, 130, 100, at: 150); $0.up(1, 100, 100, at: 200); $0.up(2, 130, 100, at: 210)
    },
    Scenario("a tap then a hold: the tap fires when the second press can no longer be a tap", [tap(1), tap(2), longPress()],
             expected: ["tap recognized taps=1 f1 touchscreen →0", "long-press began f1 touchscreen →2", "long-press ended f1 touchscreen"]) {
        $0.tap(at: 100, 100, time: 0); $0.down(1, 100, 100, at: 200); $0.up(1, 100, 100, at: 900)
    },
    Scenario("a tap then a swipe: the tap fires before the swipe", [tap(1), tap(2), swipe(.right)],
             expected: ["tap recognized taps=1 f1 touchscreen →0", "swipe recognized right f1 touchscreen →2"]) {
        $0.tap(at: 100, 100, time: 0); $0.drag(from: 100, 100, by: 200, 0, time: 200, duration: 100)
    },
    Scenario("taps with a different finger count do not combine", [tap(1), tap(2), tap(f: 2)],
             expected: ["tap recognized taps=1 f1 touchscreen →0", "tap recognized taps=1 f2 touchscreen →2"]) {
        $0.tap(at: 100, 100, time: 0); $0.tap(fingers: 2, at: 100, 100, time: 200, firstID: 5)
    },
]

@Suite struct TapScenarioTests {
    @Test(arguments: tapScenarios)
    func scenario(_ s: Scenario) {
        #expect(lines(s.outputs()) == s.expected)
    }

    @Test func aSingleTapThatWaitsFiresAtTheIntervalsDeadline() throws {
        var s = Script()
        s.tap(at: 100, 100, time: 0)
        let r = try #require(reports(run([tap(1), tap(2)], s)).first)
        #expect(r.time == Instant(milliseconds: 350))
        #expect(r.position == Point(x: 100, y: 100))
    }

    @Test func aSingleTapWithoutMultiTapBoundFiresAtRelease() throws {
        var s = Script()
        s.tap(at: 100, 100, time: 0, hold: 80)
        let r = try #require(reports(run([tap(1), tap(f: 3)], s)).first)
        #expect(r.time == Instant(milliseconds: 80))
    }

    @Test func aTapsPositionIsTheCentroidOfItsFingers() throws {
        var s = Script()
        s.tap(fingers: 2, at: 100, 200, time: 0)
        let r = try #require(reports(run([tap(f: 2)], s)).first)
        #expect(r.position == Point(x: 115, y: 200))
    }

    @Test func aDoubleTapClaimsTheTouchesOfBothTaps() {
        var s = Script()
        s.tap(at: 100, 100, time: 0, firstID: 1)
        s.tap(at: 100, 100, time: 200, firstID: 2)
        #expect(touchDecisions(run([tap(2)], s)) == [1: [.claim], 2: [.claim]])
    }

    @Test func anUnboundSingleTapReleasesItsTouchAfterTheInterval() {
        var s = Script()
        s.tap(at: 100, 100, time: 0)
        let out = run([tap(2)], s)
        #expect(touchDecisions(out) == [1: [.release]])
    }
}
