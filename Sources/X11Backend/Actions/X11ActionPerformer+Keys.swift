internal import CX11
import GestureConfig
import Logging

extension X11ActionPerformer {
    /// `Shift_L`, pressed around keysyms that sit in the shifted column.
    static let shiftKeysym: UInt = 0xffe1

    /// Presses the combination's keys in order and releases them in reverse.
    ///
    /// Every keysym is resolved (and unmapped ones mapped) before the first press, so a keysym
    /// that cannot be typed fails the action with nothing pressed. With
    /// `liftingHeldModifiers` (the gesture began with modifiers held), the modifier keys the
    /// user still holds are lifted around the keys and put back after
    /// (``withHeldModifiersLifted(keeping:_:)``), and a modifier the user holds that the combo
    /// wants is not pressed again: the application gets exactly the combo.
    func typeCombo(_ combo: KeyCombo, liftingHeldModifiers: Bool = false) throws(X11Error) {
        // Typed ahead at the motion that fired it: only its releases are left.
        if try finishTypedAhead(combo, liftingHeldModifiers: liftingHeldModifiers) { return }
        var mapping = try currentKeyboardMapping()
        var plan: [(keycode: KeyCode, needsShift: Bool)] = []
        for key in combo.keys {
            plan.append(try resolve(UInt(key.keysym), named: key.name, in: &mapping))
        }
        let shift = plan.contains(where: \.needsShift) ? try resolve(Self.shiftKeysym, named: "Shift_L", in: &mapping).keycode : nil
        guard liftingHeldModifiers else { return try press(plan, shift: shift, skipping: 0) }
        let map = try display.currentModifierMap()
        var wanted = plan.reduce(UInt32(0)) { $0 | map.mask(ofKeycode: $1.keycode.rawValue) }
        if shift != nil { wanted |= ModifierMap.shiftMask }
        try withHeldModifiersLifted(keeping: wanted) { (kept) throws(X11Error) in
            try press(plan, shift: shift, skipping: kept)
        }
    }

    /// Presses `plan`'s keys in order (Shift before a key that needs it) and releases them in
    /// reverse; a modifier key whose bits the user holds already (`skipping`) is neither pressed
    /// nor released, so the user's key is never let go under them.
    private func press(_ plan: [(keycode: KeyCode, needsShift: Bool)], shift: KeyCode?, skipping userBits: UInt32) throws(X11Error) {
        let map = userBits == 0 ? nil : try display.currentModifierMap()
        let order = Self.pressOrder(plan, shift: shift, alreadyDown: held.keys) { keycode in
            guard let map else { return false }
            let bits = map.mask(ofKeycode: keycode.rawValue)
            return bits != 0 && bits & ~userBits == 0
        }
        for keycode in order { try press(keycode) }
        // The presses go out now, the releases after: the application acts on the press, and
        // writing down the releases (and what the daemon holds after them) no longer delays
        // it (docs/performance.md, «Latency by drag shape»). The watcher's page already has
        // the keys (``held``'s observer ran at each press).
        display.flush()
        for keycode in order.reversed() { try release(keycode) }
    }

    /// The keycodes to press for `plan`, in order: Shift once, before the first key that needs
    /// it, unless it is down already; none that the user provides (a modifier the user holds).
    /// They are released in reverse.
    static func pressOrder(
        _ plan: [(keycode: KeyCode, needsShift: Bool)], shift: KeyCode?, alreadyDown: [KeyCode], providedByTheUser: (KeyCode) -> Bool
    ) -> [KeyCode] {
        var order: [KeyCode] = []
        for step in plan {
            if step.needsShift, let shift, !alreadyDown.contains(shift), !order.contains(shift), !providedByTheUser(shift) {
                order.append(shift)
            }
            if providedByTheUser(step.keycode) { continue }
            order.append(step.keycode)
        }
        return order
    }

