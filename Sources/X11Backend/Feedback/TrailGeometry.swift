public import GestureEngine

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
    /// Convex. No trigonometry per call: the half circles are a table turned by the segment's
    /// direction (a frame of a fast stroke draws hundreds of segments).
    public static func capsule(from a: Point, to b: Point, radius: Double) -> [Point] {
        var outline: [Point] = []
        outline.reserveCapacity(halfCircles.count)
        appendCapsule(from: a, to: b, radius: radius, to: &outline)
        return outline
    }

    /// ``capsule(from:to:radius:)`` appended to `outline`.
    static func appendCapsule(from a: Point, to b: Point, radius: Double, to outline: inout [Point]) {
        let d = b - a
        let length = d.length
        // Along the segment, and its left; any direction for a dot.
        let (ux, uy) = length > 1e-9 ? (d.x / length, d.y / length) : (1.0, 0.0)
        let (nx, ny) = (-uy, ux)
        for (k, (c, s)) in halfCircles.enumerated() {
            // The first half circle is around b (facing forward), the second around a.
            let centre = k <= arcSteps ? b : a
            outline.append(Point(x: centre.x + radius * (c * ux + s * nx), y: centre.y + radius * (c * uy + s * ny)))
        }
    }

    /// cos and sin of the capsule's vertex angles from its direction: −90° to 90° (around its
    /// end), then 90° to 270° (around its start), ``arcSteps`` steps each.
    private static let halfCircles: [(Double, Double)] = (0...(2 * arcSteps + 1)).map { k in
        k <= arcSteps ? turn[(3 * arcSteps / 2 + k) % turn.count] : turn[(arcSteps / 2 + k - arcSteps - 1) % turn.count]
    }

    /// cos and sin of k · 15° (π / ``arcSteps``), a whole turn. Made by turning (1, 0) by 15°
    /// again and again, whose cosine and sine are square roots: the drawing never calls `sin`
    /// or `cos`, so it never pages in libm's, among its largest functions (the trail and the
    /// OSD must cost little resident memory; docs/performance.md, «Feedback»).
    static let turn: [(Double, Double)] = {
        let c = (6.0.squareRoot() + 2.0.squareRoot()) / 4, s = (6.0.squareRoot() - 2.0.squareRoot()) / 4
        var v = (1.0, 0.0)
        var table: [(Double, Double)] = []
        for _ in 0..<(2 * arcSteps) {
            table.append(v)
            v = (v.0 * c - v.1 * s, v.0 * s + v.1 * c)
        }
        return table
    }()

    /// The outline of the rectangle at (`x`, `y`) of `width` × `height` with corners rounded by
    /// `radius` (at most half the shorter side).
    public static func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) -> [Point] {
        let r = max(0, min(radius, width / 2, height / 2))
        // Each corner a quarter turn from its first angle (−90°, 0°, 90°, 180°: entries of ``turn``).
        let quarter = arcSteps / 2
        let corners = [
            (x + width - r, y + r, 3 * quarter), (x + width - r, y + height - r, 0),
            (x + r, y + height - r, quarter), (x + r, y + r, 2 * quarter),
        ]
        var outline: [Point] = []
        for (cx, cy, start) in corners {
            for k in 0...quarter {
                let (c, s) = turn[(start + k) % turn.count]
                outline.append(Point(x: cx + r * c, y: cy + r * s))
            }
        }
        return outline
    }
}
