public import BridgeCore
import GestureConfig
import GestureEngine

/// The live daemon's side of ``KeyArm``: the pipeline's arm after each step goes to the
/// capture, with the presses of each armed key resolved by the performer, so that the motion
/// that completes the swipe has its key typed as the capture reads it.
///
/// Only keys the performer would type the same way at their action are armed
/// (``X11ActionPerformer/presses(of:)``), and only for a press made without modifiers (a key
/// action lifts the user's modifiers around itself first, a round trip). The presses are
/// resolved once per binding and keyboard mapping, not at every motion.
///
/// ```swift
/// let armed = ArmedKeys(capture: capture, performer: injector)
/// pipeline.keyArming = armed
/// ```
public final class ArmedKeys: KeyArming {
    private unowned let capture: X11InputCapture
    private unowned let performer: X11ActionPerformer
    /// The presses resolved for each binding (by index) and the key they were resolved for (a
    /// reload may bind another), for the mapping they were read from (``resolvedFor``).
    private var resolved: [KeyPresses?] = []
    private var resolvedFor: Int = -1

    init(capture: X11InputCapture, performer: X11ActionPerformer) {
        self.capture = capture
        self.performer = performer
        capture.typesArmedKey = { [unowned self] trigger in typeKey(of: trigger) }
    }

    public func arm(_ arm: KeyArm?) {
        guard let arm, arm.swipe.modifiers.isEmpty, performer.typedAhead == nil else {
            capture.armedKey = nil
            return
        }
        let changes = performer.display.keyboardMappingChanges
        if changes != resolvedFor || resolved.count != arm.keys.count {
            resolved = Array(repeating: nil, count: arm.keys.count)
            resolvedFor = changes
        }
        capture.armedKey = arm.swipe.keeping { trigger in
            guard let combo = arm.keys[trigger] else { return false }
            if resolved[trigger]?.combo == combo { return true }
            // Not kept when it cannot be typed ahead now: that may change (a key held, lent).
            guard let presses = performer.presses(of: combo) else { return false }
            resolved[trigger] = presses
            return true
        }
    }

    private func typeKey(of trigger: Int) {
        guard trigger < resolved.count, let presses = resolved[trigger] else { return }
        performer.typeAhead(presses)
    }
}
