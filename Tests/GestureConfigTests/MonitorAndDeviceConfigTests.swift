import GestureEngine
import Testing

@testable import GestureConfig

/// `monitor = "NAME"` in bindings (docs/interface.md, «Monitors») and `[recognizer.DEVICE]` tables
/// (docs/config.md).
@Suite("monitor bindings and per-device thresholds in the config")
struct MonitorAndDeviceConfigTests {
    func errors(_ toml: String) throws -> [String] {
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "c.toml") }
        return thrown.errors.map(\.description)
    }

    @Test func aBindingNamesAMonitor() throws {
        let config = try Config.parse("[[bind]]\ngesture = \"tap\"\nmonitor = \"HDMI-1\"\naction = \"key a\"\n", file: "c.toml")
        #expect(config.bindings.first?.trigger.monitor == "HDMI-1")
        #expect(config.engineConfiguration.triggers.first?.monitor == "HDMI-1")
    }

    @Test func anEmptyOrNonStringMonitorIsAnErrorAtTheValue() throws {
        #expect(try errors("[[bind]]\ngesture = \"tap\"\nmonitor = \"\"\naction = \"key a\"\n")
            == ["c.toml:3:11: 'monitor' must not be empty; leave it out to match every monitor"])
        #expect(try errors("[[bind]]\ngesture = \"tap\"\nmonitor = 1\naction = \"key a\"\n")
            == ["c.toml:3:11: 'monitor' must be a string, not an integer"])
    }

    @Test func bindingsThatDifferOnlyInTheirMonitorAreNotDuplicates() throws {
        let toml = """
            [[bind]]
            gesture = "tap"
            monitor = "left"
            action = "key a"
            [[bind]]
            gesture = "tap"
            monitor = "right"
            action = "key b"
            [[bind]]
            gesture = "tap"
            monitor = "right"
            action = "key c"
            """
        #expect(try errors(toml) == ["c.toml:9:1: duplicate binding: same as the one at 5:1"])
    }

    @Test func aDeviceTableOverridesTheCommonThresholdsForThatDevice() throws {
        let toml = """
            [recognizer]
            swipe_min_px = 100
            edge_px = 10
            [recognizer.touchpad]
            swipe_min_px = 40
            swipe_min_velocity = 0.1
            [recognizer.pointer]
            long_press_ms = 800
            """
        let config = try Config.parse(toml, file: "c.toml")
        let engine = config.engineConfiguration
        #expect(engine.settings(for: .touchscreen).swipeMinPx == 100)
        #expect(engine.settings(for: .touchpad).swipeMinPx == 40)
        #expect(engine.settings(for: .touchpad).swipeMinVelocity == 0.1)
        #expect(engine.settings(for: .touchpad).edgePx == 10)
        #expect(engine.settings(for: .pointer).longPressMs == 800)
        #expect(engine.settings(for: .pointer).swipeMinPx == 100)
        #expect(config.deviceSettings[.touchscreen] == nil)
        #expect(config.notes.isEmpty)
    }

    @Test func theOrderOfTheTablesDoesNotMatter() throws {
        let config = try Config.parse("[recognizer.touchpad]\nslop_px = 3\n[recognizer]\nslop_px = 7\ntap_max_ms = 200\n", file: "c.toml")
        #expect(config.engineConfiguration.settings(for: .touchpad).slopPx == 3)
        #expect(config.engineConfiguration.settings(for: .touchpad).tapMaxMs == 200)
        #expect(config.engineConfiguration.settings(for: .touchscreen).slopPx == 7)
    }

    @Test func badValuesInADeviceTableAreCheckedAsInRecognizerWithTheirPositions() throws {
        let toml = "[recognizer.touchpad]\nswipe_min_px = 0\nedge_px = 5000\nswip_min_px = 3\n[recognizer.mouse]\nslop_px = 1\n"
        #expect(try errors(toml) == [
            "c.toml:2:16: 'swipe_min_px' must be more than 0, not 0",
            "c.toml:3:11: 'edge_px' must be at most 1000, not 5000: more would make most gestures edge gestures",
            "c.toml:4:1: unknown key 'swip_min_px' in [recognizer.touchpad]; did you mean 'swipe_min_px'?",
            "c.toml:5:13: unknown table 'mouse' in [recognizer] (device tables: [recognizer.touchscreen], [recognizer.touchpad], [recognizer.pointer])",
        ])
        #expect(try errors("[recognizer.touchpd]\nslop_px = 1\n").first?.contains("unknown table 'touchpd' in [recognizer]; did you mean 'touchpad'?") == true)
    }

    @Test func aDeviceKeyThatIsNoTableIsAnError() throws {
        #expect(try errors("[recognizer]\ntouchpad = 5\n") == ["c.toml:2:12: 'touchpad' must be a table, not an integer"])
    }

    @Test func keysADeviceNeverUsesAreAcceptedWithAWarningAtTheKey() throws {
        let config = try Config.parse("[recognizer.pointer]\nfinger_settle_ms = 50\nslop_px = 4\n[recognizer.touchpad]\nlong_press_ms = 900\n", file: "c.toml")
        #expect(config.notes.map(\.description) == [
            "c.toml:2:1: 'finger_settle_ms' in [recognizer.pointer] has no effect: a pointer gesture is a 1-finger long-press, swipe, pan or stroke",
            "c.toml:5:1: 'long_press_ms' in [recognizer.touchpad] has no effect: a touchpad makes swipes, pans, pinches and rotates, with the finger count the X server reports, and no edge gestures or strokes",
        ])
        #expect(config.warnings(source: "c.toml").count == 2 + 1)  // and: no [[bind]]
        #expect(config.engineConfiguration.settings(for: .pointer).slopPx == 4)
    }
}
