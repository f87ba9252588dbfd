import GestureEngine
import GestureTestKit
import Testing

/// A built-in shape's template, moved and scaled so its bounding box is `size` px wide at
/// (`x`, `y`): what a hand draws when it draws the shape well.
func drawn(_ name: String, at x: Double = 300, _ y: Double = 300, size: Double = 200) -> [Point] {
    let points = StrokeShape.builtIn.first { $0.name == name }!.points
    var lo = points[0], hi = points[0]
    for p in points {
        lo = Point(x: min(lo.x, p.x), y: min(lo.y, p.y))
        hi = Point(x: max(hi.x, p.x), y: max(hi.y, p.y))
    }
    let k = size / max(hi.x - lo.x, hi.y - lo.y)
    return points.map { Point(x: x + ($0.x - lo.x) * k, y: y + ($0.y - lo.y) * k) }
}

/// A straight line from (x, y) by (dx, dy) in `n` points.
func line(from x: Double, _ y: Double, by dx: Double, _ dy: Double, n: Int = 20) -> [Point] {
    (0..<n).map { k in
        let f = Double(k) / Double(n - 1)
        return Point(x: x + dx * f, y: y + dy * f)
    }
}

let strokeScenarios: [Scenario] = [
    Scenario("a circle drawn with one finger fires the circle at the lift", [stroke("circle")],
             expected: ["stroke recognized circle f1 touchscreen →0"]) {
        $0.path(drawn("circle"), time: 0, duration: 600)
    },
    Scenario("a circle drawn with the pointer fires the circle", [stroke("circle")],
             expected: ["stroke recognized circle f1 pointer →0"]) {
        $0.pointerPath(drawn("circle"), time: 0, duration: 600)
    },
    Scenario("the best of the bound shapes fires", [stroke("circle"), stroke("triangle"), stroke("check")],
             expected: ["stroke recognized triangle f1 touchscreen →1"]) {
        $0.path(drawn("triangle"), time: 0, duration: 600)
    },
    Scenario("a shape no binding names is never compared", [stroke("circle")], expected: []) {
        $0.path(drawn("zig-zag"), time: 0, duration: 600)
    },
    Scenario("a stroke smaller than stroke_min_px is nothing", [stroke("circle")], expected: []) {
        $0.path(drawn("circle", size: 30), time: 0, duration: 600)
    },
    Scenario("a device binding keeps strokes of the other device out", [stroke("circle", device: .pointer)], expected: []) {
        $0.path(drawn("circle"), time: 0, duration: 600)
    },
    Scenario("a fast straight line is a swipe, decided at the lift", [stroke("circle"), swipe(.right)],
             expected: ["swipe recognized right f1 touchscreen →1"]) {
        $0.path(line(from: 100, 300, by: 300, 0), time: 0, duration: 150)
    },
    Scenario("a matching stroke wins over the swipe it also made", [stroke("circle"), swipe()],
             expected: ["stroke recognized circle f1 touchscreen →0"]) {
        $0.path(drawn("circle", size: 300), time: 0, duration: 250)
    },
    Scenario("a slow unmatched line is neither swipe nor stroke", [stroke("circle"), swipe(.right)], expected: []) {
        $0.path(line(from: 100, 300, by: 300, 0), time: 0, duration: 3_000)
    },
    Scenario("a still finger still becomes a long press", [stroke("circle"), longPress()],
             expected: ["long-press began f1 touchscreen →1", "long-press ended f1 touchscreen"]) {
        $0.down(1, 300, 300, at: 0); $0.up(1, 300, 300, at: 800)
    },
    Scenario("a tap is still a tap", [stroke("circle"), tap()], expected: ["tap recognized taps=1 f1 touchscreen →1"]) {
        $0.tap(at: 300, 300, time: 0)
    },
    Scenario("a finger that joins spoils the stroke", [stroke("circle")], expected: []) {
        let points = drawn("circle")
        $0.down(1, points[0].x, points[0].y, at: 0)
        for (k, p) in points.enumerated().dropFirst() { $0.move(1, p.x, p.y, at: Double(k) * 10) }
        $0.down(2, 800, 300, at: Double(points.count) * 10)
        $0.up(1, points.last!.x, points.last!.y, at: Double(points.count) * 10 + 20)
        $0.up(2, 800, 300, at: Double(points.count) * 10 + 30)
    },
]

@Suite struct StrokeArbitrationTests {
    @Test(arguments: strokeScenarios) func strokes(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }

