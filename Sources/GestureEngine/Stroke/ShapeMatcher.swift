/// The best match of a path.
public struct StrokeMatch: Hashable, Sendable {
    /// Index into the recognizer's `shapes`.
    public var shape: Int
    /// How alike the path and the shape are, 0 to 1 (1 is identical up to position, size, speed and a
    /// rotation within 45°). See `ShapeMatcher` for what the number means.
    public var score: Double

    /// A match of `shapes[shape]` with `score`.
    public init(shape: Int, score: Double) {
        self.shape = shape
        self.score = score
    }
}

/// Working buffers for matching, owned by the caller (a gesture group), reserved once: matching allocates
/// nothing.
public struct StrokeScratch: Sendable {
    /// The path resampled to `StrokeFeatures.pointCount` equidistant points.
    var resampled: [Point] = []
    /// The path's feature vector (see `StrokeFeatures`).
    var features: StrokeFeatures

    /// Buffers with room for any path.
    public init() {
        resampled.reserveCapacity(StrokeFeatures.pointCount)
        features = StrokeFeatures()
    }
}

/// Shapes prepared for matching (templates preprocessed once, at config load). Immutable while matching.
///
/// The method is Protractor's (Li, CHI 2010) on a $1-style normalisation (Wobbrock, Wilson & Li, UIST 2007),
/// with a direction term added:
/// 1. the path is resampled to `StrokeFeatures.pointCount` (64) points equally spaced along it, which
///    removes drawing speed and the event rate (raw points closer than `StrokeFeatures.minimumStep` of
///    the path's reach to the last one kept are dropped first, so that dense jittery events where the
///    hand was slow do not weigh more);
/// 2. it is translated so that its centroid is the origin and scaled *uniformly* (one factor for x and y,
///    as Protractor does) so that its point vector has length 1 — a straight line stays a line instead of
///    being stretched into a square, as $1's non-uniform scaling would do;
/// 3. beside the positions, the directions of travel: chords between resampled points
///    `StrokeFeatures.chordSpan` apart, as one more unit vector;
/// 4. the similarity of path and shape is the weighted sum of the two cosines (positions and directions)
///    at the rotation that maximises it, found in closed form as in Protractor and limited to ±45°.
///
/// The score is that cosine `c` (−1…1) turned into an angle and scaled: `1 − acos(c) / 90°`, below 0 as 0.
/// 1 is the same shape; 0.8 means the feature vectors are 18° apart.
public struct ShapeMatcher: Sendable, Hashable {
    /// The shapes, in the order given; `StrokeMatch.shape` indexes this array.
    public let shapes: [StrokeShape]
    /// The shapes' feature vectors, same order; nil for a shape with fewer than 2 distinct points.
    let templates: [StrokeFeatures?]

    /// Prepares `shapes` for matching (the work done once, at config load).
    public init(shapes: [StrokeShape]) {
        self.shapes = shapes
        var scratch = StrokeScratch()
        templates = shapes.map { shape in
            StrokeFeatures.extract(shape.points, resampled: &scratch.resampled, into: &scratch.features)
                ? scratch.features : nil
        }
    }

    /// Recognizers are equal when their shapes are: the prepared templates follow from them.
    public static func == (a: ShapeMatcher, b: ShapeMatcher) -> Bool { a.shapes == b.shapes }
    /// Hashes the shapes (the prepared templates follow from them).
    public func hash(into hasher: inout Hasher) { hasher.combine(shapes) }

    /// Compares `path` (raw points as drawn) with the shapes at the indices `candidates`; the best one and its
    /// score, or nil when there are no candidates or the path has fewer than 2 distinct points.
    ///
    /// Indices outside `shapes` and shapes with fewer than 2 distinct points are skipped. Ties go to the
    /// earlier candidate.
    public func match(_ path: [Point], among candidates: [Int], scratch: inout StrokeScratch) -> StrokeMatch? {
        if candidates.isEmpty { return nil }
        guard StrokeFeatures.extract(path, resampled: &scratch.resampled, into: &scratch.features) else { return nil }
        var best: StrokeMatch?
        for index in candidates where templates.indices.contains(index) {
            guard let template = templates[index] else { continue }
            let score = StrokeFeatures.score(cosine: scratch.features.similarity(to: template))
            if best == nil || score > best!.score { best = StrokeMatch(shape: index, score: score) }
        }
        return best
    }
}

/// A path reduced to what matching compares: positions and directions of travel, each a unit vector.
struct StrokeFeatures: Sendable {
    /// Points the path is resampled to: 64, as in the $1 reference implementation (`NumPoints`); 32
    /// measured about as well (docs/performance.md) but leaves a star's points 2 samples apart.
    static let pointCount = 64
    /// Resampled points between the ends of a direction chord: 6 of 63 intervals (a tenth of the path)
    /// smooths hand jitter without rounding off corners (chosen by measuring, docs/performance.md).
    static let chordSpan = 6
    static let chordCount = pointCount - chordSpan
    /// The weight of positions against directions in the similarity (half each: measured best together
    /// with the chord span and the minimum step, docs/performance.md).
    static let positionWeight = 0.5

    /// x0, y0, x1, y1… of the resampled points about their centroid, length 1.
    var positions: [Double]
    /// x, y of each chord p[i + span] − p[i], length 1 overall.
    var chords: [Double]

    init() {
        positions = [Double](repeating: 0, count: 2 * Self.pointCount)
        chords = [Double](repeating: 0, count: 2 * Self.chordCount)
    }

