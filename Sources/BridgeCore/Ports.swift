public import GestureConfig
public import GestureEngine

/// Where a fired action happens: what the performer needs besides the action itself.
public struct ActionContext: Hashable, Sendable {
    /// The device the gesture came from. After a touch or touchpad gesture, `click` first
    /// moves the pointer to ``position``; after a pointer gesture it clicks where the pointer is.
    public var device: DeviceKind
    /// The gesture's centroid in root pixels at the firing phase.
    public var position: Point
    /// When the phase happened, on the input clock.
    public var time: Instant
    /// The modifier keys the user held when the gesture began: the live performer lifts what
    /// is still held around a `key` action, so that it arrives as written.
    public var modifiers: Modifiers

    public init(device: DeviceKind, position: Point, time: Instant, modifiers: Modifiers = []) {
        self.device = device
        self.position = position
        self.time = time
        self.modifiers = modifiers
    }
}

/// A failure to perform an action (the daemon logs it and carries on).
public struct ActionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The output port: performs actions. Live: XTest and EWMH. Dry-run and replay: nothing is
/// performed (the printer shows the line instead). Tests: a recording double.
public protocol ActionPerformer: AnyObject {
    /// Performs `action` for a gesture phase described by `context`.
    func perform(_ action: Action, context: ActionContext) throws(ActionError)
    /// Releases every key and button the performer may hold (called on exit and on X loss).
    func releaseEverything()
    /// Presses `key` and leaves it down: a key of a binding's `hold` (docs/config.md). The
    /// pipeline decides when (once per key, however many gestures hold it) and always
    /// releases it with ``releaseHeldKey(_:)``.
    func pressHeldKey(_ key: KeyCombo.Key, context: ActionContext) throws(ActionError)
    /// Releases a key ``pressHeldKey(_:context:)`` pressed. Failures are the performer's to
    /// log: a release is never skipped for an earlier one failing.
    func releaseHeldKey(_ key: KeyCombo.Key)
}

/// The ownership port: tells the input layer who gets a piece of input. Live: accept/reject
/// touches, keep or replay grabbed button presses and touchpad gestures. Dry-run and replay: a
/// never-claiming arbiter that does nothing (nothing was taken in the first place).
public protocol InputArbiter: AnyObject {
    /// Applies one ownership decision from the engine.
    func apply(_ decision: OwnershipDecision)
}

/// One ownership decision, as the engine makes it.
public enum OwnershipDecision: Hashable, Sendable {
    case touch(id: Int, Ownership)
    case pointer(button: Int, Ownership)
    case touchpad(Ownership)
}
