/// The best match of a path.
public struct StrokeMatch: Hashable, Sendable {
    /// Index into the matcher's `shapes`.
    public var shape: Int
    /// How well the path matches the shape, 0 to 1: 1 is one of its templates up to position,
    /// size, speed and a small turn; 0.80 (the default `stroke_min_score`) is as far from the
    /// closest template as the shape's `tolerance`. See ``ShapeMatcher`` for the measure.
    public var score: Double
    /// The warped distance from the path to the shape's closest template, which the score is
    /// made from (0 on a template; no upper bound).
    public var distance: Double
    /// A match of `shapes[shape]` with `score`, at `distance` from it.
    public init(shape: Int, score: Double, distance: Double = 0) {
        self.shape = shape
        self.score = score
        self.distance = distance
    }
}

/// Working buffers for matching, owned by the caller (a gesture group), reserved once: matching
/// allocates nothing.
public struct StrokeScratch: Sendable {
    /// The path resampled to `StrokeFeatures.pointCount` equidistant points.
    var resampled: [Point] = []
    /// The path's features (see `StrokeFeatures`).
    var features: StrokeFeatures
    /// The templates closest by the quick measure, best first, for the warped comparison.
    var nearest: [StrokeMatcherCandidate] = []
    /// The warped distance's working rows.
    var warp: StrokeWarpRows

    /// Buffers with room for any path.
    public init() {
        resampled.reserveCapacity(StrokeFeatures.pointCount)
        features = StrokeFeatures()
        nearest.reserveCapacity(ShapeMatcher.warpedTemplates)
        warp = StrokeWarpRows()
    }
}

/// A template kept for the warped comparison: which, how alike by the quick measure, and the
/// turn that aligns the path with it.
struct StrokeMatcherCandidate: Sendable {
    var template: Int
    var similarity: Double
    var turn: StrokeTurn
}

/// Shapes prepared for matching (templates preprocessed once, at config load). Immutable while
/// matching.
///
/// Each shape has one or more templates (ways of drawing it). A path is compared with them in
/// two steps:
/// 1. **Quick measure, every template.** The path is resampled to `StrokeFeatures.pointCount`
///    points equally spaced along it (after dropping raw points closer than
///    `StrokeFeatures.minimumStep` of its reach to the last one kept, so that dense, jittery
///    events where the hand was slow do not weigh more), centred and scaled uniformly. Its
///    positions, its directions of travel and how sharply it turns at each point are compared
///    with each template's as one weighted cosine at the best turn of the path within
///    ±`StrokeTemplateSet.maximumTurnDegrees` (Protractor's closed form, Li, CHI 2010).
/// 2. **Warped distance, the closest templates.** The ``warpedTemplates`` best by the quick
///    measure are compared again, the path turned as step 1 found, by dynamic time warping
///    (`StrokeWarp`): each point may pair with a template point a little earlier or later, so
///    that a curly brace whose nub is higher, or a check whose short arm is shorter, still lines
///    up. The shape of the template with the smallest distance is the match.
///
/// The score is `1 − 0.2 × distance / tolerance` (at least 0): 1 on a template, 0.80 (the
/// default `stroke_min_score`) at the shape's ``StrokeShape/tolerance``, which for the built-in
/// shapes is measured on people's drawings (docs/performance.md, «Strokes: accuracy on people's
/// drawings»). A path about as close to the straight line between its ends scores 0
/// (``lineMargin``): a swipe is never a shape.
///
/// ```swift
/// let matcher = ShapeMatcher(shapes: StrokeShape.builtIn)
/// var scratch = StrokeScratch()      // reserved once; matching allocates nothing
/// if let match = matcher.match(path, among: [3, 10], scratch: &scratch), match.score >= 0.80 {
///     print(matcher.shapes[match.shape].name)   // "circle" or "v"
/// }
/// ```
public struct ShapeMatcher: Sendable, Hashable {
    /// The templates compared by the warped distance: the 8 closest by the quick measure. More
    /// changed no result on people's drawings (docs/performance.md); each costs about 1 µs.
    static let warpedTemplates = 8

    /// A path must be this many times farther from the straight line between its ends than
    /// from its best shape to be that shape (otherwise its score is 0): a straight or bowed
    /// swipe is never a narrow curly brace or a flat check, however loosely people draw those.
    /// Of people's drawings, none was less than 1.27 times farther from the line than from its
    /// shape; of swipes, none more than 1.004 times (docs/performance.md).
    static let lineMargin = 1.12

