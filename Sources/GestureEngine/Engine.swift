/// The recognizer engine: input events in, gesture phases and ownership decisions out.
///
/// A value type with no clock, no timers and no I/O. Feed it events in time order with
/// ``handle(_:emit:)``; when no event comes, call ``advance(to:emit:)`` at ``nextDeadline`` so
/// timer-driven phases (long press, a single tap that waited for a double tap) happen at their
/// own deadline. The same engine serves the live daemon and `replay`.
///
/// ```swift
/// var engine = Engine(EngineConfiguration(triggers: [Trigger(gesture: .swipe, fingers: 3, direction: .left)]))
/// engine.handle(InputEvent(time: Instant(milliseconds: 0), .touchBegin(id: 1, at: Point(x: 500, y: 300)))) { out in
///     print(out)
/// }
/// ```
public struct Engine: Sendable {
    /// The configuration in force.
    public private(set) var configuration: EngineConfiguration

    /// Creates an engine for a configuration.
    public init(_ configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    /// The earliest instant at which a timer-driven phase may happen, if any.
    public var nextDeadline: Instant? { nil }

    /// Processes one event. Timers due before the event's time fire first.
    public mutating func handle(_ event: InputEvent, emit: (EngineOutput) -> Void) {}

    /// Lets time run on to `instant`, firing every timer due at or before it.
    public mutating func advance(to instant: Instant, emit: (EngineOutput) -> Void) {}
}
