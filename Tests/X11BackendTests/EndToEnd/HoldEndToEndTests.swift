import CX11
import Foundation
import GestureTestKit
import Testing

/// Held keys live: the real binary on Xvfb with openbox, right-drags from the test's own XTest
/// mouse, and a client that records the raw key events every client could see.
@Suite("held keys, end to end", .serialized)
struct HoldEndToEndTests {
    /// The window-switching pair of docs/config.md, on right-drags.
    static let config = HoldConfigs.pointerWindowSwitching

    /// openbox's stock window cycling (its default rc has the same), which the test rc lacks.
    static let cycling = """
        <keyboard>
          <keybind key="A-Tab"><action name="NextWindow"><finalactions><action name="Focus"/><action name="Raise"/></finalactions></action></keybind>
          <keybind key="A-S-Tab"><action name="PreviousWindow"><finalactions><action name="Focus"/><action name="Raise"/></finalactions></action></keybind>
        </keyboard>
        """

    struct Session {
        let server: XServer
        let daemon: DaemonProcess
        let mouse: PointerDriver
        let keys: RawKeyObserver
        let client: XClient
        let alt: UInt8

        /// Whether the server has Alt down now.
        var altIsDown: Bool { client.keysDown().contains(alt) }

        /// Presses the right button and drags 150 px right, into a running pan that holds Alt.
        func dragHoldingAlt() {
            mouse.press()
            mouse.drag(by: 150, 0, steps: 6, pause: .milliseconds(30))
            #expect(poll { altIsDown }, "Alt is not down during the drag: \(daemon.output)")
        }
    }

