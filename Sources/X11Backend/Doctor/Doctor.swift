internal import CX11
import BridgeCore
public import GestureConfig
import GestureEngine
import Logging

/// `gesture-bridge doctor`: checks, one ``DoctorCheck`` each, what the bridge needs in this
/// session, with the same code the daemon runs where there is some.
///
/// In order: `display` (DISPLAY set, an X server answering within the connect timeout, not a
/// Wayland session's XWayland), `xinput` (2.2 for touch, 2.4 for touchpad gestures), `xtest`,
/// `devices` (every device with the role it gets, as `list-devices` gives them), `touchscreen`
/// and `touchpad` (present, or which bindings cannot fire without them), `button grab`,
/// `touch grab` and `touchpad grabs` (taken for a moment and released, each only when the
/// config needs it), `window manager` (`_NET_SUPPORTING_WM_CHECK`'s `_NET_WM_NAME`), `ewmh`
/// (`_NET_SUPPORTED` against the hints the config's actions use), `desktops` and `actions`
/// (per bound action, whether this window manager can do it; all three only with a window
/// manager), `monitors` (RandR 1.5 `XRRGetMonitors`), `screen lock`, `config` (which file,
/// and every problem as FILE:LINE:COLUMN), `instance` (another gesture-bridge on this display,
/// found without taking the lock). Checks that cannot be made (everything that
/// needs X when no server answers) are left out.
///
/// Nothing is left changed: grabs are released at once, the lock is only looked at, and the
/// connection closes when the doctor is done.
///
/// ```swift
/// let checks = Doctor(config: finding, environment: ProcessEnvironment.current).run()
/// for check in checks { print(check.humanText) }
/// exit(Doctor.canRun(checks) ? 0 : 1)
/// ```
public struct Doctor {
    /// The config as the command looked for it and loaded it (the loader and locator of
    /// `check-config`).
    public struct ConfigFinding: Sendable {
        /// The file used, or the embedded default.
        public var source: ConfigSource
        /// The files looked for (the `--config` file alone, or the search path), in order.
        public var searchPaths: [String]
        /// Loaded, or every problem.
        public var result: Result<Config, ConfigErrors>

        public init(source: ConfigSource, searchPaths: [String], result: Result<Config, ConfigErrors>) {
            self.source = source
            self.searchPaths = searchPaths
            self.result = result
        }
    }

    public var config: ConfigFinding
    /// The process environment: `DISPLAY`, `XDG_RUNTIME_DIR` (else `XDG_STATE_HOME` or `HOME`),
    /// `XDG_SESSION_TYPE`, `GESTURE_BRIDGE_CONNECT_TIMEOUT`.
    public var environment: [String: String]
    /// The display to check; nil for `environment["DISPLAY"]`.
    public var displayName: String?

    public init(config: ConfigFinding, environment: [String: String], displayName: String? = nil) {
        self.config = config
        self.environment = environment
        self.displayName = displayName
    }

    /// True when no check failed: the bridge can run (warnings only limit what works).
    public static func canRun(_ checks: [DoctorCheck]) -> Bool {
        !checks.contains { $0.status == .fail }
    }

