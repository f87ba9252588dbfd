internal import CX11
import GestureConfig
import Logging

/// The presses of a key action, resolved before the motion that fires it (``KeyArm``): the
/// keycodes ``X11ActionPerformer/typeCombo(_:liftingHeldModifiers:)`` would press, with the
/// keyboard mapping they were read from; once typed ahead, what its action releases.
struct KeyPresses: Hashable {
    let combo: KeyCombo
    let presses: [KeyCode]
    let mappingChanges: Int
}

// Keys typed ahead (docs/design.md, «The daemon», keys typed ahead): at the motion that completes
// an armed swipe, the capture has its key's presses sent before the motion goes through the
// pipeline; the key action that follows finds them down and releases them. Only a key that
// `typeCombo` would type the same way right then is typed ahead: its keysyms on the keyboard as
// last read (no keycode to lend, no round trip), nothing held or lent, no modifier of the user's
// to lift.
extension X11ActionPerformer {
    /// Whether a key's presses made now are the ones its action would make: nothing typed ahead
    /// waits for its action, and nothing is held, borrowed from the user or lent a keycode
    /// (each changes what `typeCombo` presses). Asked when the key is armed and again as it
    /// is typed.
    private var isClearToTypeAhead: Bool {
        typedAhead == nil && held.isEmpty && borrowedKeys.isEmpty && temporaryMappings.isEmpty
    }

    /// The presses of `combo` as ``typeCombo(_:liftingHeldModifiers:)`` would make them now,
    /// without modifiers held at the gesture's start; `nil` when it would do more than press
    /// keys already on the keyboard (lend a keycode, lift or skip a key). Reads the keyboard
    /// mapping when none is kept yet (one round trip, at the press that arms it).
    func presses(of combo: KeyCombo) -> KeyPresses? {
        guard isClearToTypeAhead, (try? currentKeyboardMapping()) != nil, let cached = cachedKeyboardMapping,
            cached.changes == display.keyboardMappingChanges
        else { return nil }
        var plan: [(keycode: KeyCode, needsShift: Bool)] = []
        for key in combo.keys {
            guard let found = cached.mapping.locate(UInt(key.keysym)) else { return nil }
            plan.append(found)
        }
        var shift: KeyCode? = nil
        if plan.contains(where: \.needsShift) {
            guard let found = cached.mapping.locate(Self.shiftKeysym) else { return nil }
            shift = found.keycode
        }
        let order = Self.pressOrder(plan, shift: shift, alreadyDown: [], providedByTheUser: { _ in false })
        return KeyPresses(combo: combo, presses: order, mappingChanges: cached.changes)
    }

    /// Presses `keys` and sends them at once, when they are still what the key action will
    /// press: nothing held since, and no keyboard mapping change read or queued; returns once
    /// the server has handed them on (``X11Display/pressKeys(_:noting:)`` says why it waits).
    /// Returns whether they went out. The watcher's page has them before they leave
    /// (``willPressKeys``); ``held`` takes them after (its bookkeeping was 4–6 µs before the
    /// key, cold: docs/performance.md, «Keys typed ahead of the pipeline»).
    @discardableResult
    func typeAhead(_ keys: KeyPresses) -> Bool {
        guard isClearToTypeAhead, keys.mappingChanges == display.keyboardMappingChanges, !display.keyboardMappingChangeIsQueued
        else { return false }
        let sent = display.pressKeys(keys.presses) {
            // A keycode is its byte (``KeyCode``).
            keys.presses.withUnsafeBufferPointer { presses in
                presses.withMemoryRebound(to: UInt8.self) { willPressKeys?($0) }
            }
        }
        guard sent else { return false }
        held.keys.append(contentsOf: keys.presses)
        typedAhead = keys
        logger.debug("typed \(keys.combo) ahead, at the motion that completes its swipe")
        return true
    }

    /// At a key action: when its key was typed ahead, releases it and returns true. A key typed
    /// ahead that is not this action's (which the engine's arm rules out) is released too, with
    /// an error logged, and the action types its own.
    func finishTypedAhead(_ combo: KeyCombo, liftingHeldModifiers: Bool) throws(X11Error) -> Bool {
        guard let ahead = typedAhead else { return false }
        typedAhead = nil
        for keycode in ahead.presses.reversed() { try release(keycode) }
        if ahead.combo == combo, !liftingHeldModifiers, ahead.mappingChanges == display.keyboardMappingChanges { return true }
        logger.error("typed \(ahead.combo) ahead of a gesture that then typed \(combo): released it (a bug in gesture-bridge)")
        return false
    }

    /// At the end of a turn of the loop: a key typed ahead whose action never came (which the
    /// engine's arm rules out) is released, and that is logged.
    public func releaseUnfinishedTypeAhead() {
        guard let ahead = typedAhead else { return }
        typedAhead = nil
        do {
            try display.call("release \(ahead.combo) typed ahead") { (_) throws(X11Error) in
                for keycode in ahead.presses.reversed() { try release(keycode) }
            }
        } catch {
            releaseHeldExceptHolds()
        }
        logger.error("typed \(ahead.combo) ahead of a gesture that did not fire it: released it (a bug in gesture-bridge)")
    }
}