    /// Where to type `keysym`: found in the current mapping, or mapped on a spare keycode.
    func resolve(_ keysym: UInt, named name: String, in mapping: inout KeyboardMapping) throws(X11Error) -> (keycode: KeyCode, needsShift: Bool) {
        guard keysym != KeyboardMapping.noSymbol else { throw refuse("\(name) is not an X keysym") }
        let now = ContinuousClock.now
        if let found = mapping.locate(keysym) {
            // Typing a keysym that is still lent a keycode keeps the loan alive.
            if let index = temporaryMappings.firstIndex(where: { $0.keycode == found.keycode }) {
                temporaryMappings[index].restoreAfter = now + temporaryMappingHold
            }
            return found
        }
        guard let spare = mapping.spareKeycodes().first else {
            throw refuse("\(name) is not on the keyboard and no keycode is free to map it on")
        }
        let original = Array(mapping.keysyms(of: spare))
        // Both columns, so that the key gives the keysym with or without Shift.
        var replacement = Array(repeating: KeyboardMapping.noSymbol, count: mapping.keysymsPerKeycode)
        replacement[0] = keysym
        if replacement.count > 1 { replacement[1] = keysym }
        try changeMapping(of: spare, to: replacement)
        mapping.replace(spare, with: replacement)
        temporaryMappings.append(TemporaryMapping(keycode: spare, keysym: keysym, original: original, restoreAfter: now + temporaryMappingHold))
        noteLentKeycodes()
        logger.debug("mapped \(name) on spare \(spare)")
        return (spare, false)
    }

    /// When the next temporary key mapping is due to be restored; the daemon loop's `poll()`
    /// should wake no later than this and call ``restoreTemporaryMappings(dueBy:)``.
    public var nextRestoreDeadline: ContinuousClock.Instant? {
        // Asked at every turn of the loop, almost always with nothing lent: no array for that.
        guard !temporaryMappings.isEmpty else { return nil }
        return temporaryMappings.map(\.restoreAfter).min()
    }

    /// Puts back the keycodes lent to unmapped keysyms whose hold ended by `instant` (all of
    /// them when `instant` is `nil`). Keycodes still held down are kept.
    public func restoreTemporaryMappings(dueBy instant: ContinuousClock.Instant? = .now) {
        let due = temporaryMappings.filter { mapping in
            (instant.map { mapping.restoreAfter <= $0 } ?? true) && !held.keys.contains(mapping.keycode)
        }
        guard !due.isEmpty else { return }
        temporaryMappings.removeAll { due.contains($0) }
        guard !display.isConnectionLost else { return }
        for mapping in due {
            do {
                try changeMapping(of: mapping.keycode, to: mapping.original)
                logger.debug("restored \(mapping.keycode)")
            } catch {
                logger.error("could not restore \(mapping.keycode): \(error)")
            }
        }
        noteLentKeycodes()
    }

    // MARK: - Loans that outlived a run

    /// Keeps the keycodes lent right now in a property of the root window
    /// (`_GESTURE_BRIDGE_LENT_KEYCODES`: keycode, keysym pairs), where the next run finds them
    /// should this one end without restoring them (SIGKILL, a crash).
    private func noteLentKeycodes() {
        let pairs = temporaryMappings.flatMap { [UInt($0.keycode.rawValue), $0.keysym] }
        do {
            try display.setCardinals(.lentKeycodes, of: display.root, to: pairs)
        } catch {
            logger.debug("cannot note the lent keycodes on the root window: \(error)")
        }
    }

    /// Puts back the keycodes a previous run lent and never restored (it was killed): each one
    /// still mapped to exactly what that run mapped on it becomes spare again. Called once at
    /// start, before anything is typed.
    public func restoreStaleLentKeycodes() {
        do {
            guard let value = try display.property(.lentKeycodes, of: display.root), value.format == 32, value.items.count >= 2 else { return }
            let mapping = try keyboardMapping()
            var restored: [String] = []
            for k in stride(from: 0, to: value.items.count - 1, by: 2) {
                let (code, keysym) = (value.items[k], value.items[k + 1])
                guard let raw = UInt8(exactly: code), mapping.keycodes.contains(Int(raw)) else { continue }
                let keycode = KeyCode(rawValue: raw)
                // Still only that keysym (the server copies it into the other group's columns);
                // changed since by someone else, it is theirs now.
                let now = mapping.keysyms(of: keycode)
                guard now.contains(keysym), now.allSatisfy({ $0 == keysym || $0 == KeyboardMapping.noSymbol }) else { continue }
                try changeMapping(of: keycode, to: Array(repeating: KeyboardMapping.noSymbol, count: mapping.keysymsPerKeycode))
                restored.append("\(keycode)")
            }
            try display.setCardinals(.lentKeycodes, of: display.root, to: [])
            if !restored.isEmpty {
                logger.notice("restored \(restored.joined(separator: ", ")): lent to a keysym by a previous run that ended without restoring it")
            }
        } catch {
            logger.warning("cannot check for keycodes a previous run left mapped: \(error)")
        }
    }