    /// Runs every check that can be made, in the order of the type's description.
    public func run() -> [DoctorCheck] {
        let configCheck = checkConfig()
        // The checks that depend on the bindings judge the config loaded; an invalid one (the
        // config check fails) counts as no binding.
        let loaded = (try? config.result.get()) ?? Config(bindings: [])
        let name = [displayName, environment["DISPLAY"]].compactMap { $0 }.first { !$0.isEmpty }
        guard let name else {
            return [
                DoctorCheck(
                    "display", .fail, "DISPLAY is not set",
                    advice: "run gesture-bridge inside your X session, or set DISPLAY to its display (e.g. DISPLAY=:0; "
                        + "`echo $DISPLAY` in a terminal of the session shows it)"),
                configCheck,
            ]
        }
        let timeout = X11Display.connectTimeout(fromEnvironment: environment[X11Display.connectTimeoutVariable])
        let display: X11Display
        do {
            display = try X11Display(name: name, connectTimeout: timeout)
        } catch {
            var checks: [DoctorCheck]
            switch error {
            case .missingExtension, .xinputTooOld:
                checks = [
                    DoctorCheck("display", .ok, "DISPLAY=\(name): an X server answers"),
                    DoctorCheck(
                        "xinput", .fail, error.description,
                        advice: "gesture-bridge needs XInput 2.2 (touch) and takes touchpad gestures from 2.4 (xorg-server 21.1 or newer): update the X server"),
                ]
            default:
                checks = [DoctorCheck("display", .fail, error.description, advice: Self.displayAdvice(error))]
            }
            return checks + [configCheck, checkInstance(display: name).check]
        }

        var checks = [checkDisplay(display), checkXInput(display), checkXTest(display)]
        let devices: [InputDevice]
        do {
            devices = try display.listDevices()
            checks.append(Self.devicesCheck(devices))
        } catch {
            devices = []
            checks.append(DoctorCheck("devices", .warn, "cannot list the input devices: \(error)", advice: "run `xinput list` to see what the server has"))
        }
        let reach = BindingReach(config: loaded, devices: devices, xinput: display.xinputVersion)
        checks += [reach.touchscreenCheck, reach.touchpadCheck]

        let instance = checkInstance(display: display.name)
        checks += checkGrabs(display, config: loaded, holder: instance.holder)
        checks += checkWindowManager(display, config: loaded)
        checks.append(checkMonitors(display, config: loaded))
        if let mapping = Self.checkTouchscreenMapping(display, devices: devices, config: loaded, daemonRuns: instance.holder != nil) {
            checks.append(mapping)
        }
        checks.append(checkScreenLock(display))
        checks.append(configCheck)
        checks.append(instance.check)
        return checks
    }

    // MARK: - Display

    private static func displayAdvice(_ error: X11Error) -> String {
        switch error {
        case .notAnswering:
            "the X server at DISPLAY is stopped or hung, or something else listens there; "
                + "\(X11Display.connectTimeoutVariable)=SECONDS waits longer"
        default:
            "check that the X server runs and that DISPLAY (and XAUTHORITY, if the server asks for it) are your session's: "
                + "`echo $DISPLAY $XAUTHORITY` in a terminal of the session shows them"
        }
    }

    private func checkDisplay(_ display: X11Display) -> DoctorCheck {
        let vendor = (try? display.call("XServerVendor") { handle -> String in
            "\(String(cString: XServerVendor(handle))) \(XVendorRelease(handle))"
        }) ?? "an X server"
        let size = display.rootSize
        let found = "DISPLAY=\(display.name): \(vendor) answers, screen \(size.width)×\(size.height)"
        if environment["XDG_SESSION_TYPE"]?.lowercased() == "wayland" {
            return DoctorCheck(
                "display", .warn, found + ", but this is a Wayland session (XDG_SESSION_TYPE=wayland): that server is XWayland, "
                    + "which sees input only while an X11 window has it",
                advice: "log in to an X11 (Xorg) session for gestures over every window")
        }
        return DoctorCheck("display", .ok, found)
    }

    private func checkXInput(_ display: X11Display) -> DoctorCheck {
        let version = display.xinputVersion
        if version >= .gestures {
            return DoctorCheck("xinput", .ok, "\(version): touch (2.2) and touchpad gestures (2.4)")
        }
        return DoctorCheck(
            "xinput", .warn, "\(version): touch works, but touchpad gestures need XInput 2.4",
            advice: "update the X server (xorg-server 21.1 or newer speaks XInput 2.4)")
    }

    private func checkXTest(_ display: X11Display) -> DoctorCheck {
        let version = (try? display.call("XTestQueryExtension") { handle -> String? in
            var event: Int32 = 0, error: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
            return XTestQueryExtension(handle, &event, &error, &major, &minor) != 0 ? "\(major).\(minor)" : nil
        }) ?? nil
        guard let version else {
            return DoctorCheck(
                "xtest", .fail, "the X server has no XTEST extension: gesture-bridge cannot inject keys, clicks or scrolls",
                advice: "enable XTEST in the X server's configuration (it is on by default in Xorg)")
        }
        return DoctorCheck("xtest", .ok, "XTEST \(version): keys, clicks and scrolls can be injected")
    }

    private static func devicesCheck(_ devices: [InputDevice]) -> DoctorCheck {
        var counts: [DeviceRole: Int] = [:]
        for device in devices { counts[device.role, default: 0] += 1 }
        let summary = DeviceRole.allCases.compactMap { role -> String? in
            guard let n = counts[role] else { return nil }
            return role == .ignored ? "\(n) ignored" : "\(n) \(role.rawValue)\(n == 1 ? "" : "s")"
        }
        let n = devices.count
        return DoctorCheck(
            "devices", .ok, "\(n) device\(n == 1 ? "" : "s"): \(summary.joined(separator: ", "))",
            details: devices.sorted { $0.id < $1.id }.map(\.listLine))
    }

