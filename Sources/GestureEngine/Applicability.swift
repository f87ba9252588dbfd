// The one rule for which triggers apply where: to a device, while an application is focused,
// to a gesture group with a given finger count, starting edge and starting monitor. The engine, the explanation
// of a phase, the capture's grab needs and the config checks all ask here.

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
    /// number of fingers and from anywhere on the screen.
    public func applies(to device: DeviceKind, app: FocusedApp) -> Bool {
        guard applies(to: device) else { return false }
        if let wanted = self.app, !app.matches(wanted) { return false }
        return true
    }

    /// Whether this trigger applies to a gesture from `device` with `fingers` fingers, started
    /// at `edge` (`nil`: away from every edge) on the monitor named `monitor` (`nil`: the
    /// screen is not known, and no `monitor` binding matches), while `app` is focused:
    /// everything but what only the gesture itself decides (direction, taps, phase).
    public func applies(to device: DeviceKind, app: FocusedApp, fingers: Int, edge: Edge?, monitor: String?) -> Bool {
        guard self.fingers == fingers, applies(to: device, app: app) else { return false }
        if let wanted = self.edge, wanted != edge { return false }
        if let wanted = self.monitor, wanted != monitor { return false }
        return true
    }
}
