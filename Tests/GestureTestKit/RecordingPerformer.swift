public import BridgeCore
public import GestureConfig

/// An action performer double that records what it was asked to do instead of doing it, and
/// can be told to fail.
///
/// ```swift
/// let performer = RecordingPerformer()
/// let pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { _ in }
/// // … feed input …
/// #expect(performer.performed.map(\.0) == [.click(button: 3)])
/// ```
public final class RecordingPerformer: ActionPerformer {
    /// Every action performed, with its context, in order.
    public var performed: [(Action, ActionContext)] = []
    /// How many times `releaseEverything()` was called.
    public var released = 0
    /// When set, `perform` throws it (and records nothing).
    public var failWith: ActionError? = nil

    public init() {}

    public func perform(_ action: Action, context: ActionContext) throws(ActionError) {
        if let failWith { throw failWith }
        performed.append((action, context))
    }

    public func releaseEverything() { released += 1 }

    /// Every held-key press and release, in order, with the keys' names: `down Alt_L`, `up Alt_L`.
    public var heldKeyEvents: [String] = []
    /// When set, `pressHeldKey` throws it (and records nothing).
    public var failHoldWith: ActionError? = nil

    public func pressHeldKey(_ key: KeyCombo.Key, context: ActionContext) throws(ActionError) {
        if let failHoldWith { throw failHoldWith }
        heldKeyEvents.append("down \(key.name)")
    }

    public func releaseHeldKey(_ key: KeyCombo.Key) { heldKeyEvents.append("up \(key.name)") }
}
