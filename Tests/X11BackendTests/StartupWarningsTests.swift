import GestureConfig
import GestureEngine
import Testing
import X11Backend

/// Start-up warnings need no X server: they are judged from what the daemon found.
@Suite("Start-up warnings")
struct StartupWarningsTests {
    static let defaults = try! Config.load(from: .embedded)

    private func session(_ roles: Set<DeviceRole>?, xinput minor: Int = 4, _ environment: [String: String] = [:]) -> StartupWarnings.Session {
        StartupWarnings.Session(display: ":0", roles: roles, xinput: XInputVersion(major: 2, minor: minor), environment: environment)
    }

    @Test("A laptop with a touchscreen and a touchpad on XInput 2.4, under X: nothing to say")
    func nothingToSay() {
        let lines = StartupWarnings.lines(for: Self.defaults, in: session([.pointer, .keyboard, .touchscreen, .touchpad]))
        #expect(lines.isEmpty, "\(lines)")
    }

    @Test("No touchscreen: the touchscreen long press is named, with its position; the 3-finger swipes still have the touchpad")
    func noTouchscreen() {
        let lines = StartupWarnings.lines(for: Self.defaults, in: session([.pointer, .keyboard, .touchpad]))
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("no touchscreen on display :0: 1 binding can never fire: long-press with 1 finger on touchscreen → click right (<default config>:") == true,
                "\(lines)")
    }

    @Test("A desktop with a mouse only: one line names every binding that needs a touchscreen or a touchpad; the right-drags are fine")
    func mouseOnly() throws {
        let lines = StartupWarnings.lines(for: Self.defaults, in: session([.pointer, .keyboard]))
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("no touchscreen and no touchpad on display :0: 5 bindings can never fire: swipe left with 3 fingers → workspace next (<default config>:"),
                "\(lines)")
        #expect(line.contains("; long-press with 1 finger on touchscreen → click right (<default config>:"), "\(lines)")
        // Each named once.
        for binding in Self.defaults.bindings {
            #expect(line.split(separator: "(\(binding.source))", omittingEmptySubsequences: false).count <= 2, "\(binding.source) named twice: \(line)")
        }
        #expect(!line.contains("alt+Left"))
    }

    @Test("Bindings stopped for different reasons are named on one line with every reason")
    func reasonsTogether() throws {
        let config = try Config.parse("""
            [pointer]
            button = 0

            [[bind]]
            gesture = "pinch"
            device = "touchpad"
            direction = "out"
            action = "key ctrl+plus"

            [[bind]]
            gesture = "swipe"
            device = "pointer"
            direction = "left"
            action = "key alt+Left"
            """, file: "c.toml")
        let lines = StartupWarnings.lines(for: config, in: session([.pointer, .touchscreen, .touchpad], xinput: 3))
        #expect(lines == [
            "the X server speaks XInput 2.3 and touchpad gestures need 2.4; pointer gestures are off ([pointer] button = 0): 2 bindings can never fire: "
                + "pinch out with 2 fingers on touchpad → key ctrl+plus (c.toml:4:1); swipe left with 1 finger on pointer → key alt+Left (c.toml:10:1)",
        ])
    }

    @Test("XInput below 2.4 with touchpad bindings: they are named, with the version")
    func oldXInput() throws {
        let config = try Config.parse("""
            [[bind]]
            gesture = "pinch"
            device = "touchpad"
            direction = "out"
            action = "key ctrl+plus"
            """, file: "c.toml")
        let lines = StartupWarnings.lines(for: config, in: session([.pointer, .touchpad], xinput: 3))
        #expect(lines == [
            "the X server speaks XInput 2.3 and touchpad gestures need 2.4: 1 binding can never fire: pinch out with 2 fingers on touchpad → key ctrl+plus (c.toml:1:1)"
        ])
    }

    @Test("A Wayland session says that X clients see no input of native Wayland apps")
    func wayland() {
        let lines = StartupWarnings.lines(for: Self.defaults, in: session([.pointer, .touchscreen, .touchpad], ["XDG_SESSION_TYPE": "wayland"]))
        #expect(lines.count == 1)
        #expect(lines.first?.contains("XDG_SESSION_TYPE=wayland") == true)
        #expect(lines.first?.contains("see no input of native Wayland apps, so all 7 bindings fire only for input over X (XWayland) windows") == true, "\(lines)")
    }

    @Test("Devices that could not be listed are not guessed at")
    func unknownDevices() {
        #expect(StartupWarnings.lines(for: Self.defaults, in: session(nil)).isEmpty)
    }
}