    // MARK: - Grabs

    /// Takes the button, touch and touchpad grabs the config needs, each for a moment.
    private func checkGrabs(_ display: X11Display, config: Config, holder: String?) -> [DoctorCheck] {
        let needs = CaptureNeeds(config)
        let held = holder.map { "most likely the gesture-bridge already running on this display (\($0))" }
            ?? "X does not say which client (another gesture or mouse-binding program)"
        var checks: [DoctorCheck] = []

        checks.append(checkButtonGrabs(display, config: config, needs: needs, holder: holder))

        if !needs.touchscreen {
            checks.append(DoctorCheck("touch grab", .ok, "not needed: no binding fires from a touchscreen"))
        } else {
            switch Self.probe(.touches, on: display) {
            case .granted:
                checks.append(DoctorCheck("touch grab", .ok, "touches can be grabbed on the root window (taken and released)"))
            case .held(let refusals):
                checks.append(DoctorCheck(
                    "touch grab", .warn,
                    "another client holds the touch grab on the root window (status \(Self.statusName(refusals))): \(held); touchscreen gestures would be off",
                    advice: holder == nil ? "stop the program that grabs touches (another gesture tool)" : "nothing to do if that gesture-bridge is yours"))
            case .failed(let error):
                checks.append(DoctorCheck("touch grab", .warn, "cannot grab touches: \(error); touchscreen gestures would be off", advice: "see the X error"))
            }
        }

        let wanted = [(needs.touchpadSwipes, "swipes"), (needs.touchpadPinches, "pinches")].filter(\.0).map(\.1)
        if wanted.isEmpty {
            checks.append(DoctorCheck("touchpad grabs", .ok, "not needed: no binding fires from a touchpad"))
        } else if display.xinputVersion < .gestures {
            checks.append(DoctorCheck(
                "touchpad grabs", .warn, "touchpad \(wanted.joined(separator: " and ")) are bound, but XInput \(display.xinputVersion) has no touchpad gestures",
                advice: "update the X server (see xinput)"))
        } else {
            var granted: [String] = [], problems: [String] = []
            for what in wanted {
                switch Self.probe(what == "swipes" ? .touchpadSwipes : .touchpadPinches, on: display) {
                case .granted: granted.append(what)
                case .held(let refusals):
                    problems.append("another client holds the touchpad \(what.dropLast(2)) grab (status \(Self.statusName(refusals))): \(held)")
                case .failed(let error): problems.append("cannot grab touchpad \(what): \(error)")
                }
            }
            if problems.isEmpty {
                checks.append(DoctorCheck("touchpad grabs", .ok, "touchpad \(granted.joined(separator: " and ")) can be grabbed on the root window (taken and released)"))
            } else {
                checks.append(DoctorCheck(
                    "touchpad grabs", .warn, problems.joined(separator: "; ") + "; those touchpad gestures would be off",
                    advice: holder == nil ? "stop the program that grabs touchpad gestures (another gesture tool)" : "nothing to do if that gesture-bridge is yours"))
            }
        }
        return checks
    }

