/// A position or a displacement in root-window pixels (x grows right, y grows down).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// The origin, or no displacement.
    public static let zero = Point(x: 0, y: 0)

    /// Euclidean length of the point seen as a vector.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
    @inlinable public static func / (a: Point, k: Double) -> Point { Point(x: a.x / k, y: a.y / k) }

    /// Each coordinate limited to the finite range (±`Double.greatestFiniteMagnitude`), NaN as
    /// 0: what a report carries when input near 1e308 px overflowed the arithmetic.
    public var finite: Point { Point(x: x.finiteOrLimited, y: y.finiteOrLimited) }

    /// Distance to another point.
    @inlinable public func distance(to other: Point) -> Double { (self - other).length }

    public var description: String { "(\(x), \(y))" }
}

extension Double {
    /// The value when finite; an infinity as the largest finite value of its sign; NaN as 0.
    /// Reports carry finite numbers only (JSON has no others).
    var finiteOrLimited: Double {
        if isFinite { return self }
        if isNaN { return 0 }
        return self > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude
    }
}
