@testable import BridgeCore
import Foundation
import GestureConfig
import GestureEngine
import Testing

/// `learn --samples N`: drawings combined into one shape, how alike they are, and which one is
/// asked for again (docs/config.md, «`gesture-bridge learn NAME`»). The drawings are data: point
/// lists as ``ShapeLearner`` makes them.
@Suite struct ShapeSamplesTests {
    /// A polyline through `corners`, as a learned drawing: 48 points along it, relative to its top-left.
    static func drawing(_ corners: [Point]) -> [Point] {
        ShapeLearner.normalized(corners, count: ShapeLearner.pointCount)
    }

    /// An "L" drawn down `height` px, then right `width` px; `round` px of the corner cut (a hand's curve).
    static func ell(height: Double = 200, width: Double = 100, round: Double = 0) -> [Point] {
        var corners = [Point(x: 100, y: 100), Point(x: 100, y: 100 + height - round)]
        if round > 0 {
            corners.append(Point(x: 100 + round * 0.3, y: 100 + height - round * 0.3))
        }
        corners += [Point(x: 100 + round, y: 100 + height), Point(x: 100 + width, y: 100 + height)]
        return drawing(corners)
    }

    /// A circle drawn from the top, counter-clockwise, as the built-in one.
    static let circle = drawing((0...32).map { k in
        let a = Double(k) / 32 * 2 * Double.pi
        return Point(x: 200 - 80 * sin(a), y: 200 - 80 * cos(a))
    })

    static let alike = [ell(), ell(height: 180, width: 110, round: 20), ell(height: 210, width: 90, round: 8)]

    private func add(_ drawings: [[Point]], to samples: inout ShapeSamples, minimumScore: Double = 0.80) -> [ShapeSamples.Verdict] {
        drawings.map { samples.add($0, minimumScore: minimumScore) }
    }