    /// `button grab`: each trigger button's grab, in the modifier states its bindings start in
    /// (``CaptureNeeds/pointer``), taken for a moment. A button grabbed with any modifiers that
    /// another client holds stops the daemon; a modifier state another client holds (a
    /// mouse-binding program's Alt + drag) only keeps its bindings from firing, which are named.
    private func checkButtonGrabs(_ display: X11Display, config: Config, needs: CaptureNeeds, holder: String?) -> DoctorCheck {
        let held = holder.map { "most likely the gesture-bridge already running on this display (\($0))" }
            ?? "X does not say which client (another gesture or mouse-binding program)"
        guard !needs.pointer.isEmpty else {
            let why = config.pointerButton == 0 ? "pointer gestures are off ([pointer] button = 0)" : "no binding starts a pointer gesture"
            return DoctorCheck("button grab", .ok, "\(why): nothing to grab")
        }
        let map = (try? display.modifierMap()) ?? ModifierMap()
        var granted: [String] = [], conflicts: [String] = [], failures: [DoctorCheck] = []
        for (grab, presses) in zip(PassiveGrab.triggerButtons(needs.pointer, map), needs.pointer.buttons) {
            let button = presses.button
            let states = presses.anyModifiers ? "" : " with " + presses.modifierSets.map(\.description).joined(separator: ", ")
            switch Self.probe(grab, on: display) {
            case .granted:
                granted.append("mouse button \(button)\(states)")
            case .held(let refusals) where grab.isForAnyModifiers:
                failures.append(DoctorCheck(
                    "button grab", holder == nil ? .fail : .warn,
                    "another client holds a grab of mouse button \(button) on the root window (status \(Self.statusName(refusals))): \(held)",
                    advice: holder == nil
                        ? "stop the program that grabs it, or choose another [pointer] button (0 turns pointer gestures off); gesture-bridge does not start without it"
                        : "nothing to do if that gesture-bridge is yours"))
            case .held(let refusals):
                for conflict in ButtonGrabConflict.from(refusals, button: button, map: map) {
                    conflicts.append(conflict.explanation(in: config, holder: held))
                }
            case .failed(let error):
                failures.append(DoctorCheck(
                    "button grab", .fail, "cannot grab mouse button \(button): \(error)", advice: "see the X error; `xinput list` shows the devices"))
            }
        }
        if let failure = failures.first(where: { $0.status == .fail }) ?? failures.first { return failure }
        if !conflicts.isEmpty {
            return DoctorCheck(
                "button grab", holder == nil ? .warn : .ok, conflicts.joined(separator: "; "),
                advice: holder == nil
                    ? "stop the program that grabs those buttons with those modifiers (a window manager's or mouse-binding program's), or bind other modifiers or buttons"
                    : "nothing to do if that gesture-bridge is yours")
        }
        return DoctorCheck("button grab", .ok, "\(granted.joined(separator: "; ")) can be grabbed on the root window (taken and released)")
    }

    /// What a grab attempt found.
    enum GrabProbe {
        /// Granted (and released again).
        case granted
        /// Refused, in every modifier state or some: another client holds a conflicting grab;
        /// the states and the status X gave for each (`BadAccess`, …).
        case held([PassiveGrab.Refusal])
        /// The request failed with an X error.
        case failed(X11Error)
    }

    /// Takes `grab` — the capture's own definition of it, mode, mask and modifiers included —
    /// and releases at once what was granted.
    private static func probe(_ grab: PassiveGrab, on display: X11Display) -> GrabProbe {
        do {
            let refusals = try grab.takeEach(on: display)
            guard refusals.isEmpty else {
                // A grab of several modifier states holds those granted: let go of them.
                if grab.modifiers.count > refusals.count { try? grab.release(on: display, operation: "release \(grab.name)") }
                return .held(refusals)
            }
            try grab.release(on: display, operation: "release \(grab.name)")
            return .granted
        } catch {
            return .failed(error)
        }
    }

    /// The status of the first refused state, by name.
    static func statusName(_ refusals: [PassiveGrab.Refusal]) -> String {
        grabStatusName(refusals.first?.status ?? 0)
    }

    /// `BadAccess` and the `XIGrab…` statuses by name.
    static func grabStatusName(_ status: Int32) -> String {
        switch status {
        case Int32(BadAccess): "BadAccess"
        case Int32(XIAlreadyGrabbed): "AlreadyGrabbed"
        case Int32(XIGrabFrozen): "GrabFrozen"
        case Int32(XIGrabInvalidTime): "GrabInvalidTime"
        case Int32(XIGrabNotViewable): "GrabNotViewable"
        default: "\(status)"
        }
    }

    // MARK: - Window manager

