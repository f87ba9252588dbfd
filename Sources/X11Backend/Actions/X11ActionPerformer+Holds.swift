internal import CX11
public import BridgeCore
public import GestureConfig
import Logging

extension X11ActionPerformer {
    /// Presses the key of a binding's `hold` through XTest and leaves it down, as `key` would
    /// press it: found in the current keyboard mapping (with Shift held too when the keysym sits
    /// in the shifted column), or mapped on a spare keycode that stays lent until after the
    /// release. A key already down for a hold is not pressed again.
    public func pressHeldKey(_ key: KeyCombo.Key, context: ActionContext) throws(ActionError) {
        restoreTemporaryMappings()
        // Down already (a hold of another gesture); pressed again only if something let go of it.
        if let pressed = holdKeycodes[key.keysym], pressed.allSatisfy(held.keys.contains) { return }
        do {
            try display.call("hold \(key.name)", sync: true) { (_) throws(X11Error) in
                var mapping = try currentKeyboardMapping()
                let step = try resolve(UInt(key.keysym), named: key.name, in: &mapping)
                var pressed: [KeyCode] = []
                if step.needsShift {
                    let shift = try resolve(Self.shiftKeysym, named: "Shift_L", in: &mapping).keycode
                    if !held.keys.contains(shift) {
                        try press(shift)
                        pressed.append(shift)
                    }
                }
                try press(step.keycode)
                pressed.append(step.keycode)
                holdKeycodes[key.keysym] = pressed
            }
            logger.debug("holding \(key.name)", metadata: ["device": "\(context.device)"])
        } catch {
            if let pressed = holdKeycodes.removeValue(forKey: key.keysym) { releaseKeycodes(pressed, named: key.name) }
            if case .refused(let why, _) = error { throw ActionError("hold \(key.name): \(why)") }
            throw ActionError("hold \(key.name): \(error)")
        }
    }

    /// Releases a key ``pressHeldKey(_:context:)`` pressed (and the Shift pressed with it). A
    /// key ``releaseEverything()`` already let go of is not released twice.
    public func releaseHeldKey(_ key: KeyCombo.Key) {
        guard let pressed = holdKeycodes.removeValue(forKey: key.keysym) else { return }
        releaseKeycodes(pressed, named: key.name)
    }

    /// The X modifier bits of the keys this performer holds down now (a `hold`'s Alt): the
    /// capture leaves them out of a gesture's modifiers. No round trip unless the keymap
    /// changed since the modifier map was read.
    var heldModifierMask: UInt32 {
        guard !held.keys.isEmpty, let map = try? display.currentModifierMap() else { return 0 }
        return held.keys.reduce(0) { $0 | map.mask(ofKeycode: $1.rawValue) }
    }

    /// Releases what a failed action left held, but not the keys held for a running gesture's
    /// `hold`: those stay down until the gesture ends.
    func releaseHeldExceptHolds() {
        let holding = Set(holdKeycodes.values.joined())
        let kept = held.keys.filter { holding.contains($0) }
        held.keys.removeAll { holding.contains($0) }
        releaseHeld()
        held.keys = kept + held.keys
    }

    /// Releases `keycodes` in reverse order, those still held; a keycode lent to the keysym
    /// stays lent for ``temporaryMappingHold`` from now, for the applications to read the release.
    private func releaseKeycodes(_ keycodes: [KeyCode], named name: String) {
        let down = keycodes.filter { held.keys.contains($0) }
        let now = ContinuousClock.now
        for keycode in keycodes {
            if let index = temporaryMappings.firstIndex(where: { $0.keycode == keycode }) {
                temporaryMappings[index].restoreAfter = now + temporaryMappingHold
            }
        }
        guard !down.isEmpty else { return }
        guard !display.isConnectionLost else {
            // Nothing to send them on: the daemon's watcher releases them (``HeldKeyWatch``).
            held.keys.removeAll { down.contains($0) }
            return
        }
        do {
            try display.call("release \(name)", sync: true) { (_) throws(X11Error) in
                for keycode in down.reversed() { try release(keycode) }
            }
            logger.debug("released \(name)")
        } catch {
            logger.error("could not release held \(name): \(error)")
        }
    }
}
