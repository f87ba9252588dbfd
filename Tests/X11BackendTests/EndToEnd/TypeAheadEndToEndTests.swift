import CX11
import Foundation
import Testing

/// A key bound to a pointer swipe is typed at the motion that completes the swipe, before the
/// motion goes through the pipeline (``KeyArm``); the key action then only releases it. What
/// the application receives must be exactly what the binding says, once.
@Suite("keys typed ahead of the pipeline, end to end", .serialized)
struct TypeAheadEndToEndTests {
    static let config = """
        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = "key ctrl+A"

        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "left"
        action = ["key F5", "key F6"]

        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "down"
        action = ["workspace next", "key F7"]
        """

    /// The keys `events` hold, as "+name" for a press and "-name" for a release.
    static func keys(_ events: [EventWindow.Received]) -> [String] {
        events.compactMap { event in
            guard event.kind == .keyPress || event.kind == .keyRelease else { return nil }
            let name = XKeysymToString(KeySym(event.keysym)).map { String(cString: $0) } ?? "\(event.keysym)"
            return (event.kind == .keyPress ? "+" : "-") + name
        }
    }

    @Test("a right-drag types its combo once, ahead; a binding's later keys and a key after another action as ever")
    func typedAheadOnce() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 900, height: 600)
            let daemon = try DaemonProcess(server, config: Self.config, arguments: ["--verbose"])
            let (x, y) = window.centre()
            try rightDrag(server, from: x - 150, y, by: 300)
            var events = window.waitForEvents(6)
            // Shift for the capital A, after Control: the order `key ctrl+A` says.
            #expect(Self.keys(events) == ["+Control_L", "+Shift_L", "+A", "-A", "-Shift_L", "-Control_L"], "\(events) \(daemon.output)")
            window.reset()
            try rightDrag(server, from: x + 150, y, by: -300)
            events = window.waitForEvents(4)
            #expect(Self.keys(events) == ["+F5", "-F5", "+F6", "-F6"], "\(events) \(daemon.output)")
            #expect(!events.contains { $0.kind == .buttonPress }, "the drags were gestures, not clicks: \(events)")
            let log = daemon.output
            #expect(log.components(separatedBy: "typed Control_L+A ahead").count == 2, "\(log)")
            #expect(log.components(separatedBy: "typed F5 ahead").count == 2, "\(log)")
            #expect(!log.contains("typed F6 ahead"), "only a binding's first key is typed ahead: \(log)")
            #expect(!log.contains("bug in gesture-bridge"), "\(log)")
        }
    }

    /// The scheduling policy of the daemon's main thread (`/proc/PID/stat`, field 41): 0
    /// `SCHED_OTHER`, 3 `SCHED_BATCH`.
    static func policy(_ daemon: DaemonProcess) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(daemon.process.pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 38 ? Int(fields[38]) : nil
    }

    /// Waits up to 5 s for the daemon's policy to be `wanted`.
    static func waitForPolicy(_ daemon: DaemonProcess, _ wanted: Int) -> Bool {
        for _ in 0..<500 {
            if policy(daemon) == wanted { return true }
            usleep(10_000)
        }
        return false
    }

    @Test("the daemon runs as SCHED_BATCH while a drag's next motion cannot complete its swipe, as an ordinary task once it may")
    func batchWhileQuiet() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 900, height: 600)
            let daemon = try DaemonProcess(server, config: Self.config)
            let (x, y) = window.centre()
            #expect(Self.policy(daemon) == 0)
            try tool(server, "xdotool", "mousemove", "\(x - 150)", "\(y)", "mousedown", "3")
            for _ in 0..<3 { try tool(server, "xdotool", "mousemove_relative", "--", "4", "0") }
            #expect(Self.waitForPolicy(daemon, 3), "\(daemon.output)")
            for _ in 0..<6 { try tool(server, "xdotool", "mousemove_relative", "--", "30", "0") }
            try tool(server, "xdotool", "mouseup", "3")
            let events = window.waitForEvents(6)
            #expect(Self.keys(events) == ["+Control_L", "+Shift_L", "+A", "-A", "-Shift_L", "-Control_L"], "\(events) \(daemon.output)")
            #expect(Self.waitForPolicy(daemon, 0), "\(daemon.output)")
        }
    }

    @Test("a key not on the keyboard is not typed ahead: its action lends it a keycode and types it, once, as ever")
    func unmappedKeyAsEver() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 900, height: 600)
            let before = window.client.keyboardMapping()
            let candidates = ["XF86Calculater", "XF86Launch9", "XF86TouchpadToggle", "XF86Game", "XF86Phone"]
            let name = try #require(candidates.first { !before.keysyms.contains(keysym($0)) }, "every candidate keysym is mapped")
            let config = "[[bind]]\ngesture = \"swipe\"\ndevice = \"pointer\"\ndirection = \"right\"\naction = \"key \(name)\"\n"
            let daemon = try DaemonProcess(server, config: config, arguments: ["--verbose"])
            let (x, y) = window.centre()
            for round in 0..<2 {
                window.reset()
                try rightDrag(server, from: x - 150, y, by: 300)
                let events = window.waitForEvents(2)
                #expect(Self.keys(events) == ["+\(name)", "-\(name)"], "round \(round): \(events) \(daemon.output)")
            }
            #expect(!daemon.output.contains("ahead"), "\(daemon.output)")
        }
    }

    @Test("a drag bound to a workspace action first types its key after it, as ever")
    func keyAfterAnotherAction() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 900, height: 600)
            let daemon = try DaemonProcess(server, config: Self.config, arguments: ["--verbose"])
            let client = try XClient(server.name)
            let (x, y) = window.centre()
            try tool(server, "xdotool", "mousemove", "\(x)", "\(y - 150)", "mousedown", "3")
            for _ in 0..<6 {
                try tool(server, "xdotool", "mousemove_relative", "--", "0", "50")
                usleep(15_000)
            }
            try tool(server, "xdotool", "mouseup", "3")
            #expect(poll { client.currentDesktop() == 1 }, "\(daemon.output)")
            #expect(!daemon.output.contains("ahead"), "\(daemon.output)")
            #expect(!daemon.output.contains("bug in gesture-bridge"), "\(daemon.output)")
        }
    }
}
