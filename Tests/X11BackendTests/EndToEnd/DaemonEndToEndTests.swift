import CX11
import Foundation
import Testing

/// The real binary on Xvfb with openbox (4 desktops), driven through XTest (xdotool).
@Suite("the daemon, end to end", .serialized)
struct DaemonEndToEndTests {
    static let pointerConfig = pointerSwipeBindings + """

        [[bind]]
        gesture = "long-press"
        device = "pointer"
        action = "key ctrl+shift+a"
        """

    @Test("a fast right-button drag right and left switches the desktop and back")
    func dragSwitchesDesktops() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: Self.pointerConfig)
            let client = try XClient(server.name)
            #expect(client.currentDesktop() == 0)
            try rightDrag(server, from: 300, 300, by: 300)
            #expect(poll { client.currentDesktop() == 1 }, "\(daemon.output)")
            try rightDrag(server, from: 700, 300, by: -300)
            #expect(poll { client.currentDesktop() == 0 }, "\(daemon.output)")
        }
    }

    @Test("a right-button hold injects the bound key, which the focused window receives")
    func holdInjectsKey() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 600, height: 400)
            let daemon = try DaemonProcess(server, config: Self.pointerConfig)
            try tool(server, "xdotool", "mousemove", "300", "300", "mousedown", "3")
            usleep(800_000)
            try tool(server, "xdotool", "mouseup", "3")
            let events = window.waitForEvents(6)
            let presses = events.filter { $0.kind == .keyPress }
            #expect(presses.count == 3, "\(events) \(daemon.output)")
            // With Control and Shift held, the third key means "A".
            #expect(presses.last.map { $0.keysym == UInt(XK_A) || $0.keysym == UInt(XK_a) } == true, "\(events)")
            #expect(!events.contains { $0.kind == .buttonPress }, "the hold was a gesture, not a click: \(events)")
        }
    }

    @Test("pointer gestures bound to pointer actions: a right-drag scrolls and a right-button hold middle-clicks the window under the pointer")
    func pointerGestureInjectsPointerActions() throws {
        let config = """
            [[bind]]
            gesture = "swipe"
            device = "pointer"
            direction = "right"
            action = "scroll down 2"

            [[bind]]
            gesture = "long-press"
            device = "pointer"
            action = "click middle"
            """
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 600, height: 400)
            let daemon = try DaemonProcess(server, config: config)
            let mouse = try PointerDriver(server)
            let (x, y) = window.centre()
            window.reset()
            // The drag is claimed; its scroll waits until the button is released: the window
            // gets the two wheel clicks, and never the press of button 3.
            mouse.fastDrag(from: x - 150, y, by: 300, 0)
            var events = window.waitForEvents(4)
            usleep(100_000)
            events = window.waitForEvents(0, timeout: .zero)
            #expect(events.filter { $0.detail != 3 }.map(\.detail) == [5, 5, 5, 5], "\(events) \(daemon.output)")
            #expect(!events.contains { $0.detail == 3 && $0.kind == .buttonPress }, "\(events)")
            window.reset()
            // A right-button hold middle-clicks where the pointer is.
            mouse.move(to: x, y)
            mouse.hold(.milliseconds(800))
            events = window.waitForEvents(3)
            let middle = events.filter { $0.detail == 2 }
            #expect(middle.map(\.kind) == [.buttonPress, .buttonRelease], "\(events) \(daemon.output)")
            #expect(middle.first.map { ($0.rootX, $0.rootY) == (x, y) } == true, "\(middle)")
            #expect(!events.contains { $0.detail == 3 && $0.kind == .buttonPress }, "\(events)")
            #expect(!daemon.output.contains("error"), "\(daemon.output)")
            // Pointer gestures still work after both.
            window.reset()
            mouse.fastDrag(from: x - 150, y, by: 300, 0)
            #expect(window.waitForEvents(4).filter { $0.detail == 5 }.count == 4, "\(window.received) \(daemon.output)")
        }
    }

    @Test("a plain right click still reaches the application window")
    func plainClickReachesApplication() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 600, height: 400)
            let daemon = try DaemonProcess(server, config: Self.pointerConfig)
            let (x, y) = window.centre()
            try tool(server, "xdotool", "mousemove", "\(x)", "\(y)", "click", "3")
            let events = window.waitForEvents(2)
            #expect(events.map(\.kind) == [.buttonPress, .buttonRelease], "\(events) \(daemon.output)")
            #expect(events.first?.detail == 3)
        }
    }

    @Test("--dry-run reports the gesture and changes nothing")
    func dryRunChangesNothing() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: Self.pointerConfig, arguments: ["--dry-run", "--json"])
            let client = try XClient(server.name)
            try rightDrag(server, from: 300, 300, by: 300)
            #expect(poll { daemon.output.contains(#""gesture":"swipe""#) }, "\(daemon.output)")
            #expect(daemon.output.contains(#""action":"workspace next""#))
            usleep(200_000)
            #expect(client.currentDesktop() == 0)
        }
    }

    @Test("SIGTERM ends it with exit 0 and leaves no key or button down")
    func sigtermIsClean() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: Self.pointerConfig)
            let client = try XClient(server.name)
            try tool(server, "xdotool", "mousemove", "300", "300", "mousedown", "3")
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output)")
            try tool(server, "xdotool", "mouseup", "3")
            #expect(client.keysDown().isEmpty)
            #expect(poll { client.buttonsDown() == 0 })
        }
    }

    @Test("killing the X server ends the daemon with exit 1, naming the display")
    func xServerLossEndsDaemon() throws {
        let server = try XServer.start()
        let daemon = try DaemonProcess(server, config: Self.pointerConfig)
        server.kill()
        let status = daemon.waitForExit()
        #expect(status == 1, "\(daemon.output)")
        #expect(daemon.output.contains(server.name))
        server.stop()
    }

    @Test("SIGHUP with a broken config keeps the old bindings working")
    func brokenReloadKeepsOldConfig() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: Self.pointerConfig)
            let client = try XClient(server.name)
            try "[[bind]]\ngesture = \"swipe\"\ndirection = \"sideways\"\naction = \"workspace next\"\n"
                .write(to: daemon.configFile, atomically: false, encoding: .utf8)
            daemon.signal(SIGHUP)
            #expect(poll { daemon.output.contains("config.toml:3:13:") }, "\(daemon.output)")
            try rightDrag(server, from: 300, 300, by: 300)
            #expect(poll { client.currentDesktop() == 1 }, "\(daemon.output)")
        }
    }

    @Test("a change of the config file reloads it")
    func fileChangeReloads() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: Self.pointerConfig)
            let client = try XClient(server.name)
            try "[[bind]]\ngesture = \"swipe\"\ndevice = \"pointer\"\ndirection = \"right\"\naction = \"workspace 3\"\n"
                .write(to: daemon.configFile, atomically: false, encoding: .utf8)
            #expect(poll { daemon.output.contains("config reloaded") }, "\(daemon.output)")
            try rightDrag(server, from: 300, 300, by: 300)
            #expect(poll { client.currentDesktop() == 2 }, "\(daemon.output)")
        }
    }

    @Test("a second instance on the same display says so and exits 1")
    func secondInstanceRefused() throws {
        try XServer.with { server in
            let first = try DaemonProcess(server, config: Self.pointerConfig)
            // Same runtime dir: the lock lives there.
            let environment = ["DISPLAY": server.name, "XDG_RUNTIME_DIR": first.configFile.deletingLastPathComponent().path, "PATH": "/usr/bin:/bin"]
            let log = first.configFile.deletingLastPathComponent().appendingPathComponent("second.log")
            let second = try ChildProcess([DaemonProcess.executable, "--config", first.configFile.path], environment: environment, log: log.path)
            var status: Int32 = 0
            #expect(poll(timeout: .seconds(10)) { waitpid(second.pid, &status, WNOHANG) == second.pid })
            #expect((status >> 8) & 0xff == 1)
            #expect(((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("already running"))
        }
    }
}