    private func checkWindowManager(_ display: X11Display, config: Config) -> [DoctorCheck] {
        let ewmhBindings = config.bindings.filter { !EWMHNeeds.hints(for: $0).isEmpty }
        let check: WindowID?
        do {
            check = try display.ewmhWindowManagerCheckWindow()
        } catch {
            return [DoctorCheck("window manager", .warn, "cannot read _NET_SUPPORTING_WM_CHECK: \(error)", advice: "see the X error")]
        }
        guard let check else {
            let found = "none running (the root window has no valid _NET_SUPPORTING_WM_CHECK)"
            if ewmhBindings.isEmpty {
                return [DoctorCheck("window manager", .ok, found + "; no binding needs one")]
            }
            let n = ewmhBindings.count
            return [DoctorCheck(
                "window manager", .warn, found + ": \(n) binding\(n == 1 ? "" : "s") with workspace or window actions cannot work",
                advice: "start an EWMH window manager (openbox, xfwm4, i3, …): those actions work as soon as it runs",
                details: ewmhBindings.map(BindingReach.describe))]
        }
        let wmName = ((try? display.strings(AtomName("_NET_WM_NAME"), of: check)) ?? nil)?.first { !$0.isEmpty }
            ?? ((try? display.strings(AtomName("WM_NAME"), of: check)) ?? nil)?.first { !$0.isEmpty }
        let name = wmName ?? "an unnamed window manager"
        var checks = [DoctorCheck("window manager", .ok, "\(name) (_NET_SUPPORTING_WM_CHECK window \(check))")]
        checks.append(checkEWMH(display, name: name, bindings: ewmhBindings))
        checks.append(checkDesktops(display, bindings: config.bindings))
        checks.append(checkActions(display, name: name, bindings: ewmhBindings))
        return checks
    }

    private func checkEWMH(_ display: X11Display, name: String, bindings: [Binding]) -> DoctorCheck {
        let supported: Set<UInt>
        do {
            supported = Set(try display.property(AtomName("_NET_SUPPORTED"), of: display.root, maxItems: 4096)?.items ?? [])
        } catch {
            return DoctorCheck("ewmh", .warn, "cannot read _NET_SUPPORTED: \(error)", advice: "see the X error")
        }
        var missingByBinding: [(Binding, [String])] = []
        var used: Set<String> = []
        for binding in bindings {
            let hints = EWMHNeeds.hints(for: binding)
            used.formUnion(hints)
            let missing = hints.filter { hint in
                guard let atom = try? display.atom(AtomName(hint)) else { return true }
                return !supported.contains(UInt(atom))
            }
            if !missing.isEmpty { missingByBinding.append((binding, missing)) }
        }
        if bindings.isEmpty {
            return DoctorCheck("ewmh", .ok, "_NET_SUPPORTED lists \(supported.count) hints; no binding uses a workspace or window action")
        }
        if missingByBinding.isEmpty {
            return DoctorCheck("ewmh", .ok, "\(name) supports every hint the config's actions use: \(used.sorted().joined(separator: ", "))")
        }
        let missing = Set(missingByBinding.flatMap(\.1)).sorted()
        let n = missingByBinding.count
        return DoctorCheck(
            "ewmh", .warn,
            "\(name) does not list \(missing.joined(separator: ", ")) in _NET_SUPPORTED: \(n) binding\(n == 1 ? "" : "s") may not work",
            advice: "use a window manager that supports them, or bind the window manager's own keyboard shortcuts (`key …`) instead",
            details: missingByBinding.map { "\(BindingReach.describe($0.0)) (needs \($0.1.joined(separator: ", ")))" })
    }

    private func checkDesktops(_ display: X11Display, bindings: [Binding]) -> DoctorCheck {
        let count = (try? display.cardinal(.netNumberOfDesktops, of: display.root)) ?? nil
        let current = (try? display.cardinal(.netCurrentDesktop, of: display.root)) ?? nil
        // Bindings with an action that goes to a desktop: `workspace` and `window move-to-workspace`.
        let workspaceBindings = bindings.filter { $0.actions.contains { $0.desktopTarget != nil } }
        guard let count, count > 0 else {
            if workspaceBindings.isEmpty { return DoctorCheck("desktops", .ok, "the window manager publishes no _NET_NUMBER_OF_DESKTOPS; no binding switches desktops") }
            return DoctorCheck(
                "desktops", .warn, "the window manager publishes no _NET_NUMBER_OF_DESKTOPS: workspace actions cannot work",
                advice: "use a window manager with EWMH desktops", details: workspaceBindings.map(BindingReach.describe))
        }
        let found = "\(count) desktop\(count == 1 ? "" : "s")" + (current.map { " (desktop \($0 + 1) is shown)" } ?? "")
        let beyond = workspaceBindings.filter { $0.actions.contains { if case .number(let n) = $0.desktopTarget { n > Int(count) } else { false } } }
        // `next` and `prev` need more than one desktop to go anywhere.
        let going = workspaceBindings.filter {
            $0.actions.contains { action in
                guard let target = action.desktopTarget else { return false }
                if case .number = target { return false }
                return true
            }
        }
        if !beyond.isEmpty {
            return DoctorCheck(
                "desktops", .warn, found + ": \(beyond.count) binding\(beyond.count == 1 ? "" : "s") switch to a desktop that does not exist",
                advice: "add desktops in the window manager's settings, or bind lower numbers", details: beyond.map(BindingReach.describe))
        }
        if count == 1, !going.isEmpty {
            return DoctorCheck(
                "desktops", .warn, found + ": workspace next and prev have nowhere to go",
                advice: "add desktops in the window manager's settings", details: going.map(BindingReach.describe))
        }
        return DoctorCheck("desktops", .ok, found)
    }