    /// Raw points closer than this fraction of the path's reach (its largest distance from its first point)
    /// to the last point kept are dropped before resampling: where a hand moves slowly (corners, the ends)
    /// events are dense and their jitter would otherwise add length there and pull the resampled points
    /// towards it.
    static let minimumStep = 0.04

    /// Fills `features` from a raw path; false (and `features` unspecified) when the path has fewer than 2
    /// distinct points or a coordinate that is not finite.
    static func extract(_ path: [Point], resampled: inout [Point], into features: inout StrokeFeatures) -> Bool {
        guard let first = path.first else { return false }
        // Scale by the largest coordinate first, so that lengths of paths near ±1e308 cannot overflow.
        var largest = 0.0
        for point in path {
            guard point.x.isFinite, point.y.isFinite else { return false }
            largest = max(largest, abs(point.x), abs(point.y))
        }
        guard largest > 0 else { return false }
        let unit = 1 / largest
        let origin = first * unit
        // The path's reach (its largest distance from the first point) sizes the step: unlike the bounding
        // box, it does not change when the path is turned.
        var reach = 0.0
        for point in path { reach = max(reach, (point * unit - origin).length) }
        guard reach > 0 else { return false }
        let step = minimumStep * reach

        var length = 0.0
        forEachKept(path, unit: unit, origin: origin, step: step) { a, b in length += a.distance(to: b) }
        guard length > 0, length.isFinite else { return false }

        resample(path, unit: unit, origin: origin, step: step, length: length, into: &resampled)
        fill(&features, from: resampled)
        return true
    }

    /// Calls `body` with each segment between kept points of the path (in the scaled, translated frame):
    /// the first point, every point at least `step` from the last kept one, and the last point.
    @inline(__always)
    private static func forEachKept(_ path: [Point], unit: Double, origin: Point, step: Double,
                                    _ body: (Point, Point) -> Void) {
        var kept = Point.zero
        let last = path.count - 1
        for index in path.indices.dropFirst() {
            let q = path[index] * unit - origin
            let gap = q.distance(to: kept)
            if gap >= step || (index == last && gap > 0) {
                body(kept, q)
                kept = q
            }
        }
    }

    /// `pointCount` points equally spaced along the kept path (in the scaled, translated frame).
    private static func resample(_ path: [Point], unit: Double, origin: Point, step: Double, length: Double,
                                 into out: inout [Point]) {
        out.removeAll(keepingCapacity: true)
        let interval = length / Double(pointCount - 1)
        var carried = 0.0  // distance walked since the last output point
        var end = Point.zero
        out.append(end)
        forEachKept(path, unit: unit, origin: origin, step: step) { start, b in
            var a = start
            var segment = a.distance(to: b)
            while carried + segment >= interval, out.count < pointCount - 1, segment > 0 {
                let t = (interval - carried) / segment
                a = a + (b - a) * t
                out.append(a)
                segment = a.distance(to: b)
                carried = 0
            }
            carried += segment
            end = b
        }
        // Rounding can leave the last point (the path's end) out, or more; the end closes the path.
        while out.count < pointCount { out.append(end) }
    }

    private static func fill(_ features: inout StrokeFeatures, from points: [Point]) {
        var centroid = Point.zero
        for point in points { centroid = centroid + point }
        centroid = centroid / Double(points.count)

        var norm = 0.0
        for (i, point) in points.enumerated() {
            let p = point - centroid
            features.positions[2 * i] = p.x
            features.positions[2 * i + 1] = p.y
            norm += p.x * p.x + p.y * p.y
        }
        normalize(&features.positions, squaredLength: norm)

        norm = 0
        for i in 0..<chordCount {
            let d = points[i + chordSpan] - points[i]
            features.chords[2 * i] = d.x
            features.chords[2 * i + 1] = d.y
            norm += d.x * d.x + d.y * d.y
        }
        normalize(&features.chords, squaredLength: norm)
    }

    private static func normalize(_ vector: inout [Double], squaredLength: Double) {
        guard squaredLength > 0 else { return }
        let k = 1 / squaredLength.squareRoot()
        for i in vector.indices { vector[i] *= k }
    }

    /// The weighted cosine of the two feature vectors at the rotation of `self` within ±45° that maximises it.
    func similarity(to other: StrokeFeatures) -> Double {
        // For a rotation θ the cosine is a·cos θ + b·sin θ (Protractor): its maximum is at θ = atan2(b, a).
        var a = 0.0, b = 0.0
        Self.accumulate(positions, other.positions, weight: Self.positionWeight, a: &a, b: &b)
        Self.accumulate(chords, other.chords, weight: 1 - Self.positionWeight, a: &a, b: &b)
        if abs(b) <= a { return (a * a + b * b).squareRoot() }
        // The best rotation is beyond ±45°: take the bound, cos = sin = √½.
        return (a + abs(b)) * 0.7071067811865476
    }

    private static func accumulate(_ u: [Double], _ v: [Double], weight: Double, a: inout Double, b: inout Double) {
        var dot = 0.0, cross = 0.0
        var i = 0
        while i < u.count {
            dot += u[i] * v[i] + u[i + 1] * v[i + 1]
            cross += u[i] * v[i + 1] - u[i + 1] * v[i]
            i += 2
        }
        a += weight * dot
        b += weight * cross
    }

    /// The score of a cosine: `1 − acos(c) / 90°`, at least 0.
    static func score(cosine: Double) -> Double {
        let c = min(1, cosine)
        if c <= 0 { return 0 }
        let angle = Trigonometry.atan2((1 - c * c).squareRoot(), c)
        return max(0, 1 - angle / (Trigonometry.pi / 2))
    }
}
