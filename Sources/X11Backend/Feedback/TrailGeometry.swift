public import GestureEngine
import Glibc

/// The outlines the trail and the OSD are drawn with: a line segment with round ends (a
/// capsule: drawn one after the other, they make a line with round joins, whatever the angle)
/// and a rectangle with round corners. Plain geometry, in root pixels.
///
/// ```swift
/// let outline = TrailGeometry.capsule(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0), radius: 2)
/// ```
public enum TrailGeometry {
    /// Vertices per half circle: at the widths a trail has (up to 64 px), the outline is
    /// within a tenth of a pixel of the circle.
    static let arcSteps = 12

    /// The outline of the segment `a`–`b` widened by `radius` on every side: a half circle
    /// around each end joined by the segment's two sides; a circle when `a` and `b` coincide.
    /// Convex, counter-clockwise on the screen.
    public static func capsule(from a: Point, to b: Point, radius: Double) -> [Point] {
        let d = b - a
        let length = d.length
        // Along the segment, or any direction for a dot.
        let (ux, uy) = length > 1e-9 ? (d.x / length, d.y / length) : (1.0, 0.0)
        let base = atan2Approximation(uy, ux)
        var outline: [Point] = []
        outline.reserveCapacity(2 * (arcSteps + 1))
        // Around b from its left side to its right, then around a back again.
        for k in 0...arcSteps {
            let angle = base - Double.pi / 2 + Double.pi * Double(k) / Double(arcSteps)
            outline.append(Point(x: b.x + radius * cosine(angle), y: b.y + radius * sine(angle)))
        }
        for k in 0...arcSteps {
            let angle = base + Double.pi / 2 + Double.pi * Double(k) / Double(arcSteps)
            outline.append(Point(x: a.x + radius * cosine(angle), y: a.y + radius * sine(angle)))
        }
        return outline
    }

    /// The outline of the rectangle at (`x`, `y`) of `width` × `height` with corners rounded by
    /// `radius` (at most half the shorter side).
    public static func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) -> [Point] {
        let r = max(0, min(radius, width / 2, height / 2))
        let corners = [
            (x + width - r, y + r, -Double.pi / 2), (x + width - r, y + height - r, 0.0),
            (x + r, y + height - r, Double.pi / 2), (x + r, y + r, Double.pi),
        ]
        var outline: [Point] = []
        let steps = arcSteps / 2
        for (cx, cy, start) in corners {
            for k in 0...steps {
                let angle = start + Double.pi / 2 * Double(k) / Double(steps)
                outline.append(Point(x: cx + r * cosine(angle), y: cy + r * sine(angle)))
            }
        }
        return outline
    }

    private static func sine(_ x: Double) -> Double { Glibc.sin(x) }
    private static func cosine(_ x: Double) -> Double { Glibc.cos(x) }
    private static func atan2Approximation(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
}
