import Foundation
import GestureConfig
import Testing
@testable import X11Backend

/// The doctor looks at every action of an action list.
@Suite("doctor with action lists", .serialized)
struct DoctorActionListTests {
    @Test("a workspace action anywhere in a list counts: desktops beyond the count and a missing window manager are named")
    func listsAreInspected() throws {
        let config = """
            [[bind]]
            gesture = "pan"
            device = "pointer"
            hold = "alt"
            action = ["key ctrl+c", "workspace 7", "exec true"]
            """
        try XServer.with(windowManager: true) { server in
            let checks = try DoctorTests.run(server, config: config)
            let all = DoctorTests.text(checks)
            let desktops = try DoctorTests.check("desktops", in: checks)
            #expect(desktops.status == .warn && DoctorTests.has(desktops.details, "workspace 7"), "\(all)")
            let ewmh = try DoctorTests.check("ewmh", in: checks)
            #expect(ewmh.message.contains("_NET_CURRENT_DESKTOP"), "\(all)")
        }
        try XServer.with { server in
            let checks = try DoctorTests.run(server, config: config)
            let wm = try DoctorTests.check("window manager", in: checks)
            #expect(wm.status == .warn && wm.message.contains("1 binding with workspace or window actions"), "\(DoctorTests.text(checks))")
            // The binding is named on one line, its list as written.
            #expect(wm.details.count == 1)
            #expect(wm.details.first?.hasPrefix(#"pan with 1 finger on pointer → ["key ctrl+c", "workspace 7", "exec true"] ("#) == true, "\(wm.details)")
            #expect(wm.details.first?.hasSuffix("config.toml:1:1)") == true, "\(wm.details)")
        }
    }

    @Test("the hints of a list are those of its actions, each once")
    func hints() throws {
        let config = try Config.parse("""
            [[bind]]
            gesture = "swipe"
            action = ["workspace next", "window close", "workspace 2"]
            """, file: "c.toml")
        let binding = try #require(config.bindings.first)
        #expect(EWMHNeeds.hints(for: binding) == ["_NET_CURRENT_DESKTOP", "_NET_NUMBER_OF_DESKTOPS", "_NET_ACTIVE_WINDOW", "_NET_CLOSE_WINDOW"])
        #expect(binding.actions.contains { $0.desktopTarget == .next })
    }
}
