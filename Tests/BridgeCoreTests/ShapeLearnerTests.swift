import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

@Suite struct ShapeLearnerTests {
    private func learner(_ settings: RecognizerSettings = RecognizerSettings()) -> ShapeLearner {
        ShapeLearner(pointerButton: 3) { device in
            var s = settings
            if device == .pointer { s.strokeMinPx = 40 }
            return s
        }
    }

    private func outcomes(_ script: Script) -> [ShapeLearner.Outcome] {
        var l = learner()
        return script.events.compactMap { l.handle($0) }
    }

    /// An "L": down 200 px, then right 100 px.
    private let ell = [Point(x: 100, y: 100), Point(x: 100, y: 200), Point(x: 100, y: 300), Point(x: 150, y: 300), Point(x: 200, y: 300)]

    @Test func aPointerStrokeIsResampledAndMovedToTheOrigin() throws {
        var s = Script()
        s.pointerPath(ell, time: 0, duration: 400)
        let outcome = try #require(outcomes(s).first)
        guard case .learned(let points, .pointer) = outcome else { Issue.record("\(outcome)"); return }
        #expect(points.count == ShapeLearner.pointCount)
        #expect(points.first == Point(x: 0, y: 0))
        #expect(points.last == Point(x: 100, y: 200))
        #expect(points.allSatisfy { $0.x == $0.x.rounded() && $0.y == $0.y.rounded() })
        // Evenly spaced along the 300 px path, 6.4 px apart (a chord across the corner is shorter).
        let step = 300.0 / 47
        for k in 1..<points.count {
            let d = points[k].distance(to: points[k - 1])
            #expect(d >= step * 0.6 && d <= step + 1)
        }
    }

    @Test func aOneFingerTouchStrokeIsLearned() {
        var s = Script()
        s.path(ell, time: 0, duration: 400)
        #expect(outcomes(s).count == 1)
        if case .learned(_, .touchscreen) = outcomes(s).first {} else { Issue.record("\(outcomes(s))") }
    }

    @Test func aStrokeSmallerThanStrokeMinPxIsRefusedAndTheNextIsAwaited() {
        var s = Script()
        s.path([Point(x: 10, y: 10), Point(x: 40, y: 40)], time: 0, duration: 100)
        s.path(ell, time: 500, duration: 400)
        let result = outcomes(s)
        #expect(result.count == 2)
        if case .tooSmall(let diagonal, MinimumSize(pixels: 60), .touchscreen) = result.first {
            #expect(abs(diagonal - 42.43) < 0.01)
        } else {
            Issue.record("\(result)")
        }
        if case .learned = result.last {} else { Issue.record("\(result)") }
    }

    @Test("stroke_min_mm counts on the monitor where the path began, and the refusal says so in millimetres")
    func strokeMinMmCountsOnTheMonitorWhereThePathBegan() {
        var settings = RecognizerSettings()
        settings.strokeMinMm = 15
        var s = Script()
        // Left: 96 dpi (no size reported), 15 mm = 56.7 px; right: 1920 × 1080 px on 300 × 169 mm, 6.40 px/mm, 15 mm = 96.0 px.
        s.add(0, .screen(width: 3840, height: 1080, monitors: [
            Monitor(name: "left", x: 0, y: 0, width: 1920, height: 1080),
            Monitor(name: "right", x: 1920, y: 0, width: 1920, height: 1080, widthMm: 300, heightMm: 169),
        ]))
        // 70.7 px across: enough on the left, too small on the right.
        let small = [Point(x: 0, y: 0), Point(x: 50, y: 0), Point(x: 50, y: 50)]
        s.path(small.map { $0 + Point(x: 100, y: 100) }, time: 100, duration: 200)
        s.path(small.map { $0 + Point(x: 2100, y: 100) }, time: 500, duration: 200)
        var l = learner(settings)
        let result = s.events.compactMap { l.handle($0) }
        #expect(result.count == 2)
        if case .learned(_, .touchscreen) = result.first {} else { Issue.record("\(result)") }
        guard case .tooSmall(let diagonal, let minimum, .touchscreen) = result.last else { Issue.record("\(result)"); return }
        #expect(abs(diagonal - 70.71) < 0.01)
        #expect(minimum.millimetres == 15 && abs(minimum.pixels - 95.97) < 0.01, "\(minimum)")
        #expect(minimum.refusal(diagonal: diagonal, device: .touchscreen)
            == "that stroke was 71 px across (11.1 mm), smaller than stroke_min_mm (15 mm, 96 px on that monitor, for the touchscreen): draw it larger")
    }

    @Test("stroke_min_px is named when the rule is in pixels; a touchpad's millimetres never count")
    func strokeMinPxRefusal() {
        #expect(MinimumSize(pixels: 60).refusal(diagonal: 42.4, device: .pointer)
            == "that stroke was 42 px across, smaller than stroke_min_px (60 px for the pointer): draw it larger")
        var settings = RecognizerSettings()
        settings.strokeMinMm = 15
        #expect(MinimumSize(settings, for: .touchpad, startingAt: .zero, on: nil) == MinimumSize(pixels: 60))
        // Without a screen, 96 dpi.
        #expect(abs(MinimumSize(settings, for: .pointer, startingAt: .zero, on: nil).pixels - 15 * 96 / 25.4) < 1e-9)
    }

    @Test func twoFingersAreNoStroke() {
        var s = Script()
        s.down(1, 100, 100, at: 0); s.down(2, 300, 100, at: 10)
        s.move(1, 100, 300, at: 100); s.move(2, 300, 300, at: 100)
        s.up(1, 100, 300, at: 200); s.up(2, 300, 300, at: 210)
        #expect(outcomes(s) == [.moreThanOneFinger])
    }

    @Test func otherButtonsDrawNothing() {
        var s = Script()
        s.pointerPath(ell, button: 1, time: 0, duration: 400)
        #expect(outcomes(s).isEmpty)
    }

    @Test func theBlockIsAValidConfigShape() throws {
        var s = Script()
        s.pointerPath(ell, time: 0, duration: 400)
        guard case .learned(let points, _)? = outcomes(s).first else { Issue.record("no stroke"); return }
        let block = ShapeLearner.block(name: "say \"L\"", points: points)
        #expect(block.hasPrefix("[[shape]]\nname = \"say \\\"L\\\"\"\npoints = [\n    [0, 0], "))
        let config = try Config.parse(block, file: "learned.toml")
        #expect(config.shapes == [StrokeShape(name: "say \"L\"", points: points)])
    }

    @Test func namesMustBeNonEmptyWithoutControlCharactersAndMayBeBuiltIn() {
        #expect(ShapeLearner.problem(with: "") != nil)
        #expect(ShapeLearner.problem(with: "a\u{7F}") != nil)
        #expect(ShapeLearner.problem(with: "a\nb") != nil)
        #expect(ShapeLearner.problem(with: "circle") == nil)
        #expect(ShapeLearner.problem(with: "Zorro's Z") == nil)
    }
}
