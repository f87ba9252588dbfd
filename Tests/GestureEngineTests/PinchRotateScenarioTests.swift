import GestureEngine
import GestureTestKit
import Testing

/// Pinch and rotate on the touchscreen, after Hammer.js `test_pinch.js`/`test_rotate.js`
/// and Flutter `scale_test.dart`.
@Suite struct PinchRotateScenarioTests {
    @Test(arguments: [(2.0, Direction.out, 0), (0.5, Direction.in, 1)])
    func aPinchReportsItsDirectionWhenItEnds(factor: Double, direction: Direction, index: Int) throws {
        var s = Script()
        s.twoFingers(around: 400, 400, factor: factor, time: 0)
        let out = reports(run([pinch(.out), pinch(.in)], s))
        let began = try #require(out.first)
        #expect(describe(began) == "pinch began f2 touchscreen →\(index)")
        let ended = try #require(out.last)
        #expect(describe(ended) == "pinch ended \(direction.rawValue) f2 touchscreen")
        #expect(abs(ended.scale! - factor) < 1e-9)
    }

    @Test func aPinchThatCrossedItsThresholdWhileFingersSettledBeginsWhenTheyHaveSettled() throws {
        var s = Script()
        // Two fingers spread fast; a 3-finger binding keeps the settle window (100 ms) open.
        s.twoFingers(around: 400, 400, factor: 2, time: 0, duration: 200, steps: 10)
        let began = try #require(reports(run([pinch(), swipe(.left, f: 3)], s)).first)
        #expect(began.gesture == .pinch && began.phase == .began)
        #expect(began.time == Instant(milliseconds: 100))
        #expect(abs(began.scale! - 1.5) < 1e-9)
    }

    @Test func aPinchBelowItsMinimumScaleIsNothing() {
        var s = Script()
        s.twoFingers(around: 400, 400, factor: 1.1, time: 0)
        #expect(lines(run([pinch()], s)).isEmpty)
    }

    @Test func aPinchBeginsWhenScaleCrossesPinchMinScale() throws {
        var s = Script()
        s.twoFingers(around: 400, 400, factor: 2, time: 0, duration: 200, steps: 20)  // +0.05 per step
        let began = try #require(reports(run([pinch()], s)).first)
        #expect(began.time == Instant(milliseconds: 30))
        #expect(abs(began.scale! - 1.15) < 1e-9)
    }

    @Test(arguments: [(45.0, Direction.cw), (-45.0, Direction.ccw)])
    func rotationIsClockwisePositive(degrees: Double, direction: Direction) throws {
        var s = Script()
        s.twoFingers(around: 400, 400, degrees: degrees, time: 0)
        let out = reports(run([rotate(.cw), rotate(.ccw)], s))
        #expect(out.first?.firing == (direction == .cw ? 0 : 1))
        let ended = try #require(out.last)
        #expect(ended.direction == direction && ended.phase == .ended)
        #expect(abs(ended.angle! - degrees) < 1e-6)
    }

    @Test func rotationBeyondHalfATurnAccumulates() throws {
        var s = Script()
        s.twoFingers(around: 400, 400, degrees: 270, time: 0, duration: 900, steps: 30)
        let ended = try #require(reports(run([rotate()], s)).last)
        #expect(abs(ended.angle! - 270) < 1e-6)
    }

    @Test func pinchAndRotateRunTogether() {
        var s = Script()
        s.twoFingers(around: 400, 400, factor: 2, degrees: 60, time: 0)
        let out = lines(run([pinch(), rotate()], s))
        #expect(out.contains("pinch began f2 touchscreen →0"))
        #expect(out.contains("rotate began f2 touchscreen →1"))
        #expect(out.suffix(2).sorted() == ["pinch ended out f2 touchscreen", "rotate ended cw f2 touchscreen"])
    }

    @Test func aPinchIsNotAPanWhenBothAreBound() throws {
        var s = Script()
        s.twoFingers(around: 400, 400, factor: 1.6, time: 0)
        let first = try #require(reports(run([pan(f: 2), pinch()], s)).first)
        #expect(first.gesture == .pinch)
    }

    @Test func aTwoFingerDragIsAPanNotAPinch() throws {
        var s = Script()
        // Fingers 80 px apart, each event moving one finger 5 px, as a real panel reports them.
        s.drag(fingers: 2, from: 400, 400, by: 0, 200, time: 0, duration: 1000, steps: 40, spacing: 80)
        let first = try #require(reports(run([pan(f: 2), pinch(), rotate()], s)).first)
        #expect(first.gesture == .pan)
    }

    @Test func pinchRepeatFiresInStepsOfScale() {
        var s = Script()
        s.twoFingers(around: 400, 400, factor: 0.5, time: 0, steps: 10)  // 0.95, 0.90, … 0.50
        let fired = firings(run([pinch(.in, every: 0.12), pinch(.out, every: 0.12)], s))
        // began at 0.85, then below 0.73 (0.70) and below 0.61 (0.60).
        #expect(fired == ["pinch began f2 touchscreen →0", "pinch changed f2 touchscreen →0", "pinch changed f2 touchscreen →0"])
    }

    @Test func pinchOutStepsFireTheOutBindingAndInStepsTheInBinding() {
        var s = Script()
        s.down(1, 300, 400, at: 0); s.down(2, 500, 400, at: 0)             // span 200
        s.move(1, 280, 400, at: 100); s.move(2, 520, 400, at: 100)         // 1.2: began out
        s.move(1, 250, 400, at: 200); s.move(2, 550, 400, at: 200)         // 1.5: out step (0.2 → 1.4)
        s.move(1, 290, 400, at: 300); s.move(2, 510, 400, at: 300)         // 1.1: in steps from 1.4 (1.2? no: level 1.4 → 1.2 → 1.0?)
        s.up(1, 290, 400, at: 400); s.up(2, 510, 400, at: 400)
        let fired = firings(run([pinch(.in, every: 0.2), pinch(.out, every: 0.2)], s))
        #expect(fired.first == "pinch began f2 touchscreen →1")
        #expect(fired.contains("pinch changed f2 touchscreen →1"))
        #expect(fired.contains("pinch changed f2 touchscreen →0"))
    }
}