    /// The shapes, in the order given; `StrokeMatch.shape` indexes this array.
    public let shapes: [StrokeShape]
    /// Every shape's templates prepared, shape after shape.
    let templates: StrokeTemplateSet
    /// The shape each of `templates` belongs to.
    let templateShape: [Int]
    /// Where each shape's templates begin in `templates` (one more entry: the end).
    let firstTemplate: [Int]

    /// Prepares `shapes` for matching (the work done once, at config load). A template with
    /// fewer than 2 distinct points is left out; a shape without any is never matched.
    public init(shapes: [StrokeShape]) {
        self.shapes = shapes
        var scratch = StrokeScratch()
        var templates = StrokeTemplateSet(), owners: [Int] = [], first: [Int] = []
        for (index, shape) in shapes.enumerated() {
            first.append(templates.count)
            for points in shape.templates
            where StrokeFeatures.extract(points, resampled: &scratch.resampled, into: &scratch.features) {
                templates.append(scratch.features)
                owners.append(index)
            }
        }
        first.append(templates.count)
        self.templates = templates
        templateShape = owners
        firstTemplate = first
    }

    /// Matchers are equal when their shapes are: the prepared templates follow from them.
    public static func == (a: ShapeMatcher, b: ShapeMatcher) -> Bool { a.shapes == b.shapes }
    /// Hashes the shapes (the prepared templates follow from them).
    public func hash(into hasher: inout Hasher) { hasher.combine(shapes) }

    /// Compares `path` (raw points as drawn) with the shapes at the indices `candidates`; the
    /// best one and its score, or nil when there are no candidates or the path has fewer than 2
    /// distinct points.
    ///
    /// Indices outside `shapes` and shapes without a usable template are skipped. Ties go to
    /// the earlier candidate.
    public func match(_ path: [Point], among candidates: [Int], scratch: inout StrokeScratch) -> StrokeMatch? {
        if candidates.isEmpty { return nil }
        guard StrokeFeatures.extract(path, resampled: &scratch.resampled, into: &scratch.features) else { return nil }
        collectNearest(among: candidates, scratch: &scratch)
        var best: (shape: Int, distance: Double, rank: Int)?
        for candidate in scratch.nearest {
            let shape = templateShape[candidate.template]
            let distance = StrokeWarp.distance(
                scratch.features, turned: candidate.turn, to: templates.warp, at: candidate.template * StrokeFeatures.warpCount,
                limit: best?.distance ?? .infinity, rows: &scratch.warp)
            let rank = candidates.firstIndex(of: shape) ?? Int.max
            if let current = best,
                distance > current.distance || (distance == current.distance && rank >= current.rank)
            {
                continue
            }
            best = (shape, distance, rank)
        }
        guard let best else { return nil }
        let score = Self.score(distance: best.distance, tolerance: shapes[best.shape].tolerance)
        // A path about as close to the straight line between its ends is a swipe, not a shape.
        let line = StrokeWarp.lineDistance(scratch.features, rows: &scratch.warp)
        let isShape = line > Self.lineMargin * best.distance
        return StrokeMatch(shape: best.shape, score: isShape ? score : 0, distance: best.distance)
    }

    /// Fills `scratch.nearest` with the templates of the candidate shapes closest to the path by
    /// the quick measure, best first.
    private func collectNearest(among candidates: [Int], scratch: inout StrokeScratch) {
        scratch.nearest.removeAll(keepingCapacity: true)
        for shape in candidates where shapes.indices.contains(shape) {
            for template in firstTemplate[shape]..<firstTemplate[shape + 1] {
                let (similarity, turn) = templates.similarity(scratch.features, to: template)
                insert(StrokeMatcherCandidate(template: template, similarity: similarity, turn: turn), into: &scratch.nearest)
            }
        }
    }

    /// Inserts `candidate` in order of similarity, keeping at most ``warpedTemplates``; a shape
    /// listed twice among the candidates is kept once.
    @inline(__always)
    private func insert(_ candidate: StrokeMatcherCandidate, into nearest: inout [StrokeMatcherCandidate]) {
        if nearest.contains(where: { $0.template == candidate.template }) { return }
        if nearest.count == Self.warpedTemplates {
            guard candidate.similarity > nearest[nearest.count - 1].similarity else { return }
            nearest.removeLast()
        }
        var index = nearest.count
        while index > 0, nearest[index - 1].similarity < candidate.similarity { index -= 1 }
        nearest.insert(candidate, at: index)
    }

    /// The score of a warped distance for a shape of `tolerance`: `1 − 0.2 × distance / tolerance`,
    /// at least 0 (and 0 for a tolerance that is not positive).
    public static func score(distance: Double, tolerance: Double) -> Double {
        guard tolerance > 0, distance.isFinite else { return 0 }
        return max(0, 1 - 0.2 * distance / tolerance)
    }
}
