public import GestureEngine

/// The recognizer's accuracy on a generated set: `variants` strokes of each shape drawn by `StrokeSynth`
/// (fixed seeds, so the same numbers every run), each matched against all the shapes.
///
/// Shared by the accuracy test and `stroke-accuracy` in Benchmarks/, which prints the tables of
/// docs/performance.md.
public struct StrokeAccuracy: Sendable {
    /// The shapes, in the recognizer's order.
    public let names: [String]
    /// `best[drawn][variant]`: the best match of each stroke among all the shapes.
    public let best: [[StrokeMatch?]]
    /// Strokes per shape.
    public let variants: Int

    /// Draws `variants` strokes of each of `shapes` and matches them.
    public init(shapes: [StrokeShape] = StrokeShape.builtIn, variants: Int = 100, seed: UInt64 = 2007) {
        let recognizer = StrokeRecognizer(shapes: shapes)
        var scratch = StrokeScratch()
        let all = Array(shapes.indices)
        best = shapes.indices.map { index in
            (0..<variants).map { variant in
                recognizer.match(Self.stroke(shapes[index], index: index, variant: variant, seed: seed),
                                 among: all, scratch: &scratch)
            }
        }
        names = shapes.map(\.name)
        self.variants = variants
    }

    /// The stroke the set draws as variant `variant` of shape number `index`.
    public static func stroke(_ shape: StrokeShape, index: Int, variant: Int, seed: UInt64 = 2007) -> [Point] {
        StrokeSynth.variant(for: shape, seed: seed &+ UInt64(index * 100_003 + variant))
    }

    /// `confusion[drawn][recognized]`: how many strokes drawn as one shape matched another best.
    public var confusion: [[Int]] {
        best.map { matches in
            var row = [Int](repeating: 0, count: names.count)
            for match in matches { if let match { row[match.shape] += 1 } }
            return row
        }
    }

    /// Strokes of shape `index` that matched it best (with any score).
    public func recognized(_ index: Int) -> Int { best[index].filter { $0?.shape == index }.count }

    /// Strokes of shape `index` that matched it best with a score of at least `threshold`: what fires with
    /// `stroke_min_score = threshold`.
    public func accepted(_ index: Int, atLeast threshold: Double) -> Int {
        best[index].filter { $0?.shape == index && $0!.score >= threshold }.count
    }

    /// The fraction of all strokes that matched their own shape best.
    public var rate: Double { Double(names.indices.reduce(0) { $0 + recognized($1) }) / Double(names.count * variants) }

    /// The fraction of all strokes that matched their own shape best with a score of at least `threshold`.
    public func acceptedRate(atLeast threshold: Double) -> Double {
        Double(names.indices.reduce(0) { $0 + accepted($1, atLeast: threshold) }) / Double(names.count * variants)
    }

    /// Strokes that matched a wrong shape with a score of at least `threshold`: what would fire wrongly.
    public func wronglyAccepted(atLeast threshold: Double) -> Int {
        names.indices.reduce(0) { sum, index in
            sum + best[index].filter { $0 != nil && $0!.shape != index && $0!.score >= threshold }.count
        }
    }
}
