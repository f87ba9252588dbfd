/// A named shape strokes are compared with: a built-in shape or a config `[[shape]]`.
///
/// A shape has one or more templates, each a way of drawing it: points in drawing order, in
/// screen coordinates (x right, y down). Direction matters (a `v` drawn backwards is not a `v`),
/// position and size do not. A stroke is as close to the shape as it is to its closest template,
/// and its score says how that distance compares with the shape's `tolerance`.
///
/// ```swift
/// let l = StrokeShape(name: "L", points: [Point(x: 0, y: 0), Point(x: 0, y: 100), Point(x: 60, y: 100)])
/// let matcher = ShapeMatcher(shapes: StrokeShape.builtIn + [l])
/// ```
public struct StrokeShape: Hashable, Sendable {
    /// The name a binding's `shape = "NAME"` refers to.
    public var name: String
    /// The ways the shape is drawn, each in order; screen coordinates (y down). Never empty.
    public var templates: [[Point]]
    /// The distance from the closest template (see ``ShapeMatcher``) at which a stroke scores
    /// 0.80, the default `stroke_min_score`: how much people's drawings of this shape vary.
    public var tolerance: Double

    /// The tolerance of a shape whose drawings were never measured (a config `[[shape]]`): the
    /// median of the built-in shapes' tolerances, so that a shape of one's own is as forgiving
    /// as a typical built-in one (docs/performance.md, «Strokes: accuracy»).
    public static let defaultTolerance = BuiltInStrokeData.defaultTolerance

    /// The first template: how the shape is shown (docs/shapes.svg).
    public var points: [Point] { templates.first ?? [] }

    /// A shape named `name` drawn one way, along `points`.
    public init(name: String, points: [Point]) {
        self.init(name: name, templates: [points])
    }

    /// A shape named `name` drawn in each of the ways `templates` (at least one), forgiving
    /// `tolerance`.
    public init(name: String, templates: [[Point]], tolerance: Double = StrokeShape.defaultTolerance) {
        precondition(!templates.isEmpty, "a shape has at least one template")
        self.name = name
        self.templates = templates
        self.tolerance = tolerance
    }

    /// The 16 shapes of Wobbrock, Wilson & Li (UIST 2007), with the documented names, in the
    /// documented order (docs/interface.md, «Strokes»): triangle, x, rectangle, circle, check,
    /// caret, zig-zag, arrow, left-square-bracket, right-square-bracket, v, delete,
    /// left-curly-brace, right-curly-brace, star, pigtail.
    ///
    /// Each has the $1 reference template first (how it is shown) and then the ways people
    /// draw it, averaged from people's drawings; `BuiltInStrokeData.swift` says where each
    /// comes from and how its tolerance was measured.
    public static let builtIn: [StrokeShape] = BuiltInStrokeData.shapes
}