    // MARK: - Monitors, screen lock

    private func checkMonitors(_ display: X11Display, config: Config?) -> DoctorCheck {
        var (check, built) = checkMonitors(display)
        guard let config, check.status == .ok else { return check }
        let sizes = Self.physicalSizes(of: built, config: config)
        check.details = sizes.details
        if let warning = sizes.warning {
            check.status = .warn
            check.message += "; " + warning
            check.advice = "give the thresholds in pixels (`_px`), or make the monitor report its size (its EDID; `xrandr --verbose` shows it)"
        }
        // Bindings for monitors this screen does not have: they wait for one to appear.
        let unknown = MonitorBindings.unknown(in: config, monitors: built)
        guard !unknown.isEmpty else { return check }
        return DoctorCheck(
            "monitors", .warn, check.message + "; \(unknown.count) binding\(unknown.count == 1 ? " names" : "s name") another monitor",
            advice: ([check.advice].compactMap { $0 } + ["fix the binding's monitor, or it fires only once that monitor appears"]).joined(separator: "; "),
            details: check.details + unknown.map(BindingReach.describe))
    }

    /// The monitors line, and the list gestures are judged on (``MonitorLayout``; empty: the
    /// whole screen is one monitor), from one RandR query.
    private func checkMonitors(_ display: X11Display) -> (DoctorCheck, [Monitor]) {
        let size = display.rootSize
        let whole = "the screen (\(size.width)×\(size.height)) is one monitor"
        let monitors: [RandRMonitor]?
        do {
            monitors = try display.randrMonitors()
        } catch {
            return (DoctorCheck("monitors", .warn, "cannot ask RandR for the monitors: \(error); \(whole)", advice: "see the X error"), [])
        }
        guard let monitors else { return (DoctorCheck("monitors", .ok, "the X server has no RandR 1.5: \(whole)"), []) }
        guard !monitors.isEmpty else { return (DoctorCheck("monitors", .ok, "RandR lists no active monitor: \(whole)"), []) }
        // The list gestures are judged on, as the daemon builds it (MonitorLayout).
        let built = MonitorLayout.monitors(from: monitors)
        let described = built.map { m in
            let primary = monitors.first { $0.name == m.name }?.primary ?? false
            return RandRMonitor(name: m.name, x: m.x, y: m.y, width: m.width, height: m.height, primary: primary).summary
        }
        let left = monitors.map(\.name).filter { name in !built.contains { $0.name == name } }
        let leftOut = left.isEmpty ? "" : "; left out, covered by the others: \(left.joined(separator: ", "))"
        return (DoctorCheck("monitors", .ok, "\(built.count) (RandR): \(described.joined(separator: ", "))\(leftOut)"), built)
    }

    private func checkScreenLock(_ display: X11Display) -> DoctorCheck {
        let quiet = Logger(label: "gesture-bridge.doctor") { _ in SwiftLogNoOpLogHandler() }
        do {
            let monitor = try ScreenLockMonitor(display: display, logger: quiet)
            guard let lock = monitor.lock else { return DoctorCheck("screen lock", .ok, "not locked") }
            return DoctorCheck(
                "screen lock", .warn, "the screen is locked (\(lock)): gestures perform nothing while it is",
                advice: "unlock the screen; gestures work again from the next touch or press")
        } catch {
            return DoctorCheck("screen lock", .warn, "cannot tell whether the screen is locked: \(error)", advice: "see the X error")
        }
    }

    // MARK: - Config, instance

