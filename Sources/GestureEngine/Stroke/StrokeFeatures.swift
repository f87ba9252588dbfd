/// A turn of the plane: the cosine and sine of its angle.
struct StrokeTurn: Sendable {
    var cos: Double
    var sin: Double

    /// (x, y) turned by this angle.
    @inline(__always) func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        (x * cos - y * sin, x * sin + y * cos)
    }
}

/// A path reduced to what matching compares: its positions and directions of travel (for the
/// quick measure, unit vectors), how sharply it turns along its way, and the points the warped
/// distance compares.
///
/// The constants were chosen by measuring on people's drawings, leaving each person out in turn
/// (docs/performance.md, «Strokes: accuracy»).
struct StrokeFeatures: Sendable {
    /// Points the path is resampled to: 64, as in the $1 reference implementation (`NumPoints`).
    /// 32 ranked 0.4 % fewer people's drawings first (docs/performance.md).
    static let pointCount = 64
    /// Resampled points between the ends of a direction chord: 3 of 63 intervals smooths hand
    /// jitter without rounding off corners.
    static let chordSpan = 3
    static let chordCount = pointCount - chordSpan
    /// How far apart (in resampled points) the two chords are whose angle is the turn at a point.
    static let bendSpan = 3
    static let bendCount = pointCount - 2 * bendSpan
    /// x, y of the positions, then of the chords.
    static let vectorLength = 2 * (pointCount + chordCount)
    /// `vector`, then `bends`, each padded with zeros to a multiple of 8: what the quick measure
    /// compares, as `Float` (4 lanes at a time; its 7 digits are plenty for picking candidates).
    static let quickBends = (vectorLength + 7) / 8 * 8
    static let quickLength = quickBends + (bendCount + 7) / 8 * 8
    /// Points the warped distance compares (`StrokeWarp`): 32 spread evenly over the 64.
    static let warpCount = 32

    /// Raw points closer than this fraction of the path's reach (its largest distance from its
    /// first point) to the last point kept are dropped before resampling: where a hand moves
    /// slowly (corners, the ends) events are dense and their jitter would otherwise add length
    /// there and pull the resampled points towards it.
    static let minimumStep = 0.02

    /// The resampled points about their centroid (length 1 together), then the chords
    /// p[i + chordSpan] − p[i] (length 1 together), each as x, y.
    var vector: [Double]
    /// The angle (radians) between the chords before and after each point, length 1 together.
    var bends: [Double]
    /// `vector` and `bends` as the quick measure reads them (``quickLength``).
    var quick: [Float]
    /// `warpCount` points spread evenly over the resampled ones, each as x, y about their
    /// centroid (at a root-mean-square distance of 1 from it) and x, y of the unit direction of
    /// travel there (that of the chord starting there, or for the last points the last chord).
    var warp: [SIMD4<Double>]

    init() {
        vector = [Double](repeating: 0, count: Self.vectorLength)
        bends = [Double](repeating: 0, count: Self.bendCount)
        quick = [Float](repeating: 0, count: Self.quickLength)
        warp = [SIMD4<Double>](repeating: .zero, count: Self.warpCount)
    }

    /// Fills `features` from a raw path; false (and `features` unspecified) when the path has
    /// fewer than 2 distinct points or a coordinate that is not finite.
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
        // The path's reach (its largest distance from the first point) sizes the step: unlike
        // the bounding box, it does not change when the path is turned.
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

    /// Calls `body` with each segment between kept points of the path (in the scaled,
    /// translated frame): the first point, every point at least `step` from the last kept one,
    /// and the last point.
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

        let chords = 2 * pointCount
        var norm = 0.0
        for (i, point) in points.enumerated() {
            let p = point - centroid
            features.vector[2 * i] = p.x
            features.vector[2 * i + 1] = p.y
            norm += p.x * p.x + p.y * p.y
        }
        normalize(&features.vector, 0..<chords, squaredLength: norm)

        norm = 0
        for i in 0..<chordCount {
            let d = points[i + chordSpan] - points[i]
            features.vector[chords + 2 * i] = d.x
            features.vector[chords + 2 * i + 1] = d.y
            norm += d.x * d.x + d.y * d.y
        }
        normalize(&features.vector, chords..<vectorLength, squaredLength: norm)

