import GestureEngine
import GestureTestKit
import Testing

/// The stroke recognizer alone: the built-in templates, the generated set, straight swipes, invariances,
/// rotation and degenerate paths. Instant: no clock, fixed seeds.
@Suite struct ShapeMatcherTests {
    let recognizer = ShapeMatcher(shapes: StrokeShape.builtIn)
    var all: [Int] { Array(StrokeShape.builtIn.indices) }
    /// The documented default `stroke_min_score`.
    let threshold = 0.80

    @Test func builtInShapesAreTheDocumentedSixteenInOrder() {
        #expect(StrokeShape.builtIn.map(\.name) == [
            "triangle", "x", "rectangle", "circle", "check", "caret", "zig-zag", "arrow", "left-square-bracket",
            "right-square-bracket", "v", "delete", "left-curly-brace", "right-curly-brace", "star", "pigtail",
        ])
        #expect(StrokeShape.builtIn.allSatisfy { $0.points.count >= 2 })
    }

    @Test func eachTemplateMatchesItselfWithScoreOne() {
        var scratch = StrokeScratch()
        for (index, shape) in StrokeShape.builtIn.enumerated() {
            let match = recognizer.match(shape.points, among: all, scratch: &scratch)
            #expect(match?.shape == index, "\(shape.name)")
            #expect((match?.score ?? 0) > 0.999, "\(shape.name): \(String(describing: match))")
        }
    }

    /// 16 shapes × 100 generated strokes (scale 0.5–2×, rotation ±15°, aspect, tremor, jitter, hooks,
    /// varying speed): the measured rates, asserted. `stroke-accuracy` in Benchmarks/ prints the tables.
    @Test func generatedSetIsRecognized() {
        let accuracy = StrokeAccuracy(variants: 100)
        let rate = accuracy.rate
        let accepted = accuracy.acceptedRate(atLeast: threshold)
        #expect(rate >= 0.99, "best match right for \(rate)")
        #expect(accepted >= 0.97, "right and at least \(threshold) for \(accepted)")
        #expect(accuracy.wronglyAccepted(atLeast: threshold) == 0, "\(accuracy.markdown(threshold: threshold))")
        for index in accuracy.names.indices {
            #expect(accuracy.recognized(index) >= 97, "\(accuracy.names[index]): \(accuracy.confusion[index])")
        }
    }

    /// 160 generated strokes drawn with xdotool on Xvfb and recorded as the X server delivered them
    /// (scripts/record-strokes): whole pixels, the server's own event stream.
    @Test func strokesRecordedFromAnXServerAreRecognized() throws {
        let strokes = try #require(RecordedStrokes.fixture(), "Tests/Fixtures/strokes/xvfb-recorded.txt is missing")
        #expect(strokes.count == 160)
        var scratch = StrokeScratch()
        var right = 0, fired = 0
        for stroke in strokes {
            let match = recognizer.match(stroke.path, among: all, scratch: &scratch)
            let name = match.map { StrokeShape.builtIn[$0.shape].name }
            if name == stroke.name { right += 1 }
            if name == stroke.name, match!.score >= threshold { fired += 1 }
            #expect(name == stroke.name || match!.score < threshold, "\(stroke.name) fired as \(name ?? "nothing")")
        }
        #expect(Double(right) >= 0.99 * Double(strokes.count), "best match right for \(right) of \(strokes.count)")
        #expect(Double(fired) >= 0.97 * Double(strokes.count), "fired right for \(fired) of \(strokes.count)")
    }

    /// Straight and nearly straight paths in the 8 directions (and between), short and long, sparse and
    /// dense, bowed up to 8%, with jitter: never a shape at the default threshold.
    @Test func straightSwipesAreNeverAShape() {
        let check = StrokeSwipeCheck()
        for (path, match) in zip(StrokeSwipeCheck.swipes, check.best) {
            guard let match else {
                Issue.record("no match for a swipe of \(path.count) points")
                continue
            }
            #expect(match.score < threshold, "swipe from \(path[0]) to \(path[path.count - 1]): \(StrokeShape.builtIn[match.shape].name) \(match.score)")
        }
        var scratch = StrokeScratch()
        // Exact lines, 2 points and many.
        for direction in 0..<8 {
            let end = StrokeSynth.transformed([Point(x: 0, y: 0), Point(x: 200, y: 0)], rotation: Double(direction) * 45)
            let dense = (0...50).map { Point(x: end[0].x + (end[1].x - end[0].x) * Double($0) / 50, y: end[0].y + (end[1].y - end[0].y) * Double($0) / 50) }
            for path in [end, dense] {
                let score = recognizer.match(path, among: all, scratch: &scratch)?.score ?? 0
                #expect(score < threshold, "line at \(direction * 45)°: \(score)")
            }
        }
    }

    @Test func positionSizeAndSpeedDoNotMatter() {
        var scratch = StrokeScratch()
        for (index, shape) in StrokeShape.builtIn.enumerated() {
            let path = StrokeSynth.path(for: shape, seed: UInt64(index), scale: 1)
            let base = recognizer.match(path, among: all, scratch: &scratch)!
            // Moved and resized: the same points up to rounding.
            for (scale, offset) in [(1.0, Point(x: -3000, y: 9000)), (0.25, Point(x: 5, y: 5)), (8.0, Point(x: 0, y: -400))] {
                let moved = StrokeSynth.transformed(path, scale: scale, offset: offset)
                let match = recognizer.match(moved, among: all, scratch: &scratch)!
                #expect(match.shape == base.shape && abs(match.score - base.score) < 1e-9, "\(shape.name) ×\(scale)")
            }
            // Drawn at another speed: every segment cut in 3 (3× the events), or every other event dropped.
            var denser: [Point] = [path[0]]
            for (a, b) in zip(path, path.dropFirst()) {
                denser += [a + (b - a) / 3, a + (b - a) * (2.0 / 3), b]
            }
            let sparser = path.enumerated().filter { $0.offset % 2 == 0 || $0.offset == path.count - 1 }.map(\.element)
            // Whole pixels, as a mouse reports them.
            let rounded = path.map { Point(x: $0.x.rounded(), y: $0.y.rounded()) }
            for (label, variant) in [("denser", denser), ("sparser", sparser), ("rounded", rounded)] {
                let match = recognizer.match(variant, among: all, scratch: &scratch)!
                #expect(match.shape == base.shape && abs(match.score - base.score) < 0.05,
                        "\(shape.name) \(label): \(match.score) vs \(base.score)")
            }
        }
    }

    /// Within 15° a rotation costs almost nothing (the turn found is kept a little short of it,
    /// `StrokeTemplateSet.similarity`); beyond, the rotation is taken as 15° and the rest counts
    /// against the score (docs/performance.md gives the measured rates further turned).
    @Test func rotationWithin15DegreesIsTolerated() {
        var scratch = StrokeScratch()
        for (index, shape) in StrokeShape.builtIn.enumerated() {
            for rotation in [-14.0, -8, 8, 14] {
                let turned = StrokeSynth.transformed(shape.points, rotation: rotation)
                let match = recognizer.match(turned, among: all, scratch: &scratch)
                #expect(match?.shape == index && (match?.score ?? 0) > 0.99,
                        "\(shape.name) at \(rotation)°: \(String(describing: match))")
            }
            let at40 = recognizer.match(StrokeSynth.transformed(shape.points, rotation: 40), among: [index], scratch: &scratch)!
            #expect(at40.score < 0.95, "\(shape.name) at 40°: \(at40.score)")
        }
    }

    @Test func degeneratePathsGiveNilOrAFiniteScore() {
        var scratch = StrokeScratch()
        #expect(recognizer.match([], among: all, scratch: &scratch) == nil)
        #expect(recognizer.match([Point(x: 5, y: 5)], among: all, scratch: &scratch) == nil)
        #expect(recognizer.match(Array(repeating: Point(x: 5, y: 5), count: 50), among: all, scratch: &scratch) == nil)
        #expect(recognizer.match(Array(repeating: .zero, count: 3), among: all, scratch: &scratch) == nil)
        #expect(recognizer.match([Point(x: 0, y: 0), Point(x: 100, y: 100)], among: [], scratch: &scratch) == nil)
        #expect(recognizer.match([Point(x: .nan, y: 0), Point(x: 100, y: 100)], among: all, scratch: &scratch) == nil)
        #expect(recognizer.match([Point(x: .infinity, y: 0), Point(x: 100, y: 100)], among: all, scratch: &scratch) == nil)
        let finite: [[Point]] = [
            [Point(x: 0, y: 0), Point(x: 100, y: 100)],
            [Point(x: 0, y: 0), Point(x: 1e-300, y: 0)],
            [Point(x: -1.7e308, y: 1.7e308), Point(x: 1.7e308, y: -1.7e308), Point(x: 1.7e308, y: 1.7e308)],
            [Point(x: 1e308, y: 1e308), Point(x: 1e308, y: 1e308), Point(x: -1e308, y: 0)],
            [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 0, y: 0)],
            StrokeShape.builtIn[3].points.map { Point(x: $0.x + 1e15, y: $0.y - 1e15) },
        ]
        for path in finite {
            let match = recognizer.match(path, among: all, scratch: &scratch)
            #expect(match != nil && match!.score.isFinite && (0...1).contains(match!.score), "\(path.prefix(3)): \(String(describing: match))")
        }
        // Candidates outside the shapes, and shapes with fewer than 2 distinct points, are skipped.
        let odd = ShapeMatcher(shapes: [StrokeShape(name: "dot", points: [Point(x: 1, y: 1)]), StrokeShape.builtIn[3]])
        let match = odd.match(StrokeShape.builtIn[3].points, among: [7, -1, 0, 1], scratch: &scratch)
        #expect(match?.shape == 1)
        #expect(odd.match(StrokeShape.builtIn[3].points, among: [0, 9], scratch: &scratch) == nil)
    }

    @Test func onlyTheCandidatesAreCompared() {
        var scratch = StrokeScratch()
        let circle = StrokeShape.builtIn[3].points
        #expect(recognizer.match(circle, among: [0, 1], scratch: &scratch)?.shape != 3)
        #expect(recognizer.match(circle, among: [3], scratch: &scratch)?.shape == 3)
    }

    @Test func recognizersCompareByTheirShapes() {
        let again = ShapeMatcher(shapes: StrokeShape.builtIn)
        #expect(again == recognizer)
        #expect(again.hashValue == recognizer.hashValue)
        #expect(ShapeMatcher(shapes: Array(StrokeShape.builtIn.prefix(3))) != recognizer)
    }
}

/// The committed picture of the built-in shapes is the one the code makes (scripts/shapes-svg).
@Suite struct StrokeShapesPictureTests {
    @Test func docsShapesSVGIsUpToDate() throws {
        let committed = try #require(StrokeShapesPicture.committed(), "docs/shapes.svg is missing: run scripts/shapes-svg")
        #expect(committed == StrokeShapesPicture.svg(), "docs/shapes.svg is stale: run scripts/shapes-svg")
    }
}