    @Test func aStrokeReportsItsShapeScoreAndTheCentreOfItsBoundingBox() throws {
        let points = drawn("circle", at: 300, 200, size: 200)
        let xs = points.map(\.x), ys = points.map(\.y)
        let centre = Point(x: (xs.min()! + xs.max()!) / 2, y: (ys.min()! + ys.max()!) / 2)
        var s = Script()
        s.path(points, time: 0, duration: 600)
        let r = try #require(reports(run([stroke("circle")], s)).first)
        #expect(r.shape == "circle")
        let score = try #require(r.score)
        #expect(score >= 0.8 && score <= 1)
        #expect(r.position.distance(to: centre) < 0.001)
        #expect(r.time == Instant(milliseconds: 610))
    }

    @Test func thePathCountsFromTheFirstFingerWhileMoreFingersCouldStillJoin() throws {
        // With a 3-finger swipe bound, one finger waits 100 ms for others (a third of this
        // circle): the stroke is still compared whole, with the score it has without the wait.
        var s = Script()
        s.path(drawn("circle"), time: 0, duration: 300)
        let waiting = try #require(reports(run([stroke("circle"), swipe(.left, f: 3)], s)).first)
        let alone = try #require(reports(run([stroke("circle")], s)).first)
        #expect(waiting.shape == "circle")
        #expect(waiting.score == alone.score && waiting.position == alone.position)
    }

    @Test func theInputStaysUndecidedUntilTheLiftAndIsClaimedWhenAStrokeFires() {
        var s = Script()
        s.path(drawn("circle"), time: 0, duration: 600)
        let out = run([stroke("circle")], s)
        #expect(touchDecisions(out) == [1: [.claim]])
        // The claim comes at the lift, before the report.
        let claimIndex = out.firstIndex { if case .touch(1, .claim) = $0 { true } else { false } }
        let reportIndex = out.firstIndex { if case .gesture = $0 { true } else { false } }
        #expect(claimIndex != nil && reportIndex != nil && claimIndex! < reportIndex!)
    }

    @Test func anUnmatchedPathIsGivenBackAtTheLift() {
        var s = Script()
        s.pointerPath(drawn("zig-zag"), time: 0, duration: 600)
        let out = run([stroke("circle")], s)
        let decisions = out.compactMap { o -> Ownership? in if case .pointer(3, let d) = o { d } else { nil } }
        #expect(decisions == [.release])
        #expect(reports(out).isEmpty)
    }

    @Test func aSwipeInAStrokeContextKeepsTheDirectionItHadWhenItsThresholdsWereMet() throws {
        // Right fast (200 px in 100 ms), then slowly down 300 px: the swipe was to the right
        // when it crossed 80 px; by the lift the path has gone further down than right.
        var s = Script()
        s.down(1, 100, 300, at: 0)
        for k in 1...10 { s.move(1, 100 + Double(k) * 20, 300, at: Double(k) * 10) }
        for k in 1...30 { s.move(1, 300, 300 + Double(k) * 10, at: 100 + Double(k) * 63) }
        s.up(1, 300, 600, at: 2_010)
        let r = try #require(reports(run([stroke("circle"), swipe()], s)).first)
        #expect(r.gesture == .swipe && r.direction == .right)
        #expect(r.time == Instant(milliseconds: 2_010))
    }

    @Test func aLongPathStillMatches() {
        // 20,000 samples along the circle's template: more than the path keeps (StrokePathTests).
        let corners = drawn("circle")
        let perSegment = 20_000 / (corners.count - 1)
        var points: [Point] = []
        for k in 1..<corners.count {
            for j in 0..<perSegment {
                points.append(corners[k - 1] + (corners[k] - corners[k - 1]) * (Double(j) / Double(perSegment)))
            }
        }
        points.append(corners.last!)
        var s = Script()
        s.path(points, time: 0, duration: 4_000)
        #expect(lines(run([stroke("circle")], s)) == ["stroke recognized circle f1 touchscreen →0"])
    }

    @Test func transitionsShowTheStrokeRecognizer() {
        var s = Script()
        s.path(drawn("circle"), time: 0, duration: 600)
        var engine = Engine(EngineConfiguration(triggers: [stroke("circle")]))
        engine.tracesTransitions = true
        var out: [String] = []
        for e in s.events {
            engine.handle(e) { if case .transition(let t) = $0 { out.append(t.description) } }
        }
        #expect(out.contains("touchscreen stroke: idle → touch-begin → possible"))
        #expect(out.contains("touchscreen stroke: possible → touch-end → done"))
    }

    @Test func aConfigShapeReplacesABuiltInOneOfTheSameName() {
        // "circle" is now drawn as a check mark: a drawn circle no longer matches it.
        var shapes = StrokeShape.builtIn
        let i = shapes.firstIndex { $0.name == "circle" }!
        shapes[i] = StrokeShape(name: "circle", points: drawn("check"))
        var s = Script()
        s.path(drawn("check", size: 150), time: 0, duration: 500)
        var engine = Engine(EngineConfiguration(triggers: [stroke("circle")], shapes: shapes))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        #expect(lines(out) == ["stroke recognized circle f1 touchscreen →0"])
    }
}