    // MARK: - X

    /// The server's current core keyboard mapping, read once and kept until the server says
    /// it changed (a keyboard `MappingNotify`, ours included) — no round trip before a key.
    func currentKeyboardMapping() throws(X11Error) -> KeyboardMapping {
        if let cached = cachedKeyboardMapping, cached.changes == display.keyboardMappingChanges, !display.keyboardMappingChangeIsQueued {
            return cached.mapping
        }
        let changes = display.keyboardMappingChanges
        let mapping = try keyboardMapping()
        cachedKeyboardMapping = (mapping, changes)
        return mapping
    }

    /// Reads the keyboard mapping again, between gestures, once a notification said it
    /// changed — if a key action read it before (a config without key actions never does).
    ///
    /// The server says the keyboard changed each time the master keyboard's keys come from
    /// another device than the last ones: after the user typed, the first key the bridge
    /// injects through the XTest keyboard, and on Xvfb after every injected key. Read lazily,
    /// at the next key action, the mapping cost that action a round trip (`GetKeyboardMapping`
    /// and its 2.9 kB reply) between the motion that completed the gesture and its key — in
    /// the benchmark's drags, every gesture (docs/performance.md, «Latency by drag shape»).
    func refreshChangedKeyboardMapping() {
        guard let cached = cachedKeyboardMapping, cached.changes != display.keyboardMappingChanges else { return }
        _ = try? currentKeyboardMapping()
    }

    /// The server's current core keyboard mapping (a round trip).
    func keyboardMapping() throws(X11Error) -> KeyboardMapping {
        try display.call("XGetKeyboardMapping") { (display) throws(X11Error) -> KeyboardMapping in
            var minKeycode: Int32 = 0, maxKeycode: Int32 = 0, perKeycode: Int32 = 0
            XDisplayKeycodes(display, &minKeycode, &maxKeycode)
            let count = Int(maxKeycode - minKeycode + 1)
            guard let keysyms = XGetKeyboardMapping(display, UInt8(minKeycode), Int32(count), &perKeycode) else {
                throw .failed("XGetKeyboardMapping returned nothing", display: self.display.name)
            }
            defer { XFree(keysyms) }
            let all = Array(UnsafeBufferPointer(start: keysyms, count: count * Int(perKeycode)))
            return KeyboardMapping(minKeycode: Int(minKeycode), keysymsPerKeycode: Int(perKeycode), keysyms: all)
        }
    }

    /// Replaces the keysyms of one keycode (and waits for the server, so an error is seen).
    private func changeMapping(of keycode: KeyCode, to keysyms: [UInt]) throws(X11Error) {
        cachedKeyboardMapping = nil
        try display.call("XChangeKeyboardMapping(\(keycode.rawValue))", sync: true) { display in
            var keysyms = keysyms
            XChangeKeyboardMapping(display, Int32(keycode.rawValue), Int32(keysyms.count), &keysyms, 1)
        }
    }

    /// Presses a key through XTest and writes it down as held. Part of the action's call: an
    /// X error is reported by it, under the action's name.
    func press(_ keycode: KeyCode) throws(X11Error) {
        try display.withinCall { XTestFakeKeyEvent($0, UInt32(keycode.rawValue), 1, 0) }
        held.keys.append(keycode)
    }

    /// Releases a key through XTest; part of the action's call, as ``press(_:)``.
    func release(_ keycode: KeyCode) throws(X11Error) {
        try display.withinCall { XTestFakeKeyEvent($0, UInt32(keycode.rawValue), 0, 0) }
        if let index = held.keys.lastIndex(of: keycode) { held.keys.remove(at: index) }
    }

    /// Presses the key for `keysym` and leaves it held (for tests of ``releaseEverything()``).
    func hold(keysym: UInt) throws(X11Error) {
        var mapping = try keyboardMapping()
        let keycode = try resolve(keysym, named: "keysym 0x\(String(keysym, radix: 16))", in: &mapping).keycode
        try display.call("hold keysym 0x\(String(keysym, radix: 16))") { (_) throws(X11Error) in try press(keycode) }
        display.flush()
    }
}
