import CX11
import Foundation
import GestureTestKit
import Testing

// What the application sees of pointer input around a pointer gesture (issue 25, items 4 and 5):
// the daemon's own clicks and scrolls, and the other buttons pressed during a claimed drag. The
// real binary on Xvfb with openbox; the observer is a window openbox manages that records every
// press, release and motion it receives.

/// Presses and releases of any button, in order, as `press 3` / `release 3`.
private func buttonLog(_ events: [EventWindow.Received]) -> [String] {
    events.compactMap { event -> String? in
        switch event.kind {
        case .buttonPress: return "press \(event.detail)"
        case .buttonRelease: return "release \(event.detail)"
        default: return nil
        }
    }
}

/// Events that say the server holds a button down for the window: motion with a button's mask.
private func motionWithButtons(_ events: [EventWindow.Received]) -> [EventWindow.Received] {
    let buttons = UInt32(Button1Mask | Button2Mask | Button3Mask | Button4Mask | Button5Mask)
    return events.filter { $0.kind == .motion && $0.state & buttons != 0 }
}

/// What `window` received once `arrived` says enough came (within 3 s) and `settle` more
/// passed without the test looking: anything stray after it is in too.
private func settledEvents(
    _ window: EventWindow, settle: Duration = .milliseconds(200), until arrived: ([EventWindow.Received]) -> Bool
) -> [EventWindow.Received] {
    poll(timeout: .seconds(3)) { arrived(window.waitForEvents(0, timeout: .zero)) }
    sleep(settle)
    return window.waitForEvents(0, timeout: .zero)
}

@Suite("clicks and scrolls of pointer gestures, end to end", .serialized)
struct PointerGestureOutputTests {
    /// A right-drag right bound to `action` (a TOML value).
    static func dragConfig(_ action: String) -> String {
        """
        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = \(action)
        """
    }

    /// A right-drag right made by the test's mouse at the window's centre, the button still
    /// held for a while after the swipe fired (the daemon logged `firedLine`), then released.
    static func dragAndHold(_ s: PointerGiveBackTests.Session, firedLine: String) {
        let (x, y) = s.centre
        s.mouse.move(to: x - 150, y)
        s.mouse.press()
        s.mouse.drag(by: 200, 0)
        let didFire = poll { s.daemon.output.contains(firedLine) }
        #expect(didFire, "the swipe did not fire: \(s.daemon.output)")
        // More of the drag after the gesture fired: the application must see none of it.
        s.mouse.drag(by: 60, 30, steps: 4, pause: .milliseconds(20))
        s.mouse.release()
    }

    @Test("a right-drag bound to a click or a scroll: the window gets exactly that, and nothing of the right button",
          arguments: [("\"click middle\"", ["press 2", "release 2"]),
                      ("\"scroll down 2\"", ["press 5", "release 5", "press 5", "release 5"]),
                      ("\"click right\"", ["press 3", "release 3"]),
                      ("[\"click 3\", \"click 1\"]", ["press 3", "release 3", "press 1", "release 1"])])
    func clickOrScrollOfADrag(action: String, expected: [String]) throws {
        try PointerGiveBackTests.withSession(config: Self.dragConfig(action)) { s in
            Self.dragAndHold(s, firedLine: "swipe")
            let events = settledEvents(s.window, until: { buttonLog($0).count >= expected.count })
            #expect(buttonLog(events) == expected, "\(events) \(s.daemon.output)")
            #expect(motionWithButtons(events).isEmpty, "the window saw a button held: \(motionWithButtons(events))")
            let up = poll { s.client.buttonsDown() == 0 }
            #expect(up, "buttons down: 0x\(String(s.client.buttonsDown(), radix: 16))")
            // The next press is the user's again: a plain right click reaches the window as one.
            s.window.reset()
            s.mouse.move(to: s.centre.0, s.centre.1)
            s.mouse.press()
            s.mouse.release()
            #expect(buttonLog(s.givenBack()) == ["press 3", "release 3"], "\(s.daemon.output)")
        }
    }

    /// docs/config.md's example: scrolling by dragging with the middle button. The steps come
    /// at the release, all of them, and the window never sees the middle button (which an
    /// xterm would paste with on its release).
    @Test("a middle-drag pan bound to scroll: every step reaches the window at the release, nothing of the middle button")
    func panBoundToScroll() throws {
        let config = """
            [pointer]
            button = 2

            [[bind]]
            gesture = "pan"
            direction = "down"
            device = "pointer"
            repeat_every = 40
            action = "scroll down"
            """
        try PointerGiveBackTests.withSession(config: config) { s in
            let (x, y) = s.centre
            s.mouse.move(to: x, y - 150)
            s.mouse.press(2)
            s.mouse.drag(by: 0, 300, steps: 10, pause: .milliseconds(20))
            let panned = poll { s.daemon.output.contains("pan") }
            #expect(panned, "\(s.daemon.output)")
            usleep(100_000)
            #expect(buttonLog(s.window.waitForEvents(0, timeout: .zero)).isEmpty, "nothing before the release")
            s.mouse.release(2)
            let events = settledEvents(s.window, until: { !buttonLog($0).isEmpty })
            let log = buttonLog(events)
            #expect(log.count >= 10 && log.count % 2 == 0, "\(log) \(s.daemon.output)")
            #expect(log == Array(repeating: ["press 5", "release 5"], count: log.count / 2).flatMap { $0 }, "\(log)")
            #expect(motionWithButtons(events).isEmpty, "\(events)")
            let up = poll { s.client.buttonsDown() == 0 }
            #expect(up, "buttons down: 0x\(String(s.client.buttonsDown(), radix: 16))")
        }
    }

