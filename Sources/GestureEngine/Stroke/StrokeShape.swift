/// A named shape strokes are compared with: a built-in template or a config `[[shape]]`.
///
/// The points are the shape as drawn, in drawing order, in screen coordinates (x right, y down):
/// direction matters (a `v` drawn backwards is not a `v`), position and size do not.
public struct StrokeShape: Hashable, Sendable {
    /// The name a binding's `shape = "NAME"` refers to.
    public var name: String
    /// The shape as drawn, in order; screen coordinates (y down).
    public var points: [Point]

    /// A shape named `name` drawn along `points`.
    public init(name: String, points: [Point]) {
        self.name = name
        self.points = points
    }

    /// The 16 shapes of Wobbrock, Wilson & Li (UIST 2007), with the documented names, in the documented order (docs/interface.md, «Strokes»):
    /// triangle, x, rectangle, circle, check, caret, zig-zag, arrow, left-square-bracket, right-square-bracket,
    /// v, delete, left-curly-brace, right-curly-brace, star, pigtail.
    ///
    /// The point lists are those published with the $1 reference implementation (see
    /// `BuiltInStrokeData.swift` for their source and licence).
    public static let builtIn: [StrokeShape] = BuiltInStrokeData.templates.map { template in
        var points: [Point] = []
        points.reserveCapacity(template.coordinates.count / 2)
        var index = 0
        while index + 1 < template.coordinates.count {
            points.append(Point(x: template.coordinates[index], y: template.coordinates[index + 1]))
            index += 2
        }
        return StrokeShape(name: template.name, points: points)
    }
}