    private func checkConfig() -> DoctorCheck {
        switch (config.result, config.source) {
        case (.failure(let errors), _):
            let n = errors.errors.count
            return DoctorCheck(
                "config", .fail, "\(config.source): \(n) problem\(n == 1 ? "" : "s"); gesture-bridge does not start with it (exit 2)",
                advice: "fix \(n == 1 ? "it" : "them") (`gesture-bridge check-config` says the same)",
                details: errors.errors.map(\.description))
        case (.success(let loaded), .embedded):
            let n = loaded.bindings.count
            let looked = config.searchPaths.joined(separator: ", ")
            let start = config.searchPaths.first.map { path -> String in
                let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
                return "to make your own: mkdir -p \(directory) && gesture-bridge print-config > \(path)"
            }
            return DoctorCheck(
                "config", .ok, "no config file (looked for \(looked)): the embedded default, valid, \(n) binding\(n == 1 ? "" : "s")",
                advice: start)
        case (.success(let loaded), .file(let path)):
            let n = loaded.bindings.count
            let found = "\(path): valid, \(n) binding\(n == 1 ? "" : "s")"
            let warnings = loaded.warnings(source: path)
            if warnings.isEmpty { return DoctorCheck("config", .ok, found) }
            return DoctorCheck("config", .warn, found + ", with \(warnings.count == 1 ? "a warning" : "warnings")",
                               advice: "see `gesture-bridge check-config`", details: warnings)
        }
    }

    /// The instance check, and who holds the lock (`pid N`) when a gesture-bridge runs.
    private func checkInstance(display name: String) -> (check: DoctorCheck, holder: String?) {
        do throws(InstanceLock.Failure) {
            switch try InstanceLock.probe(display: name, environment: environment) {
            case .free(let path):
                return (DoctorCheck("instance", .ok, "no other gesture-bridge runs on this display (lock \(path) is free)"), nil)
            case .held(let path, let pid):
                let who = pid.map { "pid \($0)" } ?? "pid unknown"
                return (DoctorCheck(
                    "instance", .fail, "a gesture-bridge already runs on this display (\(who), lock \(path)): another one would exit at once",
                    advice: "nothing to do if it is the one you want (`systemctl --user status gesture-bridge`); to start another, "
                        + "stop it first (`systemctl --user stop gesture-bridge`\(pid.map { ", or kill \($0)" } ?? ""))"), who)
            }
        } catch {
            return (DoctorCheck(
                "instance", .fail, "\(error)",
                advice: "remove what it names, or set XDG_RUNTIME_DIR to a directory of yours that no one else can write to"), nil)
        }
    }
}

/// The EWMH hints (atoms a window manager lists in `_NET_SUPPORTED`) each action cannot do
/// without.
enum EWMHNeeds {
    static func hints(for action: Action) -> [String] {
        switch action {
        case .workspace: ["_NET_CURRENT_DESKTOP", "_NET_NUMBER_OF_DESKTOPS"]
        case .window(.maximize): ["_NET_ACTIVE_WINDOW", "_NET_WM_STATE", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]
        case .window(.fullscreen): ["_NET_ACTIVE_WINDOW", "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN"]
        // Minimizing is ICCCM's WM_CHANGE_STATE, which _NET_SUPPORTED does not list.
        case .window(.minimize): ["_NET_ACTIVE_WINDOW"]
        case .window(.close): ["_NET_ACTIVE_WINDOW", "_NET_CLOSE_WINDOW"]
        case .window(.toggleMaximize): ["_NET_ACTIVE_WINDOW", "_NET_WM_STATE", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]
        // Restoring removes only the states the window has, which its manager must know.
        case .window(.restore): ["_NET_ACTIVE_WINDOW", "_NET_WM_STATE"]
        // The rest is optional: without _NET_MOVERESIZE_WINDOW a ConfigureRequest moves the
        // window, without _NET_FRAME_EXTENTS the frame is measured (WindowManagerAbilities).
        case .tile: ["_NET_ACTIVE_WINDOW"]
        case .moveWindowToWorkspace:
            ["_NET_ACTIVE_WINDOW", "_NET_WM_DESKTOP", "_NET_CURRENT_DESKTOP", "_NET_NUMBER_OF_DESKTOPS"]
        case .showDesktop: ["_NET_SHOWING_DESKTOP"]
        case .key, .click, .scroll, .exec: []
        }
    }
}

extension InputDevice {
    /// The device as `list-devices` lines it up: `  6  touchscreen   Test Touchscreen  (XIDirectTouch, 10 touches)`.
    public var listLine: String {
        let id = String(self.id)
        return String(repeating: " ", count: max(0, 3 - id.count)) + id + "  " + role.rawValue.padding(to: 12) + "  \(name)  (\(reason))"
    }
}
