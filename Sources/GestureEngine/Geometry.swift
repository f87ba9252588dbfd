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

    /// The side of `monitor` a position is within `margin` of, the nearest one at a corner.
    /// A position off the monitor (the nearest one) counts as at the side it is beyond.
    static func edge(of p: Point, on monitor: Monitor, margin: Double) -> Edge? {
        var best: Edge? = nil
        var bestDistance = margin
        func consider(_ edge: Edge, _ distance: Double) {
            if distance <= bestDistance && (best == nil || distance < bestDistance) {
                best = edge
                bestDistance = distance
            }
        }
        consider(.left, p.x - Double(monitor.x))
        consider(.right, Double(monitor.x + monitor.width) - p.x)
        consider(.top, p.y - Double(monitor.y))
        consider(.bottom, Double(monitor.y + monitor.height) - p.y)
        return best
    }
}
