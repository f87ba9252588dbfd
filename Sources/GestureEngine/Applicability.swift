// The one rule for which triggers apply where: to a device, while an application is focused,
// to a gesture group with a given finger count, starting edge, starting monitor, modifiers and
// (pointer) button; and which presses start a pointer gesture. The engine, the explanation of a
// phase, the capture's grab needs and the config checks all ask here.

/// The focused application as bindings match it: WM_CLASS instance and class, as the focus
/// event gave them; a binding's `app` matches either, ignoring case.
///
/// ```swift
/// FocusedApp(name: "navigator", className: "Firefox").matches("firefox")   // true
/// ```
public struct FocusedApp: Hashable, Sendable {
    /// The WM_CLASS instance (or whatever name the focus event gave), `nil` when unknown.
    public var name: String?
    /// The WM_CLASS class, `nil` when unknown.
    public var className: String?

    /// Creates a focused application; both `nil` means none is known.
    public init(name: String? = nil, className: String? = nil) {
        self.name = name
        self.className = className
    }

    /// Whether a binding's (lowercased) `app` names this application: its instance or its
    /// class, ignoring case.
    public func matches(_ wanted: String) -> Bool {
        Self.equalIgnoringCase(lowercased: wanted, name) || Self.equalIgnoringCase(lowercased: wanted, className)
    }

    /// Compares without building a lowercased copy, which would allocate for names longer than
    /// 15 bytes on every focus change; only names outside ASCII take the slow path.
    static func equalIgnoringCase(lowercased wanted: String, _ candidate: String?) -> Bool {
        guard let candidate else { return false }
        var a = wanted.utf8.makeIterator(), b = candidate.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x >= 0x80 || y >= 0x80 { return wanted == candidate.lowercased() }
                let ly = (y >= 0x41 && y <= 0x5A) ? y + 0x20 : y
                if x != ly { return false }
            default: return false
            }
        }
    }
}

extension Trigger {
    /// Whether this trigger can fire for input from `device`, whatever application is
    /// focused: the device can make its gesture with that many fingers (a pointer gesture has
    /// one) and the trigger names no other device.
    public func applies(to device: DeviceKind) -> Bool {
        guard device.canMake(gesture) else { return false }
        if let most = device.descriptor.mostFingers, fingers > most { return false }
        if let wanted = self.device, wanted != device { return false }
        return true
    }

    /// Whether this trigger can fire for input from `device` while `app` is focused, with any
    /// number of fingers and from anywhere on the screen; with `modifiers` held when given.
    public func applies(to device: DeviceKind, app: FocusedApp, modifiers: Modifiers? = nil) -> Bool {
        guard applies(to: device) else { return false }
        if let wanted = self.app, !app.matches(wanted) { return false }
        if let wanted = self.modifiers, let modifiers, wanted != modifiers { return false }
        return true
    }

    /// The mouse button whose press starts this trigger's pointer gestures: its own `button`,
    /// else `defaultButton` (`[pointer] button`); 0: none does.
    @inlinable public func pointerButton(default defaultButton: Int) -> Int {
        button ?? defaultButton
    }

    /// Whether this trigger applies to a gesture from `device` with `fingers` fingers, started
    /// at `edge` (`nil`: away from every edge) on the monitor named `monitor` (`nil`: the
    /// screen is not known, and no `monitor` binding matches) with `modifiers` held, while `app`
    /// is focused: everything but what only the gesture itself decides (direction, taps,
    /// phase). A pointer gesture is also started by a press of `button`, which must be the
    /// trigger's (``pointerButton(default:)`` with `defaultButton`, `[pointer] button`).
    public func applies(
        to device: DeviceKind, app: FocusedApp, fingers: Int, edge: Edge?, monitor: String?, modifiers: Modifiers,
        button: Int = 0, defaultButton: Int = 0
    ) -> Bool {
        guard self.fingers == fingers, applies(to: device, app: app, modifiers: modifiers) else { return false }
        if let wanted = self.edge, wanted != edge { return false }
        if let wanted = self.monitor, wanted != monitor { return false }
        if device == .pointer, pointerButton(default: defaultButton) != button { return false }
        return true
    }
}

/// Which presses of which mouse buttons start a pointer gesture: a press of a button that some
/// trigger able to fire for the pointer starts (its own `button`, or `[pointer] button`), with
/// exactly the modifiers such a trigger names — or with any, when one of them names none.
///
/// The one answer for the engine (a press that starts nothing is no gesture, as before) and for
/// the live capture, which grabs exactly these presses: a button whose triggers all name
/// modifiers is grabbed only with those, so a plain press of it is never taken and never waits.
/// Applications do not count (the grab is the same whichever window is focused): a press that
/// starts a gesture no trigger of the focused application wants is given back at once.
///
/// ```swift
/// let presses = PointerPresses(triggers: [Trigger(gesture: .swipe, device: .pointer, modifiers: .super, button: 1)], defaultButton: 3)
/// presses.starts(button: 1, modifiers: .super)   // true
/// presses.starts(button: 1, modifiers: [])       // false: a plain left click is no gesture
/// presses.starts(button: 3, modifiers: [])       // false: no trigger uses the right button
/// ```
public struct PointerPresses: Hashable, Sendable {
    /// One button that starts gestures, and with which modifiers.
    public struct Button: Hashable, Sendable {
        /// The X button number.
        public var button: Int
        /// Bit `n` set: a press with the modifiers whose raw value is `n` starts a gesture.
        @usableFromInline var sets: UInt16

        /// Whether a press with any modifiers starts a gesture (a trigger names none).
        public var anyModifiers: Bool { sets == UInt16.max }

        /// The modifier sets a press needs, in raw-value order; every set when ``anyModifiers``.
        public var modifierSets: [Modifiers] {
            (0..<Modifiers.combinations).filter { sets & (1 << $0) != 0 }.map { Modifiers(rawValue: UInt8($0)) }
        }
    }

    /// The buttons that start gestures, in button order.
    public private(set) var buttons: [Button] = []

    /// No press starts a pointer gesture.
    public init() {}

    /// The presses `triggers` start, a trigger without a `button` taking `defaultButton`.
    public init(triggers: [Trigger], defaultButton: Int) {
        for trigger in triggers where trigger.applies(to: .pointer) {
            let button = trigger.pointerButton(default: defaultButton)
            guard button != 0 else { continue }
            let sets = trigger.modifiers.map { UInt16(1) << $0.rawValue } ?? UInt16.max
            if let i = buttons.firstIndex(where: { $0.button == button }) {
                buttons[i].sets |= sets
            } else {
                buttons.append(Button(button: button, sets: sets))
            }
        }
        buttons.sort { $0.button < $1.button }
    }

    /// Whether a press of `button` with `modifiers` held starts a pointer gesture.
    @inlinable public func starts(button: Int, modifiers: Modifiers) -> Bool {
        for b in buttons where b.button == button { return b.sets & (1 << modifiers.rawValue) != 0 }
        return false
    }

    /// Whether no press starts a pointer gesture.
    public var isEmpty: Bool { buttons.isEmpty }
}