        norm = 0
        for i in 0..<bendCount {
            let before = points[i + bendSpan] - points[i]
            let after = points[i + 2 * bendSpan] - points[i + bendSpan]
            // The angle from `before` to `after`: atan2(cross, dot).
            let angle = Trigonometry.atan2(before.x * after.y - before.y * after.x, before.x * after.x + before.y * after.y)
            features.bends[i] = angle
            norm += angle * angle
        }
        normalize(&features.bends, 0..<bendCount, squaredLength: norm)
        for i in 0..<vectorLength { features.quick[i] = Float(features.vector[i]) }
        for i in 0..<bendCount { features.quick[quickBends + i] = Float(features.bends[i]) }

        fillWarp(&features, from: points)
    }

    /// The warped distance's points: at k × 63/31 along the resampled ones (interpolated).
    private static func fillWarp(_ features: inout StrokeFeatures, from points: [Point]) {
        /// The unit direction of the chord that starts at resampled point `i` (for the last
        /// points, of the last chord).
        func direction(_ i: Int) -> Point {
            let from = min(i, pointCount - 1 - chordSpan)
            let d = points[from + chordSpan] - points[from]
            let length = d.length
            return length > 0 ? d / length : .zero
        }
        var centroid = Point.zero
        let stride = Double(pointCount - 1) / Double(warpCount - 1)
        for k in 0..<warpCount {
            let t = Double(k) * stride
            let i = min(Int(t), pointCount - 2)
            let f = t - Double(i)
            let p = points[i] + (points[i + 1] - points[i]) * f
            var d = direction(i) + (direction(i + 1) - direction(i)) * f
            let length = d.length
            d = length > 0 ? d / length : .zero
            features.warp[k] = SIMD4(p.x, p.y, d.x, d.y)
            centroid = centroid + p
        }
        centroid = centroid / Double(warpCount)
        let offset = SIMD4(centroid.x, centroid.y, 0, 0)
        var squares = 0.0
        for k in 0..<warpCount {
            features.warp[k] -= offset
            squares += features.warp[k].x * features.warp[k].x + features.warp[k].y * features.warp[k].y
        }
        // A mean square radius of 1: × √(n / Σ r²).
        guard squares > 0 else { return }
        let k = (Double(warpCount) / squares).squareRoot()
        let scale = SIMD4(k, k, 1, 1)
        for i in 0..<warpCount { features.warp[i] *= scale }
    }

    /// Scales `vector[range]` to length 1 (left as it is when it is 0).
    private static func normalize(_ vector: inout [Double], _ range: Range<Int>, squaredLength: Double) {
        guard squaredLength > 0 else { return }
        let k = 1 / squaredLength.squareRoot()
        for i in range { vector[i] *= k }
    }
}

/// Templates prepared for the quick measure, one block each in flat arrays (so that comparing a
/// path with all of them runs through memory in order), with the parts weighted.
///
/// The quick measure of a path and a template is the weighted cosine of their features at the
/// turn of the path within ±``maximumTurnDegrees`` that maximises it, found in closed form as in
/// Protractor (Li, CHI 2010): for a turn θ it is (a + c)·cos θ + b·sin θ, where a sums the
/// weighted dot products of positions and chords, b their cross products and c the dot product
/// of the bends; the maximum is at θ = atan2(b, a + c). (The bends do not change with a turn;
/// counting them as if they did keeps turns a little smaller, see `similarity`.)
struct StrokeTemplateSet: Sendable {
    /// The weights of positions, directions and bends (sum 1): directions tell a rectangle's
    /// corners from a circle's curve, bends tell them whatever the angle.
    static let positionWeight = 0.5 / 1.2
    static let chordWeight = 0.5 / 1.2
    static let bendWeight = 0.2 / 1.2
    /// The largest turn of a path, either way, that costs nothing: 15°. People draw the shapes
    /// upright; more freedom let question marks (a shape that is not built in) match
    /// `right-square-bracket` (docs/performance.md).
    static let maximumTurnDegrees = 15.0
    private static let maximumTurnTangent = 0.2679491924311227  // tan 15°
    private static let maximumTurnCos = 0.9659258262890683
    private static let maximumTurnSin = 0.25881904510252074

