public import GestureConfig
public import GestureEngine

/// Which bindings can fire with the devices a display has, and which never can.
///
/// A binding can fire from the devices its trigger applies to (``Trigger/applies(to:)``: the
/// device can make the gesture with its fingers — a pointer one — and the binding names no
/// other device). Of those, a touchscreen counts when the display has one, a touchpad when it has
/// one and the server speaks XInput 2.4 (touchpad gestures), the pointer when a button starts
/// the binding's gestures (its own `button`, or `[pointer] button` when that is not 0). A
/// binding none of whose devices counts can never fire here.
///
/// ```swift
/// let reach = BindingReach(config: config, devices: try display.listDevices(), xinput: display.xinputVersion)
/// reach.stranded   // e.g. the 3-finger swipes on a desktop with only a mouse
/// ```
public struct BindingReach: Sendable {
    /// The config's bindings.
    public var bindings: [Binding]
    /// The touchscreens (devices with the touchscreen role).
    public var touchscreens: [InputDevice]
    /// The touchpads (devices with the touchpad role).
    public var touchpads: [InputDevice]
    /// The XInput version the server speaks.
    public var xinput: XInputVersion
    /// The device kinds whose gestures can reach the engine here (the pointer's: those of
    /// bindings a button starts, ``usable(for:)``).
    public var usable: Set<DeviceKind>
    /// `[pointer] button`: what starts the pointer bindings that name no button.
    public var pointerButton: Int

    public init(config: Config, devices: [InputDevice], xinput: XInputVersion) {
        bindings = config.bindings
        touchscreens = devices.filter { $0.role == .touchscreen }
        touchpads = devices.filter { $0.role == .touchpad }
        self.xinput = xinput
        var usable: Set<DeviceKind> = []
        if !touchscreens.isEmpty { usable.insert(.touchscreen) }
        if !touchpads.isEmpty, xinput >= .gestures { usable.insert(.touchpad) }
        usable.insert(.pointer)
        self.usable = usable
        pointerButton = config.pointerButton
    }

    /// The device kinds whose gestures can reach `binding` here: the pointer only when a button
    /// starts its gestures.
    public func usable(for binding: Binding) -> Set<DeviceKind> {
        binding.trigger.pointerButton(default: pointerButton) != 0 ? usable : usable.subtracting([.pointer])
    }

    /// The kinds of device `binding` can fire from, wherever they are present.
    public static func devices(for binding: Binding) -> [DeviceKind] {
        DeviceKind.allCases.filter(binding.trigger.applies(to:))
    }

    /// The bindings that can never fire here, in config order.
    public var stranded: [Binding] {
        bindings.filter { binding in Self.devices(for: binding).allSatisfy { !usable(for: binding).contains($0) } }
    }

    /// The stranded bindings that `kind` would make fire.
    public func stranded(wanting kind: DeviceKind) -> [Binding] {
        stranded.filter { Self.devices(for: $0).contains(kind) }
    }

    /// `touchscreen`: the display's touchscreens, or the bindings that cannot fire without one.
    public var touchscreenCheck: DoctorCheck {
        if !touchscreens.isEmpty {
            return DoctorCheck("touchscreen", .ok, touchscreens.map(Self.name).joined(separator: ", "))
        }
        let affected = stranded(wanting: .touchscreen)
        if affected.isEmpty { return DoctorCheck("touchscreen", .ok, "none on this display; no binding needs one") }
        return DoctorCheck(
            "touchscreen", .warn, "none on this display: \(Self.count(affected)) that only a touchscreen\(Self.alternative(affected, .touchpad)) can make cannot fire",
            advice: "nothing to do if you have no touchscreen (those bindings do no harm); a touchscreen shows in `xinput list` once X has it",
            details: affected.map(Self.describe))
    }

    /// `touchpad`: the display's touchpads, or the bindings that cannot fire without one (or
    /// without XInput 2.4). A binding the touchscreen check names already (a 3-finger swipe
    /// either could make, on a desktop with neither) is counted, not named again.
    public var touchpadCheck: DoctorCheck {
        let affected = stranded(wanting: .touchpad)
        let named = touchscreens.isEmpty ? Set(stranded(wanting: .touchscreen).map(\.source)) : []
        let details = affected.filter { !named.contains($0.source) }.map(Self.describe)
        let already = affected.count - details.count
        let above = already == 0 ? "" : already == affected.count ? " (named under touchscreen)" : " (\(already) of them named under touchscreen)"
        if !touchpads.isEmpty {
            let names = touchpads.map(Self.name).joined(separator: ", ")
            if xinput >= .gestures || affected.isEmpty { return DoctorCheck("touchpad", .ok, names) }
            return DoctorCheck(
                "touchpad", .warn, "\(names), but touchpad gestures need XInput 2.4 (the server speaks \(xinput)): \(Self.count(affected)) cannot fire\(above)",
                advice: "update the X server (xorg-server 21.1 or newer)", details: details)
        }
        if affected.isEmpty { return DoctorCheck("touchpad", .ok, "none on this display; no binding needs one") }
        return DoctorCheck(
            "touchpad", .warn, "none on this display: \(Self.count(affected)) that only a touchpad\(Self.alternative(affected, .touchscreen)) can make cannot fire\(above)",
            advice: "nothing to do if you have no touchpad; a touchpad shows in `xinput list` once X has it (xf86-input-libinput drives it)",
            details: details)
    }

    /// ` (or a touchscreen)` when some of `bindings` could also come from `other`.
    private static func alternative(_ bindings: [Binding], _ other: DeviceKind) -> String {
        bindings.contains { devices(for: $0).contains(other) } ? " (or a \(other.rawValue))" : ""
    }

    private static func count(_ bindings: [Binding]) -> String {
        bindings.count == 1 ? "1 binding" : "\(bindings.count) bindings"
    }

    private static func name(_ device: InputDevice) -> String {
        "\(device.name) (id \(device.id), \(device.reason))"
    }

    /// A binding for a person, as the daemon's start-up warnings name it:
    /// `swipe left with 3 fingers → workspace next (config.toml:12:1)`.
    public static func describe(_ binding: Binding) -> String { StartupWarnings.describe(binding) }
}
