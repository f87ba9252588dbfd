/// `atan2` for the engine, which uses the standard library only (no Glibc, no Foundation).
///
/// Range reduction to |x| ≤ tan(15°) and an odd Taylor series to x¹⁹: the error is below
/// 1e-12 rad, far under a pixel's worth of angle for any touch geometry.
enum Trigonometry {
    static let pi = 3.141592653589793
    static let degreesPerRadian = 180 / pi
    private static let tan15 = 0.2679491924311227  // 2 − √3
    private static let sqrt3 = 1.7320508075688772

    /// The angle of (x, y) in radians, in (−π, π], like C's `atan2(y, x)`.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let ax = abs(x), ay = abs(y)
        // atan of the smaller over the larger keeps the argument in [0, 1].
        let swap = ay > ax
        var a = atan01(swap ? ax / ay : ay / ax)
        if swap { a = pi / 2 - a }
        if x < 0 { a = pi - a }
        return y < 0 ? -a : a
    }

    /// atan(t) for t in [0, 1].
    private static func atan01(_ t: Double) -> Double {
        if t <= tan15 { return series(t) }
        // atan(t) = π/6 + atan((t√3 − 1) / (t + √3)), which maps (tan15°, 1] into |u| ≤ tan15°.
        let u = (t * sqrt3 - 1) / (t + sqrt3)
        return pi / 6 + series(u)
    }

    private static func series(_ u: Double) -> Double {
        let u2 = u * u
        var term = u, sum = u
        var n = 3.0
        while n <= 19 {
            term *= -u2
            sum += term / n
            n += 2
        }
        return sum
    }

    /// The signed angle in degrees from vector `a` to vector `b`, clockwise positive on screen
    /// (y grows down), in (−180, 180].
    static func signedDegrees(from a: Point, to b: Point) -> Double {
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        return atan2(cross, dot) * degreesPerRadian
    }
}
