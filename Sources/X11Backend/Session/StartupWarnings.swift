public import GestureConfig
public import GestureEngine

/// What the daemon warns about once at start: bindings that can never fire in this session,
/// each named, with the reason.
///
/// A binding can come from the devices it names (or every device, without `device`) that can
/// make its gesture: a pointer makes only 1-finger long presses, swipes and pans, a touchpad no
/// taps or long presses. It can never fire when every one of those is missing: no touchscreen
/// on the display, no touchpad, touchpad gestures unavailable (XInput below 2.4), or pointer
/// gestures off (`[pointer] button = 0`). They are named on one line, whatever stops each: a
/// desktop with only a mouse is told once that it has no touchscreen and no touchpad. A Wayland
/// session gets a warning of its own: X clients (gesture-bridge among them, through XWayland)
/// see no input of native Wayland apps.
///
/// ```text
/// no touchscreen and no touchpad on display :0: 5 bindings can never fire: swipe left with 3 fingers → workspace next (<default config>:43:1); …
/// ```
public enum StartupWarnings {
    /// What the session offers, as the daemon finds it at start.
    public struct Session: Sendable {
        /// The display's name, for the messages (`:0`).
        public var display: String
        /// The roles of the input devices present; `nil` when they could not be listed.
        public var roles: Set<DeviceRole>?
        /// The XInput version the server speaks.
        public var xinput: XInputVersion
        /// The process environment (`XDG_SESSION_TYPE`).
        public var environment: [String: String]
        /// The monitors gestures are judged on (``MonitorLayout``); `nil` when not known.
        public var monitors: [Monitor]?

        public init(
            display: String, roles: Set<DeviceRole>?, xinput: XInputVersion, environment: [String: String],
            monitors: [Monitor]? = nil
        ) {
            self.display = display
            self.roles = roles
            self.xinput = xinput
            self.environment = environment
            self.monitors = monitors
        }
    }

    /// The warnings for `config` in `session`, one line each; empty when everything can fire.
    public static func lines(for config: Config, in session: Session) -> [String] {
        var lines: [String] = []
        if session.environment["XDG_SESSION_TYPE"]?.lowercased() == "wayland", !config.bindings.isEmpty {
            let n = config.bindings.count
            lines.append(
                "this is a Wayland session (XDG_SESSION_TYPE=wayland): X clients, gesture-bridge among them, see no input "
                    + "of native Wayland apps, so \(n == 1 ? "the 1 binding fires" : "all \(n) bindings fire") only for input "
                    + "over X (XWayland) windows; use the desktop's own gesture settings, or log in to an X session")
        }

        if let monitors = session.monitors, let warning = MonitorBindings.warning(for: config, monitors: monitors) {
            lines.append(warning)
        }

        // Why each kind of device cannot make gestures here; absent: it can.
        var missing: [DeviceKind: Reason] = [:]
        if let roles = session.roles {
            if !roles.contains(.touchscreen) { missing[.touchscreen] = .absent("touchscreen") }
            if !roles.contains(.touchpad) { missing[.touchpad] = .absent("touchpad") }
        }
        if session.xinput < XInputVersion.gestures {
            missing[.touchpad] = .other("the X server speaks XInput \(session.xinput) and touchpad gestures need \(XInputVersion.gestures)")
        }

        // The bindings that can never fire, in config order, on one line with every reason that
        // stops one of them: one line per kind of device would name a 3-finger swipe twice.
        var stranded: [Binding] = []
        // Each reason that stopped a stranded binding, by device.
        var stopping: [DeviceKind: Reason] = [:]
        for binding in config.bindings {
            var missing = missing
            // A pointer binding that names its own button has one, whatever `[pointer] button` is.
            if binding.trigger.pointerButton(default: config.pointerButton) == 0 {
                missing[.pointer] = .other("pointer gestures are off ([pointer] button = 0)")
            }
            let devices = BindingReach.devices(for: binding)
            guard !devices.isEmpty, devices.allSatisfy({ missing[$0] != nil }) else { continue }
            stranded.append(binding)
            for device in devices { stopping[device] = missing[device] }
        }
        guard !stranded.isEmpty else { return lines }
        let reasons = Self.sentence(DeviceKind.allCases.compactMap { stopping[$0] }, display: session.display)
        let n = stranded.count
        lines.append("\(reasons): \(n) binding\(n == 1 ? "" : "s") can never fire: \(stranded.map(describe).joined(separator: "; "))")
        return lines
    }

    /// Why a kind of device makes no gestures here.
    enum Reason: Hashable {
        /// No device of that kind on the display.
        case absent(String)
        case other(String)
    }

    /// `no touchscreen and no touchpad on display :0`, `no touchscreen on display :0; pointer gestures are off …`.
    static func sentence(_ reasons: [Reason], display: String) -> String {
        var absent: [String] = []
        var others: [String] = []
        for reason in reasons {
            switch reason {
            case .absent(let noun): absent.append("no \(noun)")
            case .other(let text): others.append(text)
            }
        }
        let missing = absent.isEmpty ? [] : [absent.joined(separator: " and ") + " on display \(display)"]
        return (missing + others).joined(separator: "; ")
    }

    /// `swipe left with 3 fingers → workspace next (config.toml:12:1)`.
    static func describe(_ binding: Binding) -> String {
        let t = binding.trigger
        var words = [t.gesture.rawValue]
        if t.gesture == .tap, t.taps > 1 { words.append("×\(t.taps)") }
        if let direction = t.direction { words.append(direction.rawValue) }
        if let shape = t.shape { words.append(shape) }
        if let edge = t.edge { words.append("from the \(edge.rawValue) edge") }
        words.append("with \(t.fingers) finger\(t.fingers == 1 ? "" : "s")")
        if let device = t.device { words.append("on \(device.rawValue)") }
        if let app = t.app { words.append("in \(app)") }
        if let monitor = t.monitor { words.append("on monitor \(monitor)") }
        if let button = t.button { words.append("button \(button)") }
        if let modifiers = t.modifiers { words.append("holding \(modifiers)") }
        return "\(words.joined(separator: " ")) → \(binding.actionExcerpt) (\(binding.source))"
    }
}
