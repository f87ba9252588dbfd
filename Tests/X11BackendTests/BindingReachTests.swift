import GestureConfig
import GestureEngine
import Testing
import X11Backend

/// The doctor's touchscreen and touchpad checks need no X server: they are judged from the
/// devices found.
@Suite("which bindings can fire, as the doctor lists them")
struct BindingReachTests {
    static let defaults = try! Config.load(from: .embedded)

    /// The details of the checks that name bindings, each a binding's description.
    static func named(_ reach: BindingReach) -> [String] {
        reach.touchscreenCheck.details + reach.touchpadCheck.details
    }

    @Test("A desktop with a mouse only: each binding that cannot fire is named once, under touchscreen")
    func mouseOnly() {
        let reach = BindingReach(config: Self.defaults, devices: [], xinput: .gestures)
        let touchscreen = reach.touchscreenCheck
        let touchpad = reach.touchpadCheck
        #expect(touchscreen.status == .warn && touchscreen.details.count == 5, "\(touchscreen)")
        #expect(touchpad.status == .warn && touchpad.details.isEmpty, "\(touchpad)")
        #expect(touchpad.message == "none on this display: 4 bindings that only a touchpad (or a touchscreen) can make cannot fire (named under touchscreen)")
        let named = Self.named(reach)
        #expect(Set(named).count == named.count, "\(named)")
        #expect(Set(named) == Set(reach.stranded.map(BindingReach.describe)))
    }

    @Test("A touchpad-only binding is named under touchpad, the shared ones counted")
    func touchpadOnly() throws {
        let config = try Config.parse("""
            [[bind]]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            action = "workspace next"

            [[bind]]
            gesture = "pinch"
            device = "touchpad"
            direction = "in"
            action = "key ctrl+minus"
            """, file: "c.toml")
        let reach = BindingReach(config: config, devices: [], xinput: .gestures)
        #expect(reach.touchscreenCheck.details == ["swipe left with 3 fingers → workspace next (c.toml:1:1)"])
        let touchpad = reach.touchpadCheck
        #expect(touchpad.details == ["pinch in with 2 fingers on touchpad → key ctrl+minus (c.toml:7:1)"])
        #expect(touchpad.message.hasSuffix("2 bindings that only a touchpad (or a touchscreen) can make cannot fire (1 of them named under touchscreen)"),
                "\(touchpad.message)")
    }
}