    /// Per template, `StrokeFeatures.quickLength` values: positions, chords and bends weighted.
    private var weighted: [Float] = []
    /// Per template, the same length: positions and chords weighted and turned by −90° (y, −x),
    /// so that the cross products are dot products with it (the bends are not read).
    private var perpendicular: [Float] = []
    /// Per template: its `StrokeFeatures.warp` (`StrokeFeatures.warpCount` points).
    private(set) var warp: [SIMD4<Double>] = []

    private(set) var count = 0

    /// Adds a template.
    mutating func append(_ features: StrokeFeatures) {
        let positions = 2 * StrokeFeatures.pointCount
        var weighted = [Float](repeating: 0, count: StrokeFeatures.quickLength), perpendicular = weighted
        for i in Swift.stride(from: 0, to: StrokeFeatures.vectorLength, by: 2) {
            let weight = i < positions ? Self.positionWeight : Self.chordWeight
            let x = weight * features.vector[i], y = weight * features.vector[i + 1]
            (weighted[i], weighted[i + 1]) = (Float(x), Float(y))
            (perpendicular[i], perpendicular[i + 1]) = (Float(y), Float(-x))
        }
        for i in 0..<StrokeFeatures.bendCount {
            weighted[StrokeFeatures.quickBends + i] = Float(Self.bendWeight * features.bends[i])
        }
        self.weighted += weighted
        self.perpendicular += perpendicular
        warp.append(contentsOf: features.warp)
        count += 1
    }

    /// The quick measure of `path` and template `index`, and the turn of the path that gives it.
    func similarity(_ path: StrokeFeatures, to index: Int) -> (Double, StrokeTurn) {
        let length = StrokeFeatures.quickLength
        // a and b: the parts a turn changes (positions and chords); c: the bends, which it does not.
        var a = 0.0, b = 0.0, c = 0.0
        let turning = StrokeFeatures.quickBends, bends = length - turning
        path.quick.withUnsafeBufferPointer { u in
            weighted.withUnsafeBufferPointer { w in
                a = Self.dot(u.baseAddress!, w.baseAddress! + index * length, turning)
                c = Self.dot(u.baseAddress! + turning, w.baseAddress! + index * length + turning, bends)
            }
            perpendicular.withUnsafeBufferPointer { p in b = Self.dot(u.baseAddress!, p.baseAddress! + index * length, turning) }
        }
        // The bends join the part that does not turn, as if they turned too: that shrinks the
        // turn a little towards none (for a path as alike as its template, by about a sixth),
        // which measured better than the exact optimum (0.2 % of people's drawings fired a wrong
        // shape instead of 0.5 %, docs/performance.md): people draw the shapes upright.
        a += c
        if a > 0, abs(b) <= a * Self.maximumTurnTangent {
            let r = (a * a + b * b).squareRoot()
            return (r, StrokeTurn(cos: a / r, sin: b / r))
        }
        // The best turn is beyond the bound (or the vectors point apart): take the bound.
        let turn = StrokeTurn(cos: Self.maximumTurnCos, sin: b < 0 ? -Self.maximumTurnSin : Self.maximumTurnSin)
        return (a * turn.cos + b * turn.sin, turn)
    }

    /// Σ u[i]·v[i] for i < count (a multiple of 8), four lanes at a time in two sums.
    private static func dot(_ u: UnsafePointer<Float>, _ v: UnsafePointer<Float>, _ count: Int) -> Double {
        let ru = UnsafeRawPointer(u), rv = UnsafeRawPointer(v)
        let lane = MemoryLayout<SIMD4<Float>>.stride
        var s0 = SIMD4<Float>.zero, s1 = SIMD4<Float>.zero
        var offset = 0
        let end = count &* MemoryLayout<Float>.stride
        while offset < end {
            s0 += ru.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self) * rv.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
            s1 += ru.loadUnaligned(fromByteOffset: offset &+ lane, as: SIMD4<Float>.self)
                * rv.loadUnaligned(fromByteOffset: offset &+ lane, as: SIMD4<Float>.self)
            offset &+= 2 &* lane
        }
        return Double((s0 + s1).sum())
    }
}
