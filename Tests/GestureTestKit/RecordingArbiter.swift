public import BridgeCore

/// An input arbiter double that records the ownership decisions it is given, in order.
///
/// ```swift
/// let arbiter = RecordingArbiter()
/// let pipeline = Pipeline(config: config, performer: nil, arbiter: arbiter) { _ in }
/// // … feed a 3-finger swipe …
/// #expect(arbiter.decisions == [.touch(id: 1, .claim), .touch(id: 2, .claim), .touch(id: 3, .claim)])
/// ```
public final class RecordingArbiter: InputArbiter {
    /// Every decision applied, in order.
    public var decisions: [OwnershipDecision] = []

    public init() {}

    public func apply(_ decision: OwnershipDecision) { decisions.append(decision) }
}
