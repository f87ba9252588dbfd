import CX11
import Foundation
import Testing

/// Modifier keys and trigger buttons, with the real binary on Xvfb and openbox (4 desktops),
/// driven through XTest (docs/interface.md, «Modifier keys and trigger buttons»). The user's
/// modifier keys are xdotool's (`keydown super`): Xvfb has no other keyboard.
@Suite("modifier keys and trigger buttons, end to end", .serialized)
struct ModifierEndToEndTests {
    /// How long a press takes to reach the window under the pointer, held still: from the
    /// moment the server has it (the XTest request synced) to the window reading it.
    static func pressDelay(_ mouse: PointerDriver, _ window: EventWindow, button: UInt32) -> Duration? {
        window.reset()
        let start = ContinuousClock.now
        mouse.press(button)
        defer { mouse.release(button) }
        let arrived = poll(timeout: .seconds(2)) {
            window.pump()
            return window.received.contains { $0.kind == .buttonPress && $0.detail == Int(button) }
        }
        return arrived ? ContinuousClock.now - start : nil
    }

    @Test("Super + left-drag fires, and a plain left click reaches the window at once (nothing waits for it)")
    func superLeftDragAndPlainLeftClick() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 600, height: 400)
            let daemon = try DaemonProcess(server, config: superLeftConfig)
            let client = try XClient(server.name)
            let mouse = try PointerDriver(server)
            let (x, y) = window.centre()
            mouse.move(to: x, y)
            // A plain left press, held still: never grabbed, so it is the window's at once. A
            // grabbed right press held still waits until a swipe can no longer happen (267 ms).
            var left: [Duration] = [], right: [Duration] = []
            for _ in 0..<5 {
                left.append(try #require(Self.pressDelay(mouse, window, button: 1), "\(window.received) \(daemon.output)"))
                right.append(try #require(Self.pressDelay(mouse, window, button: 3), "\(window.received) \(daemon.output)"))
            }
            print("a held still press reaches the window after: left (Super + left bound) \(left), right (plain right bound) \(right)")
            #expect(left.allSatisfy { $0 < .milliseconds(100) }, "left \(left)")
            #expect(right.allSatisfy { $0 >= .milliseconds(200) }, "right \(right)")
            #expect(client.currentDesktop() == 0)
            // Super + left-drag: the next desktop, and the window sees no left press.
            window.reset()
            try tool(server, "xdotool", "keydown", "super")
            mouse.fastDrag(from: x - 150, y, by: 300, 0, button: 1)
            try tool(server, "xdotool", "keyup", "super")
            #expect(poll { client.currentDesktop() == 1 }, "\(daemon.output)")
            usleep(100_000)
            window.pump()
            #expect(!window.received.contains { $0.kind == .buttonPress && $0.detail == 1 }, "\(window.received)")
            #expect(client.keysDown().isEmpty)
            #expect(client.buttonsDown() == 0)
        }
    }

    @Test("a Ctrl + right drag fires its own binding beside a plain right binding")
    func ctrlRightBesidePlainRight() throws {
        let config = pointerSwipe("right", action: "workspace next")
            + pointerSwipe("right", modifiers: "ctrl", action: "workspace 3")
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: config)
            let client = try XClient(server.name)
            let mouse = try PointerDriver(server)
            try tool(server, "xdotool", "keydown", "ctrl")
            mouse.fastDrag(from: 300, 300, by: 300, 0)
            try tool(server, "xdotool", "keyup", "ctrl")
            #expect(poll { client.currentDesktop() == 2 }, "workspace 3: \(daemon.output)")
            mouse.fastDrag(from: 300, 300, by: 300, 0)
            #expect(poll { client.currentDesktop() == 3 }, "workspace next: \(daemon.output)")
            #expect(client.keysDown().isEmpty)
        }
    }

    /// What a window saw of `key`: each press with the modifiers of its state.
    static func presses(_ events: [EventWindow.Received]) -> [String] {
        events.filter { $0.kind == .keyPress }.map { event in
            let name = XKeysymToString(event.keysym).map { String(cString: $0) } ?? "?"
            return "\(name) \(HeldModifierKeyTests.modifierNames(event.state))"
        }
    }

    @Test("key actions under held modifiers reach a listening window with exactly the written modifiers")
    func keysArriveExact() throws {
        let config = pointerSwipe("right", button: 1, modifiers: "super", action: "key ctrl+c")
            + pointerSwipe("right", modifiers: "ctrl", action: "key ctrl+shift+b")
            + pointerSwipe("right", modifiers: "alt", action: "key ctrl+shift+b")
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 600, height: 400)
            let daemon = try DaemonProcess(server, config: config)
            let client = try XClient(server.name)
            let mouse = try PointerDriver(server)
            let (x, y) = window.centre()
            for (held, button, expected) in [
                ("super", UInt32(1), "c [ctrl]"), ("ctrl", UInt32(3), "B [shift+ctrl]"), ("alt", UInt32(3), "B [shift+ctrl]"),
            ] {
                try tool(server, "xdotool", "keydown", held)
                window.reset()
                mouse.fastDrag(from: x - 150, y, by: 300, 0, button: button)
                let fired = poll {
                    window.pump()
                    return Self.presses(window.received).contains(expected)
                }
                try tool(server, "xdotool", "keyup", held)
                usleep(50_000)
                window.pump()
                let presses = Self.presses(window.received)
                print("\(held) held, the window got the presses \(presses)")
                #expect(fired && presses.contains(expected), "\(held): \(window.received) \(daemon.output)")
                #expect(presses.filter { !$0.contains("_") } == [expected], "only the written key, with exactly its modifiers: \(presses)")
                #expect(poll { client.keysDown().isEmpty }, "\(held): keys left down \(client.keysDown())")
            }
        }
    }

    @Test("SIGTERM in the middle of a gesture with a modifier held leaves nothing down")
    func sigtermWithModifierHeld() throws {
        let config = """
            [[bind]]
            gesture = "pan"
            device = "pointer"
            modifiers = "ctrl"
            hold = "alt"
            action = "key x"
            """
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 600, height: 400)
            let daemon = try DaemonProcess(server, config: config)
            let client = try XClient(server.name)
            let mouse = try PointerDriver(server)
            let (x, y) = window.centre()
            let alt = try #require(client.keycode(ofUnshifted: keysym("Alt_L")))
            try tool(server, "xdotool", "keydown", "ctrl")
            mouse.move(to: x, y)
            mouse.press(3)
            mouse.drag(by: 40, 0)
            // The pan begins once a swipe can no longer happen; it holds Alt and types x.
            #expect(poll { client.keysDown().contains(alt) }, "the pan holds Alt: \(daemon.output)")
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output)")
            try tool(server, "xdotool", "keyup", "ctrl")
            mouse.release(3)
            #expect(poll { client.keysDown().isEmpty }, "keys left down: \(client.keysDown())\n\(daemon.output)")
            #expect(poll { client.buttonsDown() == 0 })
            window.pump()
            #expect(Self.presses(window.received).filter { !$0.contains("_") } == ["x [alt]"],
                    "x with the pan's Alt, without the user's Ctrl: \(window.received)")
        }
    }
}
