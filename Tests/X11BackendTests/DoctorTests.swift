import CX11
import Foundation
import GestureConfig
import Testing
@testable import X11Backend
import GestureTestKit

/// `gesture-bridge doctor`'s checks on real servers: what Xvfb, Xvfb with openbox and headless
/// Xorg with inputtest devices really offer, grabs held by another client, a running daemon.
@Suite("doctor")
struct DoctorTests {
    /// A private runtime directory (the instance lock's), fresh per test.
    static func runtimeDirectory() throws -> URL {
        let dir = URL(fileURLWithPath: TestScratch.path("gb-doctor"))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return dir
    }

    /// The checks for `server` with `config` (TOML text; nil: the embedded default, as with no file).
    static func run(_ server: XServer, config text: String? = nil, runtime: URL? = nil) throws -> [DoctorCheck] {
        let runtime = try runtime ?? runtimeDirectory()
        let source: ConfigSource
        var paths = [runtime.appendingPathComponent("xdg/gesture-bridge/config.toml").path]
        if let text {
            let file = runtime.appendingPathComponent("config.toml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            source = .file(file.path)
            paths = [file.path]
        } else {
            source = .embedded
        }
        let result: Result<Config, ConfigErrors>
        do {
            result = .success(try Config.load(from: source))
        } catch {
            result = .failure(error)
        }
        let finding = Doctor.ConfigFinding(source: source, searchPaths: paths, result: result)
        return Doctor(config: finding, environment: ["XDG_RUNTIME_DIR": runtime.path], displayName: server.name).run()
    }

    static func check(_ name: String, in checks: [DoctorCheck]) throws -> DoctorCheck {
        let found = checks.first { $0.name == name }
        return try #require(found, "no \(name) check in \(checks.map(\.name))")
    }

    static func text(_ checks: [DoctorCheck]) -> String { checks.map(\.humanText).joined(separator: "\n") }

    /// Whether one of `lines` contains every one of `parts`.
    static func has(_ lines: [String], _ parts: String...) -> Bool {
        lines.contains { line in parts.allSatisfy { line.contains($0) } }
    }

    /// Another client's passive XI 2 grab of `button` on the root window, with any modifiers;
    /// 0 when granted (the helper of the button grab's own tests).
    static func grabButton(_ client: XClient, _ button: Int32) -> Int32 {
        ButtonGrabTests().grabButton(client, button)
    }

    /// Another client's passive touch grab on the root window; 0 when granted.
    static func grabTouches(_ client: XClient) -> Int32 {
        var bits = [UInt8](repeating: 0, count: 4)
        for event in [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd, XI_TouchOwnership] {
            bits[Int(event) >> 3] |= UInt8(1 << (Int(event) & 7))
        }
        var modifiers = [XIGrabModifiers(modifiers: Int32(bitPattern: UInt32(XIAnyModifier)), status: 0)]
        let failed = bits.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return XIGrabTouchBegin(client.display, XIAllMasterDevices, client.root, 0, &mask, 1, &modifiers)
        }
        XSync(client.display, 0)
        return failed
    }

    @Test("Xvfb without a window manager: it can run; no touchscreen or touchpad and no WM are warnings that name the bindings")
    func xvfbWithoutWindowManager() throws {
        try XServer.with { server in
            let checks = try Self.run(server)
            let all = Self.text(checks)
            print("doctor on Xvfb without a window manager:\n\(all)")
            #expect(Doctor.canRun(checks), "\(all)")
            #expect(checks.map(\.name) == [
                "display", "xinput", "xtest", "devices", "touchscreen", "touchpad", "button grab", "touch grab", "touchpad grabs",
                "window manager", "monitors", "screen lock", "config", "instance",
            ])
            let notOK = checks.filter { $0.status != .ok }
            let withoutAdvice = notOK.filter { $0.advice == nil }
            #expect(withoutAdvice.isEmpty, "every warn and fail says what to do:\n\(all)")

            let display = try Self.check("display", in: checks)
            #expect(display.status == .ok && display.message.contains("DISPLAY=\(server.name)") && display.message.contains("1280×800"), "\(all)")
            let xinput = try Self.check("xinput", in: checks)
            #expect(xinput.status == .ok && xinput.message.hasPrefix("2.4"), "\(all)")
            let devices = try Self.check("devices", in: checks)
            #expect(devices.status == .ok)
            #expect(Self.has(devices.details, "pointer", "Xvfb mouse"), "\(all)")
            #expect(Self.has(devices.details, "ignored", "XTEST"), "\(all)")

            // The default config's touchscreen long press can come from nothing else.
            let touchscreen = try Self.check("touchscreen", in: checks)
            #expect(touchscreen.status == .warn && touchscreen.message.hasPrefix("none on this display"), "\(all)")
            #expect(Self.has(touchscreen.details, "long-press", "click right"), "\(all)")
            #expect(Self.has(touchscreen.details, "swipe left with 3 fingers"), "\(all)")
            let touchpad = try Self.check("touchpad", in: checks)
            #expect(touchpad.status == .warn && !Self.has(touchpad.details, "long-press"), "a touchpad makes no long press:\n\(all)")

