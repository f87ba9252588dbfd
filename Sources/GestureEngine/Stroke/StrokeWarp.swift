/// The working rows of the warped distance, reserved once (see `StrokeWarp`).
struct StrokeWarpRows: Sendable {
    var previous: [Double]
    var current: [Double]
    /// The path's warp points turned (`StrokeFeatures.warp`'s layout).
    var turned: [SIMD4<Double>]
    /// The straight line between the path's ends, in the same layout.
    var line: [SIMD4<Double>]

    init() {
        previous = [Double](repeating: 0, count: StrokeFeatures.warpCount + 1)
        current = previous
        turned = [SIMD4<Double>](repeating: .zero, count: StrokeFeatures.warpCount)
        line = turned
    }
}

/// The warped distance between a path and a template: dynamic time warping (Sakoe & Chiba, 1978)
/// over their `StrokeFeatures.warpCount` points, each pairing costing how far apart the two
/// points are (squared) and how different their directions of travel (squared, weighted).
///
/// Unlike a cosine over points paired by their index, a point may pair with one up to ``band``
/// places earlier or later, so that where a hand drew a part faster or slower along the path
/// (the nub of a curly brace higher up, the short arm of a check shorter) costs little, while a
/// part the template does not have (a bracket's foot, a question mark's hook) still costs its
/// whole length.
enum StrokeWarp {
    /// How many points earlier or later a point may pair: 3 of 32 (a tenth of the path).
    static let band = 3
    /// The weight of a pairing's difference of direction against its difference of position
    /// (positions are scaled so that their mean square distance from the centroid is 1,
    /// directions are unit vectors): 0.5 ranked people's drawings best of 0.5, 1 and 2.
    static let directionWeight = 0.5

    /// The warped distance between `path` and the straight line between its ends (evenly
    /// spaced points along it, scaled as the path's, all travelling one way).
    static func lineDistance(_ path: StrokeFeatures, rows: inout StrokeWarpRows) -> Double {
        let n = StrokeFeatures.warpCount
        let first = path.warp[0], last = path.warp[n - 1]
        let d = Point(x: last.x - first.x, y: last.y - first.y)
        let length = d.length
        guard length > 0 else { return .infinity }
        let u = d / length
        // Evenly spaced offsets −½…½ along the line, scaled to a mean square of 1.
        let scale = (12 * Double(n - 1) / Double(n + 1)).squareRoot()
        for k in 0..<n {
            let s = (Double(k) / Double(n - 1) - 0.5) * scale
            rows.line[k] = SIMD4(s * u.x, s * u.y, u.x, u.y)
        }
        let line = rows.line
        return distance(path, turned: StrokeTurn(cos: 1, sin: 0), to: line, at: 0, rows: &rows)
    }

    /// The mean cost per point of the cheapest warping between `path`, turned by `turn`, and
    /// the template whose warp points (`StrokeFeatures.warp`'s layout) begin at
    /// `templates[offset]`; infinity as soon as it is sure to be more than `limit` (costs only
    /// add up, so once every cell of a row exceeds it, so does the end).
    static func distance(_ path: StrokeFeatures, turned turn: StrokeTurn, to templates: [SIMD4<Double>], at offset: Int,
                         limit: Double = .infinity, rows: inout StrokeWarpRows) -> Double {
        let n = StrokeFeatures.warpCount
        // Turning (x, y) by (c, s): (x·c − y·s, x·s + y·c), for the position and the direction.
        let c = SIMD4(repeating: turn.cos), s = SIMD4(turn.sin, turn.sin, turn.sin, turn.sin) * SIMD4(-1, 1, -1, 1)
        for k in 0..<n {
            let p = path.warp[k]
            rows.turned[k] = p * c + p[SIMD4<Int>(1, 0, 3, 2)] * s
        }
        let weights = SIMD4(1, 1, directionWeight, directionWeight)
        let infinity = Double.infinity
        let total = limit * Double(n)
        return templates.withUnsafeBufferPointer { all in
            let t = all.baseAddress! + offset
            return rows.turned.withUnsafeBufferPointer { p in
                rows.previous.withUnsafeMutableBufferPointer { previousRow in
                    rows.current.withUnsafeMutableBufferPointer { currentRow in
                        var previous = previousRow.baseAddress!, current = currentRow.baseAddress!
                        for j in 0...n { previous[j] = infinity }
                        previous[0] = 0
                        current[0] = infinity
                        // Wrapping index arithmetic: the indices stay within 0…n.
                        for i in 1...n {
                            let a = p[i &- 1]
                            let low = max(1, i &- band), high = min(n, i &+ band)
                            // Outside the band the table is infinite: the cells next to it.
                            current[low &- 1] = infinity
                            if high < n { current[high &+ 1] = infinity }
                            var j = low
                            var least = infinity
                            while j <= high {
                                let e = a - t[j &- 1]
                                let cost = (e * e * weights).sum()
                                // Plain comparisons: the costs are never NaN (Swift's `min` checks).
                                let up = previous[j], left = current[j &- 1], diagonal = previous[j &- 1]
                                let nearer = up < left ? up : left
                                let value = cost + (nearer < diagonal ? nearer : diagonal)
                                current[j] = value
                                least = value < least ? value : least
                                j &+= 1
                            }
                            if least > total { return infinity }
                            swap(&previous, &current)
                        }
                        return previous[n] / Double(n)
                    }
                }
            }
        }
    }
}
