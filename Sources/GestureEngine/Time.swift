/// A moment on the input's own clock, in milliseconds from an arbitrary origin.
///
/// The engine never reads a clock: every event carries its `Instant`, and timers are
/// absolute deadlines compared against the next event's time (or against `advance(to:)`).
/// Live input uses X server time (32-bit milliseconds, unwrapped by the capture layer);
/// traces use whatever monotonic origin they were recorded with.
///
/// ```swift
/// let press = Instant(milliseconds: 1000)
/// let deadline = press + Interval(milliseconds: 500)
/// ```
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Milliseconds since the clock's origin.
    public var milliseconds: Double

    /// Creates an instant `milliseconds` after the clock's origin.
    @inlinable public init(milliseconds: Double) { self.milliseconds = milliseconds }

    @inlinable public static func < (a: Instant, b: Instant) -> Bool { a.milliseconds < b.milliseconds }
    @inlinable public static func + (a: Instant, b: Interval) -> Instant { Instant(milliseconds: a.milliseconds + b.milliseconds) }
    @inlinable public static func - (a: Instant, b: Instant) -> Interval { Interval(milliseconds: a.milliseconds - b.milliseconds) }

    public var description: String { "\(milliseconds) ms" }
}

/// A length of time in milliseconds.
public struct Interval: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The length in milliseconds.
    public var milliseconds: Double

    /// Creates an interval of `milliseconds`.
    @inlinable public init(milliseconds: Double) { self.milliseconds = milliseconds }

    /// The interval in seconds.
    @inlinable public var seconds: Double { milliseconds / 1000 }

    @inlinable public static func < (a: Interval, b: Interval) -> Bool { a.milliseconds < b.milliseconds }
    @inlinable public static func * (a: Interval, k: Double) -> Interval { Interval(milliseconds: a.milliseconds * k) }

    public var description: String { "\(milliseconds) ms" }
}

extension Optional where Wrapped: Comparable {
    /// The earlier of two optional deadlines: either one when the other is `nil`, `nil` when
    /// both are; on a tie, this one.
    ///
    /// ```swift
    /// let next = touchscreenDeadline.earliest(pointerDeadline).earliest(touchpadDeadline)
    /// ```
    @inlinable @inline(__always) public func earliest(_ other: Wrapped?) -> Wrapped? {
        guard let mine = self else { return other }
        guard let other else { return mine }
        return other < mine ? other : mine
    }
}
