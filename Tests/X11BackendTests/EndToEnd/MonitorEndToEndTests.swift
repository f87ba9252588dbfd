import Foundation
import GestureEngine
import Testing

@testable import X11Backend

/// docs/interface.md, «Monitors», live: Xvfb's one 1280×800 screen split into two RandR 1.5 monitors by
/// `xrandr --setmonitor`, the real binary, openbox with 4 desktops, xdotool for the hand.
@Suite("monitors, end to end", .serialized)
struct MonitorEndToEndTests {
    /// A right-drag right: desktop 2 from the left edge of monitor `right`, desktop 3 from the
    /// right edge of monitor `left` (rightwards from there is impossible, so leftwards), desktop
    /// 4 anywhere else.
    static let config = """
        [[bind]]
        gesture = "swipe"
        direction = "right"
        edge = "left"
        monitor = "right"
        action = "workspace 2"

        [[bind]]
        gesture = "swipe"
        direction = "left"
        edge = "right"
        monitor = "left"
        action = "workspace 3"

        [[bind]]
        gesture = "swipe"
        action = "workspace 4"
        """

    func split(_ server: XServer) throws {
        try tool(server, "xrandr", "--setmonitor", "left", "640/169x800/127+0+0", "none")
        try tool(server, "xrandr", "--setmonitor", "right", "640/169x800/127+640+0", "none")
    }

    @Test("an edge swipe from the inner edge fires the edge binding of the monitor it started on")
    func innerEdge() throws {
        try XServer.with(windowManager: true) { server in
            try split(server)
            let daemon = try DaemonProcess(server, config: Self.config)
            let client = try XClient(server.name)
            #expect(client.currentDesktop() == 0)
            try rightDrag(server, from: 641, 400, by: 300)
            #expect(poll { client.currentDesktop() == 1 }, "\(daemon.output)")
            try rightDrag(server, from: 635, 400, by: -300)
            #expect(poll { client.currentDesktop() == 2 }, "\(daemon.output)")
            try rightDrag(server, from: 900, 400, by: 300)
            #expect(poll { client.currentDesktop() == 3 }, "\(daemon.output)")
        }
    }

    @Test("monitors set while the daemon runs are followed: the split makes an inner edge")
    func followsSetMonitor() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: Self.config)
            let client = try XClient(server.name)
            // One monitor, the whole screen: 641 is no edge.
            try rightDrag(server, from: 641, 400, by: 300)
            #expect(poll { client.currentDesktop() == 3 }, "\(daemon.output)")
            try split(server)
            try rightDrag(server, from: 641, 400, by: 300)
            #expect(poll { client.currentDesktop() == 1 }, "\(daemon.output)")
            // Monitor `left` removed: `right` stays, and `screen` (uncovered again) comes back.
            try tool(server, "xrandr", "--delmonitor", "left")
            try rightDrag(server, from: 635, 400, by: -300)
            #expect(poll { client.currentDesktop() == 3 }, "\(daemon.output)")
        }
    }

    @Test("`record` on two monitors, then `replay`, gives the lines the dry run printed live")
    func recordThenReplay() throws {
        try XServer.with(windowManager: false) { server in
            try split(server)
            let dir = DaemonProcess.makeDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let trace = dir.appendingPathComponent("monitors.trace")
            // The two cannot select the same input at once: the same hand, once for each.
            func drags() throws {
                try rightDrag(server, from: 641, 400, by: 300)
                try rightDrag(server, from: 635, 400, by: -300)
                try rightDrag(server, from: 900, 300, by: 300)
            }
            let dryRun = try DaemonProcess(server, config: Self.config, arguments: ["--dry-run", "--json"])
            try drags()
            let json = { dryRun.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"t\":") } }
            #expect(poll { json().count == 3 }, "\(dryRun.output)")
            dryRun.signal(SIGINT)
            #expect(dryRun.waitForExit() == 0, "\(dryRun.output)")
            let recorder = try DaemonProcess(server, config: Self.config, arguments: ["record", trace.path])
            try drags()
            #expect(poll { ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").components(separatedBy: "button-release").count == 4 })
            recorder.signal(SIGINT)
            #expect(recorder.waitForExit() == 0, "\(recorder.output)")

            let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            // The monitors' physical sizes are those `--setmonitor` gave (640/169x800/127).
            #expect(text.hasPrefix(#"{"t":0,"type":"screen","width":1280,"height":800,"monitors":[{"name":"left","x":0,"y":0,"width":640,"height":800,"width_mm":169,"height_mm":127},{"name":"right","x":640,"y":0,"width":640,"height":800,"width_mm":169,"height_mm":127}]}"#), "\(text)")
            let replay = try runToCompletion([DaemonProcess.executable, "replay", trace.path, "--json", "--config", dryRun.configFile.path], timeout: .seconds(20))
            #expect(replay.status == 0, "\(replay.output)")
            let replayed = replay.output.split(separator: "\n").map(String.init)
            // The same lines but for the time: the hand came twice, at different server times.
            func untimed(_ lines: [String]) -> [String] { lines.map { $0.replacing(/^\{"t":[0-9.]+,/, with: "{") } }
            #expect(untimed(replayed) == untimed(json()), "replay:\n\(replay.output)\ndry run:\n\(dryRun.output)")
            #expect(json().map { $0.contains(#""monitor":"right""#) } == [true, false, true], "\(json())")
            #expect(json().first?.contains(#""edge":"left","monitor":"right""#) == true, "\(json())")
            #expect(json().first?.contains(#""action":"workspace 2""#) == true, "\(json())")
            #expect(json().dropFirst().first?.contains(#""edge":"right","monitor":"left""#) == true, "\(json())")
        }
    }

    @Test("the doctor shows the built list, without the screen-sized monitor the split covers")
    func doctorLine() throws {
        try XServer.with(windowManager: false) { server in
            try split(server)
            let display = try X11Display(name: server.name)
            let randr = try display.randrMonitors() ?? []
            #expect(randr.map(\.name).sorted() == ["left", "right", "screen"])
            #expect(display.gestureMonitors().map(\.name) == ["left", "right"])
        }
    }
}
