/// Classifications of movement and position, shared by every recognizer.
enum Geometry {
    /// tan(22.5°): the slope separating an axis sector from a diagonal one.
    static let tan22_5 = 0.41421356237309503

    /// The direction of a displacement: eight 45° sectors when `diagonals`, otherwise the
    /// dominant axis (ties go to the horizontal axis).
    static func direction(of v: Point, diagonals: Bool) -> Direction {
        let ax = abs(v.x), ay = abs(v.y)
        if diagonals {
            if ay <= ax * tan22_5 { return v.x < 0 ? .left : .right }
            if ax <= ay * tan22_5 { return v.y < 0 ? .up : .down }
            if v.y < 0 { return v.x < 0 ? .upLeft : .upRight }
            return v.x < 0 ? .downLeft : .downRight
        }
        if ax >= ay { return v.x < 0 ? .left : .right }
        return v.y < 0 ? .up : .down
    }

    /// The screen side a position is within `margin` of, the nearest one at a corner; `nil`
    /// without a screen size.
    static func edge(of p: Point, screen: (width: Int, height: Int)?, margin: Double) -> Edge? {
        guard let screen else { return nil }
        var best: Edge? = nil
        var bestDistance = margin
        func consider(_ edge: Edge, _ distance: Double) {
            if distance <= bestDistance && (best == nil || distance < bestDistance) {
                best = edge
                bestDistance = distance
            }
        }
        consider(.left, p.x)
        consider(.right, Double(screen.width) - p.x)
        consider(.top, p.y)
        consider(.bottom, Double(screen.height) - p.y)
        return best
    }
}