    static func withSession<R>(windows: Int = 0, _ body: (Session, [EventWindow]) throws -> R) throws -> R {
        try XServer.with(windowManager: true, openboxRC: cycling) { server in
            let client = try XClient(server.name)
            var managed: [EventWindow] = []
            for k in 0..<windows {
                managed.append(try EventWindow(server: server.name, x: 60 + 180 * k, y: 60 + 60 * k, width: 400, height: 300))
            }
            // Focused in order: openbox cycles from the last focused to the one before.
            for window in managed {
                // Once openbox manages it (reparented into a frame); asked again until it is active.
                #expect(poll(timeout: .seconds(10)) { window.parent() != client.root }, "openbox does not manage the window")
                #expect(poll(timeout: .seconds(10)) {
                    client.setActiveWindow(window.window)
                    return poll(timeout: .milliseconds(200)) { client.window("_NET_ACTIVE_WINDOW", of: client.root) == window.window }
                })
            }
            let daemon = try DaemonProcess(server, config: config)
            let keys = try RawKeyObserver(server: server.name)
            let alt = try #require(client.keycode(ofUnshifted: keysym("Alt_L")))
            let session = Session(server: server, daemon: daemon, mouse: try PointerDriver(server), keys: keys, client: client, alt: alt)
            session.mouse.move(to: 900, 700)
            return try body(session, managed)
        }
    }

    /// The raw key lines between Alt's press and release, as `T` (Tab) and `S` (Shift+Tab)
    /// letters; `nil` if they are anything else.
    static func steps(_ lines: [String]) -> String? {
        guard lines.first == "down Alt_L", lines.last == "up Alt_L" else { return nil }
        var inner = lines.dropFirst().dropLast()
        var steps = ""
        while !inner.isEmpty {
            if inner.starts(with: ["down Tab", "up Tab"]) {
                steps += "T"
                inner = inner.dropFirst(2)
            } else if inner.starts(with: ["down Shift_L", "down Tab", "up Tab", "up Shift_L"]) {
                steps += "S"
                inner = inner.dropFirst(4)
            } else {
                return nil
            }
        }
        return steps
    }

    @Test("a right-drag right then left holds Alt, presses Tab per step and Shift+Tab back, releases Alt, and openbox cycles the windows")
    func windowSwitching() throws {
        try Self.withSession(windows: 3) { s, windows in
            let order = windows.reversed().map(\.window)  // openbox's focus order: the last focused first
            #expect(s.client.window("_NET_ACTIVE_WINDOW", of: s.client.root) == order[0])
            s.keys.reset()
            s.mouse.press()
            s.mouse.drag(by: 250, 0, steps: 10, pause: .milliseconds(30))
            #expect(poll { s.altIsDown }, "Alt is not down during the gesture: \(s.keys.pump()) \(s.daemon.output)")
            s.mouse.drag(by: -130, 0, steps: 6, pause: .milliseconds(30))
            #expect(s.altIsDown)
            s.mouse.release()
            #expect(poll { s.keys.pump().last == "up Alt_L" }, "\(s.keys.pump()) \(s.daemon.output)")
            #expect(!s.altIsDown)
            let lines = s.keys.pump()
            let steps = try #require(Self.steps(lines), "\(lines)")
            // Tab at the start and per 100 px right, Shift+Tab per 100 px back.
            #expect(steps.hasPrefix("TT") && steps.hasSuffix("S") && !steps.contains("ST"), "\(steps)")
            let net = steps.filter { $0 == "T" }.count - steps.filter { $0 == "S" }.count
            let expected = order[((net % order.count) + order.count) % order.count]
            #expect(poll { s.client.window("_NET_ACTIVE_WINDOW", of: s.client.root) == expected },
                    "steps \(steps): active \(String(describing: s.client.window("_NET_ACTIVE_WINDOW", of: s.client.root))), expected \(expected) of \(order)")
            #expect(expected != order[0])
            // The log line is written after the keys went out, so the listener can see Alt's
            // release first: wait for it.
            #expect(poll { s.daemon.output.contains("pan ended: released alt") }, "\(s.daemon.output)")
        }
    }

    @Test("SIGTERM in the middle of a held drag releases Alt before the daemon exits")
    func sigterm() throws {
        try Self.withSession { s, _ in
            s.keys.reset()
            s.dragHoldingAlt()
            s.daemon.signal(SIGTERM)
            #expect(s.daemon.waitForExit() == 0, "\(s.daemon.output)")
            s.mouse.release()
            // The daemon let go itself, from the cancelled gesture (not its watcher after the exit,
            // nor the performer's last sweep, which would log "released held input").
            #expect(s.daemon.output.contains("pan cancelled: released alt"), "\(s.daemon.output)")
            #expect(!s.daemon.output.contains("released held input"), "\(s.daemon.output)")
            #expect(!s.altIsDown)
            #expect(poll { s.keys.pump().last == "up Alt_L" }, "\(s.keys.pump())")
        }
    }

    @Test("a reload in the middle of a held drag releases Alt while the daemon runs on, and the next drag holds it again")
    func reload() throws {
        try Self.withSession { s, _ in
            s.dragHoldingAlt()
            s.daemon.signal(SIGHUP)
            #expect(poll { !s.altIsDown }, "Alt stayed down after the reload: \(s.daemon.output)")
            #expect(s.daemon.process.isRunning)
            #expect(poll { s.daemon.output.contains("pan cancelled: released alt") }, "\(s.daemon.output)")
            s.mouse.release()

            s.keys.reset()
            s.dragHoldingAlt()
            s.mouse.release()
            #expect(poll { !s.altIsDown }, "\(s.daemon.output)")
            #expect(poll { s.keys.pump().last == "up Alt_L" }, "\(s.keys.pump())")
            #expect(s.keys.pump().first == "down Alt_L")
        }
    }

    @Test("the screen saver starting in the middle of a held drag cancels it and releases Alt")
    func screenSaverCancels() throws {
        try Self.withSession { s, _ in
            s.dragHoldingAlt()
            try tool(s.server, "xset", "s", "activate")
            #expect(poll { !s.altIsDown }, "Alt stayed down under the screen saver: \(s.daemon.output)")
            #expect(s.daemon.process.isRunning)
            #expect(poll { s.daemon.output.contains("pan cancelled: released alt") }, "\(s.daemon.output)")
            s.mouse.release()
            try tool(s.server, "xset", "s", "reset")
        }
    }
}