            #expect(try Self.check("button grab", in: checks).status == .ok, "\(all)")
            #expect(try Self.check("touch grab", in: checks).status == .ok, "\(all)")
            #expect(try Self.check("touchpad grabs", in: checks).status == .ok, "\(all)")
            let wm = try Self.check("window manager", in: checks)
            #expect(wm.status == .warn && wm.message.hasPrefix("none running"), "\(all)")
            #expect(Self.has(wm.details, "workspace next"), "\(all)")
            #expect(try Self.check("monitors", in: checks).message.contains("1280×800"), "\(all)")
            #expect(try Self.check("screen lock", in: checks).status == .ok)
            let config = try Self.check("config", in: checks)
            #expect(config.status == .ok && config.message.contains("embedded default"), "\(all)")
            #expect(config.advice?.contains("gesture-bridge print-config >") == true, "\(all)")
            #expect(try Self.check("instance", in: checks).status == .ok, "\(all)")

            // The doctor let go of every grab it tried.
            let other = try XClient(server.name)
            #expect(Self.grabButton(other, 3) == 0, "button 3 is free again")
            #expect(Self.grabTouches(other) == 0, "touches are free again")
        }
    }

    @Test("Xvfb with openbox: the window manager by name, its EWMH support and its desktops")
    func xvfbWithOpenbox() throws {
        try XServer.with(windowManager: true) { server in
            let config = """
                [[bind]]
                gesture = "swipe"
                device = "pointer"
                direction = "left"
                action = "workspace next"

                [[bind]]
                gesture = "swipe"
                device = "pointer"
                direction = "up"
                action = "window close"
                """
            let checks = try Self.run(server, config: config)
            let all = Self.text(checks)
            print("doctor on Xvfb with openbox:\n\(all)")
            #expect(Doctor.canRun(checks), "\(all)")
            let wm = try Self.check("window manager", in: checks)
            #expect(wm.status == .ok && wm.message.hasPrefix("Openbox"), "\(all)")
            let ewmh = try Self.check("ewmh", in: checks)
            #expect(ewmh.status == .ok, "\(all)")
            for hint in ["_NET_CURRENT_DESKTOP", "_NET_NUMBER_OF_DESKTOPS", "_NET_ACTIVE_WINDOW", "_NET_CLOSE_WINDOW"] {
                #expect(ewmh.message.contains(hint), "\(all)")
            }
            let desktops = try Self.check("desktops", in: checks)
            #expect(desktops.status == .ok && desktops.message.hasPrefix("\(XServer.desktopCount) desktops"), "\(all)")
            // Only pointer bindings: nothing needs a touchscreen or a touchpad.
            #expect(try Self.check("touchscreen", in: checks).status == .ok, "\(all)")
            #expect(try Self.check("touch grab", in: checks).message.hasPrefix("not needed"), "\(all)")

            let beyond = try Self.run(server, config: config.replacingOccurrences(of: "workspace next", with: "workspace 7"))
            let tooFew = try Self.check("desktops", in: beyond)
            #expect(tooFew.status == .warn && Self.has(tooFew.details, "workspace 7"), "\(Self.text(beyond))")
        }
    }

    @Test("headless Xorg with inputtest devices: the touchscreen and the touchpad with their roles, XInput 2.4",
          .enabled(if: XServer.isRoot, "headless Xorg needs root; as root a missing xserver-xorg-core or xserver-xorg-video-dummy fails the test"))
    func xorgInputTest() throws {
        try XServer.with(.xorgInputTest) { server in
            let checks = try Self.run(server)
            let all = Self.text(checks)
            print("doctor on headless Xorg with inputtest devices:\n\(all)")
            #expect(Doctor.canRun(checks), "\(all)")
            let xinput = try Self.check("xinput", in: checks)
            #expect(xinput.status == .ok && xinput.message.hasPrefix("2.4"), "\(all)")
            let touchscreen = try Self.check("touchscreen", in: checks)
            #expect(touchscreen.status == .ok && touchscreen.message.contains("Test Touchscreen") && touchscreen.message.contains("XIDirectTouch, 10 touches"), "\(all)")
            let touchpad = try Self.check("touchpad", in: checks)
            #expect(touchpad.status == .ok && touchpad.message.contains("Test Touchpad") && touchpad.message.contains("XI 2.4 gesture class"), "\(all)")
            let devices = try Self.check("devices", in: checks).details
            #expect(Self.has(devices, "touchscreen", "Test Touchscreen"), "\(all)")
            #expect(Self.has(devices, "touchpad", "Test Touchpad"), "\(all)")
            #expect(Self.has(devices, "pointer", "Test Mouse"), "\(all)")
            #expect(try Self.check("touch grab", in: checks).status == .ok, "\(all)")
            let grabs = try Self.check("touchpad grabs", in: checks)
            #expect(grabs.status == .ok && grabs.message.contains("swipes"), "\(all)")
        }
    }

    @Test("another client holding the button grab fails the check, and one holding touches is a warning")
    func grabsHeldByAnotherClient() throws {
        try XServer.with { server in
            let other = try XClient(server.name)
            try #require(Self.grabButton(other, 3) == 0)
            try #require(Self.grabTouches(other) == 0)
            let checks = try Self.run(server)
            let all = Self.text(checks)
            print("doctor with another client's grabs:\n\(all)")
            #expect(!Doctor.canRun(checks), "\(all)")
            let button = try Self.check("button grab", in: checks)
            #expect(button.status == .fail, "\(all)")
            #expect(button.message.contains("another client holds a grab of mouse button 3") && button.message.contains("BadAccess"), "\(all)")
            #expect(button.message.contains("X does not say which client"), "\(all)")
            #expect(button.advice?.contains("[pointer] button") == true, "\(all)")
            let touch = try Self.check("touch grab", in: checks)
            #expect(touch.status == .warn && touch.message.contains("touchscreen gestures would be off"), "\(all)")
            // The other client's grabs are untouched.
            let third = try XClient(server.name)
            #expect(Self.grabButton(third, 3) != 0, "button 3 is still the other client's")
        }
    }

    @Test("a running daemon: the instance check names it, and the grab it holds is put down to it")
    func runningDaemon() throws {
        try XServer.with { server in
            let daemon = try DaemonProcess(server, config: pointerSwipeBindings)
            let runtime = daemon.configFile.deletingLastPathComponent()
            let checks = try Self.run(server, config: pointerSwipeBindings, runtime: runtime)
            let all = Self.text(checks)
            print("doctor beside a running daemon:\n\(all)")
            #expect(!Doctor.canRun(checks), "a second daemon cannot start:\n\(all)")
            let instance = try Self.check("instance", in: checks)
            #expect(instance.status == .fail, "\(all)")
            #expect(instance.message.contains("a gesture-bridge already runs on this display (pid \(daemon.process.pid)"), "\(all)")
            #expect(instance.advice?.contains("systemctl --user stop gesture-bridge") == true, "\(all)")
            let button = try Self.check("button grab", in: checks)
            #expect(button.status == .warn && button.message.contains("gesture-bridge already running on this display (pid \(daemon.process.pid))"), "\(all)")
            // The daemon goes on, its lock and grab untouched.
            #expect(daemon.process.isRunning)
            let other = try XClient(server.name)
            #expect(Self.grabButton(other, 3) != 0, "the daemon still holds button 3")
        }
    }

    @Test("RandR monitors, as xrandr --setmonitor made them")
    func monitors() throws {
        try XServer.with { server in
            try tool(server, "xrandr", "--setmonitor", "left", "640/169x800/127+0+0", "none")
            try tool(server, "xrandr", "--setmonitor", "right", "640/169x800/127+640+0", "none")
            let checks = try Self.run(server)
            let monitors = try Self.check("monitors", in: checks)
            #expect(monitors.status == .ok, "\(monitors.humanText)")
            #expect(monitors.message.contains("left 640×800+0+0") && monitors.message.contains("right 640×800+640+0"), "\(monitors.humanText)")
        }
    }

    @Test("a locked screen (the screen saver on) is a warning")
    func screenLocked() throws {
        try XServer.with { server in
            try tool(server, "xset", "s", "activate")
            let checks = try Self.run(server)
            let lock = try Self.check("screen lock", in: checks)
            #expect(lock.status == .warn && lock.message.contains("the screen saver is on"), "\(lock.humanText)")
            #expect(Doctor.canRun(checks))
        }
    }

    @Test("an invalid config fails with every problem as FILE:LINE:COLUMN; the X checks still run")
    func invalidConfig() throws {
        try XServer.with { server in
            let runtime = try Self.runtimeDirectory()
            let checks = try Self.run(server, config: "[[bind]]\ngesture = \"swipe\"\naction = \"key ctrl+Nope\"\n", runtime: runtime)
            let all = Self.text(checks)
            #expect(!Doctor.canRun(checks), "\(all)")
            let config = try Self.check("config", in: checks)
            let file = runtime.appendingPathComponent("config.toml").path
            #expect(config.status == .fail, "\(all)")
            #expect(Self.has(config.details, "\(file):3:", "Nope"), "\(all)")
            #expect(try Self.check("display", in: checks).status == .ok, "\(all)")
        }
    }

    @Test("JSON lines carry every field, escaped")
    func jsonText() {
        let check = DoctorCheck("config", .fail, "a \"quoted\" path\\", advice: "fix\tit", details: ["one\nline"])
        #expect(check.jsonText == #"{"check":"config","status":"fail","message":"a \"quoted\" path\\","advice":"fix\tit","details":["one\nline"]}"#)
        #expect(DoctorCheck("x", .ok, "fine").jsonText == #"{"check":"x","status":"ok","message":"fine"}"#)
    }
}