    @Test("a long press bound to [click 3, click 1, key a] fires once: the window gets the right click, the left click and the key")
    func longPressWithClicks() throws {
        let config = """
            [recognizer]
            long_press_ms = 200

            [[bind]]
            gesture = "long-press"
            device = "pointer"
            action = ["click 3", "click 1", "key a"]
            """
        try PointerGiveBackTests.withSession(config: config) { s in
            let (x, y) = s.centre
            s.mouse.move(to: x, y)
            s.mouse.hold(.milliseconds(700))
            let events = settledEvents(s.window, settle: .milliseconds(300), until: { received in received.contains { $0.kind == .keyRelease } })
            #expect(buttonLog(events) == ["press 3", "release 3", "press 1", "release 1"], "\(events) \(s.daemon.output)")
            let keys = events.filter { $0.kind == .keyPress }.map(\.keysym)
            #expect(keys == [UInt(XK_a)], "\(events)")
            #expect(motionWithButtons(events).isEmpty, "\(events)")
            let began = s.daemon.output.components(separatedBy: "long-press began").count - 1
            #expect(began == 1, "the long press fired \(began) times: \(s.daemon.output)")
            let up = poll { s.client.buttonsDown() == 0 }
            #expect(up, "buttons down: 0x\(String(s.client.buttonsDown(), radix: 16))")
        }
    }
}

@Suite("other buttons during a claimed drag, end to end", .serialized)
struct ButtonsDuringAClaimedDragTests {
    @Test("a left click and a wheel step made during a claimed right-drag reach the window; the drag does not")
    func otherButtonsReachTheWindow() throws {
        // Bound to keys, so the window stays on the desktop shown.
        try PointerGiveBackTests.withSession(config: PointerGiveBackTests.randomMovesConfig) { s in
            let (x, y) = s.centre
            s.mouse.move(to: x - 150, y)
            s.mouse.press()
            s.mouse.drag(by: 300, 0)
            let fired = poll { s.window.waitForEvents(0, timeout: .zero).contains { $0.kind == .keyRelease } }
            #expect(fired, "\(s.daemon.output)")
            // Still holding the right button: a left click, then a wheel step up.
            s.mouse.press(1)
            s.mouse.release(1)
            s.mouse.press(4)
            s.mouse.release(4)
            s.mouse.drag(by: -100, 0, steps: 3)
            s.mouse.release()
            let events = settledEvents(s.window, until: { buttonLog($0).count >= 4 })
            #expect(buttonLog(events) == ["press 1", "release 1", "press 4", "release 4"], "\(events) \(s.daemon.output)")
            // Where the hand made them, and the pointer back where the drag ended.
            let pressed = events.filter { $0.kind == .buttonPress }.map { "\($0.rootX),\($0.rootY)" }
            #expect(pressed == ["\(x + 150),\(y)", "\(x + 150),\(y)"], "\(events) \(s.daemon.output)")
            let pointer = s.client.pointer()
            #expect((pointer.x, pointer.y) == (x + 50, y))
            #expect(motionWithButtons(events).isEmpty, "\(events)")
            let firings = s.daemon.output.components(separatedBy: "swipe").count - 1
            #expect(firings == 1, "\(s.daemon.output)")
            let up = poll { s.client.buttonsDown() == 0 }
            #expect(up, "buttons down: 0x\(String(s.client.buttonsDown(), radix: 16))")
        }
    }
}

/// The same with a real mouse (an inputtest `Pointer` on headless Xorg): its buttons are a
/// device's of their own, which the server keeps down on the master pointer whatever XTest
/// releases, as a user's mouse does.
@Suite("clicks of pointer gestures and other buttons with a real mouse, end to end", .serialized,
       .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
struct RealMousePointerOutputTests {
    @Test("a right-drag bound to click right, with a left click during it: the window gets both clicks whole, nothing of the drag")
    func realMouse() throws {
        try XServer.with(.xorgInputTest, windowManager: true) { server in
            let client = try XClient(server.name)
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 800, height: 500, motion: true)
            let daemon = try DaemonProcess(server, config: PointerGestureOutputTests.dragConfig("\"click right\""))
            let mouse = try server.mouse()
            let (x, y) = window.centre()
            client.warpPointer(to: x - 150, y)
            window.reset()

            try mouse.button(3, pressed: true)
            for _ in 0..<6 {
                try mouse.move(dx: 40, dy: 0)
                sleep(.milliseconds(12))
            }
            let fired = poll { daemon.output.contains("swipe") }
            #expect(fired, "\(daemon.output)")
            try mouse.button(1, pressed: true)
            try mouse.button(1, pressed: false)
            try mouse.move(dx: 20, dy: 10)
            sleep(.milliseconds(50))
            try mouse.button(3, pressed: false)

            let events = settledEvents(window, until: { buttonLog($0).count >= 4 })
            #expect(buttonLog(events) == ["press 3", "release 3", "press 1", "release 1"], "\(events) \(daemon.output)")
            #expect(motionWithButtons(events).isEmpty, "\(events)")
            let up = poll { client.buttonsDown() == 0 }
            #expect(up, "buttons down: 0x\(String(client.buttonsDown(), radix: 16))")
            #expect(!daemon.output.contains("error"), "\(daemon.output)")
        }
    }
}