    @Test("three alike drawings become one shape with three templates, each scoring well against the others")
    func alikeDrawingsBecomeOneShape() throws {
        var samples = ShapeSamples(name: "L", count: 3)
        let verdicts = add(Self.alike, to: &samples)
        #expect(verdicts.dropLast() == [.more(taken: 1), .more(taken: 2)])
        guard case .alike(let similarity) = verdicts.last else { Issue.record("\(verdicts)"); return }
        #expect(similarity.scores.count == 3)
        #expect(similarity.scores.allSatisfy { $0 >= 0.80 && $0 <= 1 }, "\(similarity)")
        #expect(samples.message(verdicts[0]) == "drawing 1 of 3 taken: draw the shape L again")
        let said = samples.message(verdicts[2])
        #expect(said.hasPrefix("the 3 drawings are alike: each scores 0.") && said.hasSuffix(
            " against the others (1 is identical; a stroke fires from stroke_min_score 0.80)"), "\(said)")

        // The block is a config [[shape]] with a template per drawing, in drawing order.
        let block = samples.block(similarity)
        #expect(block.hasPrefix("# learned from 3 drawings, each scoring "), "\(block)")
        let config = try Config.parse(block, file: "learned.toml")
        #expect(config.shapes == [StrokeShape(name: "L", templates: Self.alike)])
        #expect(samples.shape == config.shapes.first)
    }

    @Test("the similarity is the recognizer's score of each drawing against a shape of the others")
    func similarityIsTheMatchersScore() throws {
        let similarity = ShapeSamples.similarity(of: Self.alike, tolerance: StrokeShape.defaultTolerance)
        for i in 0..<3 {
            let others = StrokeShape(name: "L", templates: Self.alike.enumerated().filter { $0.offset != i }.map(\.element))
            var scratch = StrokeScratch()
            let match = try #require(ShapeMatcher(shapes: [others]).match(Self.alike[i], among: [0], scratch: &scratch))
            #expect(similarity.scores[i] == match.score)
        }
        // Identical drawings are identical (to rounding).
        #expect(ShapeSamples.similarity(of: [Self.alike[0], Self.alike[0]], tolerance: 0.2).scores.allSatisfy { $0 > 0.999_999 })
    }

    @Test("a drawing unlike the others is asked for again, named, and its replacement takes its place", arguments: [0, 1, 2])
    func anUnlikeDrawingIsAskedForAgain(odd: Int) throws {
        var drawings = Self.alike
        drawings[odd] = Self.circle
        var samples = ShapeSamples(name: "L", count: 3)
        let verdict = try #require(add(drawings, to: &samples).last)
        guard case .redo(odd, .form, let similarity) = verdict else { Issue.record("\(verdict)"); return }
        #expect(similarity.scores[odd] < 0.80, "\(similarity)")
        let said = samples.message(verdict)
        #expect(said.hasPrefix("drawing \(odd + 1) is unlike the others: it scores "), "\(said)")
        #expect(said.contains(", below stroke_min_score 0.80 (the others: 0.") && said.hasSuffix(": draw it again"), "\(said)")
        #expect(samples.drawings.count == 2)

        // Its replacement, alike, completes the shape in drawing order.
        guard case .alike = samples.add(Self.alike[odd], minimumScore: 0.80) else { Issue.record("\(samples.drawings)"); return }
        #expect(samples.shape.templates == Self.alike)
    }

    @Test("a drawing made the other way round is told so")
    func aReversedDrawingIsToldSo() throws {
        var samples = ShapeSamples(name: "L", count: 3)
        let verdict = try #require(add([Self.alike[0], Self.alike[1].reversed(), Self.alike[2]], to: &samples).last)
        guard case .redo(1, .reversed, _) = verdict else { Issue.record("\(verdict)"); return }
        let said = samples.message(verdict)
        #expect(said.hasPrefix("drawing 2 was drawn the other way round (from where the others end to where they start): it scores "), "\(said)")
    }

    @Test("nearly straight drawings are told that a swipe is never a shape")
    func straightDrawingsAreRefused() throws {
        let lines = [
            Self.drawing([Point(x: 0, y: 0), Point(x: 200, y: 4)]),
            Self.drawing([Point(x: 0, y: 0), Point(x: 100, y: 3), Point(x: 210, y: 0)]),
            Self.drawing([Point(x: 0, y: 2), Point(x: 190, y: 0)]),
        ]
        var samples = ShapeSamples(name: "dash", count: 3)
        let verdict = try #require(add(lines, to: &samples).last)
        guard case .redo(_, .straight, _) = verdict else { Issue.record("\(verdict)"); return }
        #expect(samples.message(verdict).contains("is nearly a straight line, which is taken for a swipe and never a shape"))
    }

    @Test("of two unlike drawings the second is asked for again")
    func ofTwoTheSecondIsRedrawn() throws {
        var samples = ShapeSamples(name: "L", count: 2)
        let verdict = try #require(add([Self.alike[0], Self.circle], to: &samples).last)
        guard case .redo(1, .form, _) = verdict else { Issue.record("\(verdict)"); return }
        #expect(samples.message(verdict).hasPrefix("drawings 1 and 2 are unlike each other: they score "))
        #expect(samples.drawings.map(\.points) == [Self.alike[0]])
    }

    @Test("a drawing is held to the stroke_min_score of its device")
    func eachDrawingHasItsDevicesThreshold() throws {
        let similarity = ShapeSamples.similarity(of: Self.alike, tolerance: StrokeShape.defaultTolerance)
        // Asked for no more than the least alike drawing scores, all are taken; a little more, that one is asked for again.
        let lowest = similarity.lowest
        let worst = try #require(similarity.scores.firstIndex(of: lowest))
        var lenient = ShapeSamples(name: "L", count: 3)
        #expect(Self.alike.map { lenient.add($0, minimumScore: lowest) }.last == .alike(ShapeSamples.Similarity(
            scores: similarity.scores, minimumScore: lowest)))
        var strict = ShapeSamples(name: "L", count: 3)
        guard case .redo(worst, _, _) = Self.alike.map({ strict.add($0, minimumScore: lowest + 0.001) }).last else {
            Issue.record("\(similarity)"); return
        }
        // The least alike drawing drawn where the threshold is low passes; another, held to more than it scores, is redrawn.
        let other = (worst + 1) % 3
        var mixed = ShapeSamples(name: "L", count: 3)
        let thresholds = (0..<3).map { $0 == worst ? 0.5 : $0 == other ? similarity.scores[other] + 0.001 : 0.80 }
        let verdict = zip(Self.alike, thresholds).map { mixed.add($0, minimumScore: $1) }.last
        guard case .redo(other, .form, let said)? = verdict else { Issue.record("\(String(describing: verdict))"); return }
        #expect(said.minimumScore == similarity.scores[other] + 0.001)
    }

    @Test("one drawing is written as learn always wrote it, with points")
    func oneDrawingIsPoints() {
        var samples = ShapeSamples(name: "L", count: 1)
        let verdict = samples.add(Self.alike[0], minimumScore: 0.80)
        #expect(verdict == .alike(ShapeSamples.Similarity(scores: [], minimumScore: 0.80)))
        guard case .alike(let similarity) = verdict else { return }
        #expect(samples.block(similarity) == ShapeLearner.block(name: "L", points: Self.alike[0]))
    }
}
