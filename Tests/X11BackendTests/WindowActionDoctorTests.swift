import CX11
import Testing
@testable import X11Backend

@Suite("doctor: the EWMH hints of the window and desktop actions")
struct WindowActionDoctorTests {
    static let config = """
        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "left"
        action = "window tile left"

        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = "window move-to-workspace next"

        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "down"
        action = "show-desktop"
        """

    @Test("openbox supports every hint the new actions use and can do each; a desktop beyond the count is a warning")
    func openbox() throws {
        try XServer.with(windowManager: true) { server in
            let checks = try DoctorTests.run(server, config: Self.config)
            let all = DoctorTests.text(checks)
            let ewmh = try DoctorTests.check("ewmh", in: checks)
            #expect(ewmh.status == .ok, "\(all)")
            for hint in ["_NET_ACTIVE_WINDOW", "_NET_WM_DESKTOP", "_NET_SHOWING_DESKTOP"] {
                #expect(ewmh.message.contains(hint), "\(all)")
            }
            // Per bound action, whether openbox can do it, and how.
            let actions = try DoctorTests.check("actions", in: checks)
            #expect(actions.status == .ok && actions.message == "Openbox can do all 3 bound workspace and window actions", "\(all)")
            #expect(actions.details == [
                "window tile left: yes: _NET_MOVERESIZE_WINDOW, within _NET_WORKAREA",
                "window move-to-workspace next: yes: _NET_WM_DESKTOP, then _NET_CURRENT_DESKTOP",
                "show-desktop: yes: _NET_SHOWING_DESKTOP",
            ], "\(all)")
            let beyond = try DoctorTests.run(server, config: Self.config.replacing("move-to-workspace next", with: "move-to-workspace 9"))
            let desktops = try DoctorTests.check("desktops", in: beyond)
            #expect(desktops.status == .warn && DoctorTests.has(desktops.details, "window move-to-workspace 9"), "\(DoctorTests.text(beyond))")
        }
    }

    @Test("a window manager that lists neither _NET_SHOWING_DESKTOP nor _NET_MOVERESIZE_WINDOW: show-desktop cannot work, tile can")
    func missingHints() throws {
        try XServer.with { server in
            let wm = try pretendWindowManager(server, supporting: [
                "_NET_ACTIVE_WINDOW", "_NET_WM_STATE", "_NET_CLIENT_LIST", "_NET_FRAME_EXTENTS",
                "_NET_CURRENT_DESKTOP", "_NET_NUMBER_OF_DESKTOPS", "_NET_WM_DESKTOP",
            ])
            let checks = try DoctorTests.run(server, config: Self.config)
            let ewmh = try DoctorTests.check("ewmh", in: checks)
            #expect(ewmh.status == .warn, "\(DoctorTests.text(checks))")
            #expect(ewmh.message.contains("does not list _NET_SHOWING_DESKTOP in _NET_SUPPORTED: 1 binding may not work"),
                    "\(DoctorTests.text(checks))")
            // Tile does without _NET_MOVERESIZE_WINDOW (a ConfigureRequest) and _NET_WORKAREA.
            let actions = try DoctorTests.check("actions", in: checks)
            #expect(actions.status == .warn, "\(DoctorTests.text(checks))")
            #expect(DoctorTests.has(actions.details, "window tile left: yes: a ConfigureRequest", "within the monitor less the panels' struts"),
                    "\(DoctorTests.text(checks))")
            #expect(DoctorTests.has(actions.details, "show-desktop: no:", "does not list _NET_SHOWING_DESKTOP"), "\(DoctorTests.text(checks))")
            withExtendedLifetime(wm) {}
        }
    }
}
