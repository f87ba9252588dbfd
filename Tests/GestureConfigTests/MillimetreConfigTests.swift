import GestureEngine
import Testing

@testable import GestureConfig

/// `slop_mm`, `swipe_min_mm` … beside the `_px` keys, and `[touchscreen] output`
/// (docs/config.md, «Distances in millimetres» and «[touchscreen]»).
@Suite("distances in millimetres and the touchscreen's output in the config")
struct MillimetreConfigTests {
    func errors(_ toml: String) throws -> [String] {
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "c.toml") }
        return thrown.errors.map(\.description)
    }

    @Test("each distance may be given in millimetres; its pixels stay the default")
    func readsMillimetres() throws {
        let config = try Config.parse("""
            [recognizer]
            slop_mm = 2.5
            multi_tap_distance_mm = 12
            swipe_min_mm = 20
            swipe_min_velocity_mm = 0.08
            edge_mm = 0
            stroke_min_mm = 15
            """, file: "c.toml")
        let s = config.settings
        #expect(s.slopMm == 2.5 && s.multiTapDistanceMm == 12 && s.swipeMinMm == 20 && s.swipeMinVelocityMm == 0.08)
        #expect(s.edgeMm == 0 && s.strokeMinMm == 15)
        #expect(s.swipeMinPx == RecognizerSettings().swipeMinPx)
    }

    @Test("one distance in pixels and in millimetres in one table is an error at the later one", arguments: [
        ("[recognizer]\nswipe_min_px = 80\nswipe_min_mm = 20\n", "c.toml:3:1"),
        ("[recognizer]\nswipe_min_mm = 20\nswipe_min_px = 80\n", "c.toml:3:1"),
        ("[recognizer.touchscreen]\nedge_mm = 3\nedge_px = 12\n", "c.toml:3:1"),
    ])
    func bothUnits(_ toml: String, _ place: String) throws {
        let found = try errors(toml)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix(place + ": '") == true, "\(found)")
        #expect(found.first?.hasSuffix("are the same threshold in two units: keep one of them") == true, "\(found)")
    }

    @Test("a device table's key replaces [recognizer]'s whichever unit either is in")
    func deviceTables() throws {
        let config = try Config.parse("""
            [recognizer]
            swipe_min_mm = 20
            edge_px = 30
            [recognizer.touchscreen]
            swipe_min_px = 100
            edge_mm = 4
            """, file: "c.toml")
        let engine = config.engineConfiguration
        let touchscreen = engine.settings(for: .touchscreen), pointer = engine.settings(for: .pointer)
        #expect(touchscreen.swipeMinMm == nil && touchscreen.swipeMinPx == 100 && touchscreen.edgeMm == 4)
        #expect(pointer.swipeMinMm == 20 && pointer.edgeMm == nil && pointer.edgePx == 30)
        #expect(config.notes.isEmpty)
    }

    @Test("millimetres in [recognizer.touchpad] have no effect, and say why; so do those the pointer never uses")
    func unusedMillimetres() throws {
        let config = try Config.parse("""
            [recognizer.touchpad]
            swipe_min_mm = 10
            [recognizer.pointer]
            multi_tap_distance_mm = 5
            swipe_min_mm = 12
            """, file: "c.toml")
        #expect(config.notes.map(\.description) == [
            "c.toml:2:1: 'swipe_min_mm' in [recognizer.touchpad] has no effect: a touchpad's distances are pointer motion, not lengths on the screen; write 'swipe_min_px'",
            "c.toml:4:1: 'multi_tap_distance_mm' in [recognizer.pointer] has no effect: a pointer gesture is a 1-finger long-press, swipe, pan or stroke",
        ])
    }

    @Test("bounds, zero and units are checked as for pixels", arguments: [
        ("[recognizer]\nedge_mm = 300\n", "c.toml:2:11: 'edge_mm' must be at most 250, not 300: more would make most gestures edge gestures"),
        ("[recognizer]\nswipe_min_mm = 0\n", "c.toml:2:16: 'swipe_min_mm' must be more than 0, not 0"),
        ("[recognizer]\nswipe_min_velocity_mm = 30\n", "c.toml:2:25: 'swipe_min_velocity_mm' must be at most 25, not 30: no hand moves faster than 25 mm per ms"),
        ("[recognizer]\nslop_mm = \"2\"\n", "c.toml:2:11: 'slop_mm' must be a number, not a string"),
        ("[recognizer]\nswipe_min_m = 3\n", "c.toml:2:1: unknown key 'swipe_min_m' in [recognizer]; did you mean 'swipe_min_mm'?"),
        ("edge_mm = 3\n", "c.toml:1:1: unknown key 'edge_mm'; 'edge_mm' belongs in [recognizer]: add a [recognizer] line above it"),
    ])
    func checked(_ toml: String, _ message: String) throws {
        #expect(try errors(toml) == [message])
    }

    @Test("[touchscreen] output: an output's name, or auto")
    func output() throws {
        #expect(try Config.parse("[touchscreen]\noutput = \"eDP-1\"\n", file: "c.toml").touchscreenOutput == .named("eDP-1"))
        #expect(try Config.parse("[touchscreen]\noutput = \"auto\"\nclaim_on_second_finger = true\n", file: "c.toml").touchscreenOutput == .automatic)
        #expect(try Config.parse("", file: "c.toml").touchscreenOutput == nil)
    }

    @Test("a bad output is an error at its value", arguments: [
        ("[touchscreen]\noutput = 1\n", #"c.toml:2:10: 'output' must be a string (an output's name as xrandr lists it, such as "eDP-1", or "auto"), not an integer"#),
        ("[touchscreen]\noutput = \" \"\n", #"c.toml:2:10: 'output' is empty: write an output's name as xrandr lists it ("eDP-1"), or "auto""#),
        ("[touchscreen]\noutput = \"\(String(repeating: "x", count: 65))\"\n", #"c.toml:2:10: 'output' is not an output's name: RandR names are short ("eDP-1", "HDMI-1"), not 65 characters"#),
        ("[touchscreen]\noutputs = \"eDP-1\"\n", "c.toml:2:1: unknown key 'outputs' in [touchscreen]; did you mean 'output'?"),
        ("output = \"eDP-1\"\n", "c.toml:1:1: unknown key 'output'; 'output' belongs in [touchscreen]: add a [touchscreen] line above it"),
    ])
    func badOutput(_ toml: String, _ message: String) throws {
        #expect(try errors(toml) == [message])
    }
}
