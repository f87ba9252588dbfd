public import GestureConfig
public import GestureEngine

/// A key the live daemon may type at the motion that completes a pointer swipe, before that
/// motion goes through the pipeline: the engine's word on what the motion fires (``SwipeArm``),
/// kept to the triggers whose binding begins with a `key` action, and that key.
///
/// The path from a motion to its key through the capture's conversion, the pipeline, the
/// engine's groups and the performer touches thousands of cache lines, cold after the pause
/// between two steps of a drag; the synchronous floor touches a few hundred
/// (docs/performance.md, «Keys typed ahead of the pipeline»). With an arm, the capture checks the motion
/// against it as it reads it and has the key typed at once; the pipeline then handles the
/// motion as ever, the engine fires the same binding, and the performer finds that key
/// already down and only lets it go. Nothing else changes: the claim, the log line, the
/// feedback and the binding's later actions follow as they did.
///
/// Armed only when the pipeline would perform the key exactly as the binding says: a
/// performer (not `--dry-run` or `replay`), no screen lock, no `hold` key down (which a key
/// action leaves out), and a binding without `hold`.
public struct KeyArm: Sendable {
    /// What the next motion of the press fires, among the armed triggers.
    public let swipe: SwipeArm
    /// The first key of each binding, by trigger (binding) index; `nil` where a binding begins
    /// otherwise.
    public let keys: [KeyCombo?]
}

/// Where the pipeline leaves the arm of the next motion (live: the X11 capture, which types
/// the key through the performer). Told after every event and every passing of time, since
/// an arm holds only until the engine's next step; `nil`: nothing is armed.
public protocol KeyArming: AnyObject {
    func arm(_ arm: KeyArm?)
}

extension Binding {
    /// The key its first action types, when a key is the first thing it does and it holds
    /// none (``KeyArm``).
    var armableKey: KeyCombo? {
        guard hold == nil, case .key(let combo)? = actions.first else { return nil }
        return combo
    }
}
