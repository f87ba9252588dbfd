import CX11
import Foundation
import GestureTestKit
import Testing

/// Presses of the trigger button that are not gestures reach the application exactly once, in
/// order, wherever and however long they happen — and pointer gestures keep working after
/// each. The real binary on Xvfb with openbox; the observer is a window openbox manages (its
/// stock client bindings grab the buttons on the frame, as on a desktop).
@Suite("pointer presses given back, end to end", .serialized)
struct PointerGiveBackTests {
    /// Right-drags left and right switch desktops; up and down are unbound.
    static let config = pointerSwipeBindings

    /// A window openbox manages, a daemon, and a mouse.
    struct Session {
        let server: XServer
        let window: EventWindow
        let daemon: DaemonProcess
        let mouse: PointerDriver
        let client: XClient

        var centre: (Int, Int) { window.centre() }

        /// The bound right-drag: the desktop moves on by one, and the window sees none of it.
        func boundDragFires(_ note: String = "") {
            let before = client.currentDesktop() ?? 0
            let (x, y) = centre
            window.reset()
            mouse.fastDrag(from: x - 150, y, by: 300, 0)
            #expect(poll { client.currentDesktop() == (before + 1) % XServer.desktopCount }, "\(note) \(daemon.output)")
            usleep(50_000)
            let buttons = window.waitForEvents(0, timeout: .zero).filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }
            #expect(buttons.isEmpty, "the gesture reached the window: \(buttons)")
            // Back, so that the window stays on the visible desktop.
            mouse.fastDrag(from: x + 150, y, by: -300, 0)
            #expect(poll { client.currentDesktop() == before }, "\(note) \(daemon.output)")
            window.reset()
        }

        /// Waits for the window to have received one press and one release of button 3 and
        /// returns what it received, motion included.
        func givenBack(timeout: Duration = .seconds(5)) -> [EventWindow.Received] {
            var events: [EventWindow.Received] = []
            poll(timeout: timeout) {
                events = window.waitForEvents(0, timeout: .zero)
                return events.contains { $0.kind == .buttonRelease && $0.detail == 3 }
            }
            usleep(50_000)
            events = window.waitForEvents(0, timeout: .zero)
            window.reset()
            return events
        }
    }

    static func withSession<R>(config: String = Self.config, _ body: (Session) throws -> R) throws -> R {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 800, height: 500, motion: true)
            let daemon = try DaemonProcess(server, config: config)
            let session = Session(server: server, window: window, daemon: daemon, mouse: try PointerDriver(server), client: try XClient(server.name))
            session.mouse.move(to: session.centre.0, session.centre.1)
            window.reset()
            return try body(session)
        }
    }

    /// Button 3 presses and releases in what the window received.
    static func buttons(_ events: [EventWindow.Received]) -> [EventWindow.Received] {
        events.filter { ($0.kind == .buttonPress || $0.kind == .buttonRelease) && $0.detail == 3 }
    }

    @Test("a held right press reaches the window where it happened, then its release; gestures still work",
          arguments: [300, 600, 2000])
    func heldPressIsGivenBack(milliseconds: Int) throws {
        try Self.withSession { s in
            let (x, y) = s.centre
            s.mouse.move(to: x, y)
            s.mouse.hold(.milliseconds(milliseconds))
            let events = s.givenBack()
            let buttons = Self.buttons(events)
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(events) \(s.daemon.output)")
            #expect(buttons.first.map { ($0.rootX, $0.rootY) == (x, y) } == true, "\(buttons)")
            #expect(!s.daemon.output.contains("error"), "\(s.daemon.output)")
            s.boundDragFires("after a \(milliseconds) ms hold")
            // And once more: a give-back never costs the next one.
            s.mouse.move(to: x, y)
            s.mouse.hold(.milliseconds(milliseconds))
            #expect(Self.buttons(s.givenBack()).map(\.kind) == [.buttonPress, .buttonRelease], "\(s.daemon.output)")
        }
    }

    @Test("a slow right-drag reaches the window: the press where it began, its motion in order, the release where it ended")
    func slowDragIsGivenBack() throws {
        try Self.withSession { s in
            let (x, y) = s.centre
            s.mouse.move(to: x, y)
            s.mouse.press()
            s.mouse.drag(by: 60, 0, steps: 12, pause: .milliseconds(40))
            s.mouse.release()
            let events = s.givenBack()
            let buttons = Self.buttons(events)
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(events) \(s.daemon.output)")
            #expect(buttons.first.map { ($0.rootX, $0.rootY) == (x, y) } == true, "\(buttons)")
            #expect(buttons.last.map { ($0.rootX, $0.rootY) == (x + 60, y) } == true, "\(buttons)")
            // Between the two: motion with button 3 down, none before the press with it.
            let press = events.firstIndex { $0.kind == .buttonPress && $0.detail == 3 } ?? 0
            let release = events.lastIndex { $0.kind == .buttonRelease && $0.detail == 3 } ?? 0
            let dragging = events[press..<release].filter { $0.kind == .motion && $0.state & UInt32(Button3Mask) != 0 }
            #expect(!dragging.isEmpty, "\(events)")
            #expect(!events[..<press].contains { $0.kind == .motion && $0.state & UInt32(Button3Mask) != 0 }, "\(events)")
            s.boundDragFires("after a slow drag")
        }
    }

    @Test("a fast right-drag in an unbound direction reaches the window as a drag", arguments: [(0, -200), (0, 200)])
    func unboundDirectionIsGivenBack(dx: Int, dy: Int) throws {
        try Self.withSession { s in
            let (x, y) = s.centre
            s.mouse.fastDrag(from: x, y - dy / 2, by: dx, dy)
            let events = s.givenBack()
            let buttons = Self.buttons(events)
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(events) \(s.daemon.output)")
            #expect(buttons.first.map { ($0.rootX, $0.rootY) == (x, y - dy / 2) } == true, "\(buttons)")
            #expect(buttons.last.map { ($0.rootX, $0.rootY) == (x + dx, y + dy / 2) } == true, "\(buttons)")
            #expect(s.client.currentDesktop() == 0)
            s.boundDragFires("after an unbound drag")
        }
    }

    @Test("a right click while another client has the pointer grabbed goes to that client; gestures work after")
    func pressUnderAnotherGrab() throws {
        try Self.withSession { s in
            let grabber = try XClient(s.server.name)
            let status = XGrabPointer(grabber.display, grabber.root, 0, UInt32(ButtonPressMask | ButtonReleaseMask), GrabModeAsync, GrabModeAsync, 0, 0, 0)
            XSync(grabber.display, 0)
            try #require(status == GrabSuccess)
            let (x, y) = s.centre
            s.mouse.move(to: x, y)
            s.mouse.hold(.milliseconds(400))
            var got: [Int32] = []
            poll(timeout: .seconds(3)) {
                while XPending(grabber.display) > 0 {
                    var event = XEvent()
                    XNextEvent(grabber.display, &event)
                    if event.type == ButtonPress || event.type == ButtonRelease { got.append(event.type) }
                }
                return got.count >= 2
            }
            #expect(got == [ButtonPress, ButtonRelease], "\(s.daemon.output)")
            #expect(Self.buttons(s.window.waitForEvents(0, timeout: .milliseconds(100))).isEmpty)
            XUngrabPointer(grabber.display, 0)
            XSync(grabber.display, 0)
            s.window.reset()
            s.boundDragFires("after a press under another client's grab")
        }
    }

    @Test("a press the config's reload moves off the trigger button is given back, and the new button works")
    func reloadDuringPress() throws {
        try Self.withSession { s in
            let (x, y) = s.centre
            s.mouse.move(to: x, y)
            s.mouse.press()
            // Held and still undecided (no motion yet): the reload moves gestures to button 2.
            try (Self.config + "\n[pointer]\nbutton = 2\n")
                .write(to: s.daemon.configFile, atomically: false, encoding: .utf8)
            #expect(poll { s.daemon.output.contains("config reloaded") }, "\(s.daemon.output)")
            s.mouse.release()
            #expect(Self.buttons(s.givenBack()).map(\.kind) == [.buttonPress, .buttonRelease], "\(s.daemon.output)")
            s.mouse.fastDrag(from: x - 150, y, by: 300, 0, button: 2)
            #expect(poll { s.client.currentDesktop() == 1 }, "\(s.daemon.output)")
        }
    }

    /// One thing a hand does with the right button, and what the window must see of it.
    enum Move: String, CaseIterable {
        case click, hold, slowDrag = "slow drag", unboundDrag = "unbound drag", boundDrag = "bound drag"

        /// Does it with `mouse` at (`x`, `y`), sizes and durations drawn from `random`:
        /// horizontal fast drags are bound (``randomMovesConfig``), the rest given back.
        func play(_ mouse: PointerDriver, at x: Int, _ y: Int, _ random: inout SplitMix64) {
            mouse.move(to: x, y)
            switch self {
            case .click:
                mouse.press()
                mouse.release()
            case .hold:
                mouse.hold(.milliseconds(Int(random.next() % 300)))
            case .slowDrag:
                mouse.press()
                mouse.drag(by: Int(random.next() % 40) - 20, Int(random.next() % 40) - 20, steps: 4, pause: .milliseconds(30))
                mouse.release()
            case .unboundDrag:
                mouse.press()
                mouse.drag(by: 0, random.next() % 2 == 0 ? 120 : -120, steps: 4, pause: .milliseconds(5))
                mouse.release()
            case .boundDrag:
                mouse.press()
                mouse.drag(by: random.next() % 2 == 0 ? 120 : -120, 0, steps: 4, pause: .milliseconds(5))
                mouse.release()
            }
        }
    }

    /// Right-drags left and right type ctrl+shift+b and ctrl+shift+a; faster thresholds keep
    /// runs short (an undecided press is given back after 120 ms).
    static let randomMovesConfig = """
        [recognizer]
        swipe_min_px = 60
        swipe_min_velocity = 0.5

        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = "key ctrl+shift+a"

        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "left"
        action = "key ctrl+shift+b"
        """

    @Test("200 random right-button moves: every press that is not a gesture reaches the window once, in order; every gesture fires")
    func randomMoves() throws {
        let config = Self.randomMovesConfig
        try Self.withSession(config: config) { s in
            var random = SplitMix64(seed: 0x6B_42_61_63_6B)
            let (cx, cy) = s.centre
            var expected: [(kind: Move, x: Int, y: Int)] = []
            var gestures = 0
            for round in 0..<200 {
                let move = Move.allCases[Int(random.next() % UInt64(Move.allCases.count))]
                let x = cx - 100 + Int(random.next() % 200), y = cy - 60 + Int(random.next() % 120)
                move.play(s.mouse, at: x, y, &random)
                // Wait for the outcome before the next move, as a hand would see it.
                if move == .boundDrag {
                    gestures += 1
                    let arrived = poll(timeout: .seconds(3)) {
                        s.window.waitForEvents(0, timeout: .zero).filter { $0.kind == .keyRelease && ($0.keysym == UInt(XK_A) || $0.keysym == UInt(XK_B) || $0.keysym == UInt(XK_a) || $0.keysym == UInt(XK_b)) }.count >= gestures
                    }
                    try #require(arrived, "round \(round): the bound drag did not fire: \(s.daemon.output)")
                } else {
                    expected.append((move, x, y))
                    let arrived = poll(timeout: .seconds(3)) {
                        Self.buttons(s.window.waitForEvents(0, timeout: .zero)).filter { $0.kind == .buttonRelease }.count >= expected.count
                    }
                    try #require(arrived, "round \(round) (\(move)): the press was not given back: \(Self.buttons(s.window.received)) \(s.daemon.output)")
                }
            }
            usleep(200_000)
            let buttons = Self.buttons(s.window.waitForEvents(0, timeout: .zero))
            // Exactly press, release, press, release … — one pair per move that was not a gesture.
            #expect(buttons.count == 2 * expected.count, "\(buttons.count) button events for \(expected.count) moves")
            for (k, event) in buttons.enumerated() {
                #expect(event.kind == (k % 2 == 0 ? .buttonPress : .buttonRelease), "event \(k): \(event)")
            }
            let presses = buttons.filter { $0.kind == .buttonPress }
            for (press, move) in zip(presses, expected) {
                #expect((press.rootX, press.rootY) == (move.x, move.y), "\(move.kind) pressed at (\(move.x), \(move.y)) arrived as \(press)")
            }
            #expect(!s.daemon.output.contains("error"), "\(s.daemon.output)")
        }
    }
}

/// The same with a real mouse (an inputtest `Pointer` on headless Xorg): the press comes from a
/// slave device of its own, as a user's does, not from XTest's. An XTest replay cannot give such
/// a press back while the button is held (the master has the button down already); the
/// server's replay can.
@Suite("pointer presses of a real mouse given back, end to end", .serialized,
       .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
struct RealMouseGiveBackTests {
    /// Presses the right button, moves `steps` times by `dx`, `pause` apart, releases.
    func drag(_ mouse: InputTestDevice, dx: Double, steps: Int, pause: Duration) throws {
        try mouse.button(3, pressed: true)
        for _ in 0..<steps {
            try mouse.move(dx: dx, dy: 0)
            sleep(pause)
        }
        try mouse.button(3, pressed: false)
    }

    @Test("a held and a slowly dragged press of a real mouse reach the window; a fast drag switches the desktop; nothing stays down")
    func realMouse() throws {
        try XServer.with(.xorgInputTest, windowManager: true) { server in
            let client = try XClient(server.name)
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 800, height: 500, motion: true)
            let daemon = try DaemonProcess(server, config: PointerGiveBackTests.config)
            let mouse = try server.mouse()
            let (x, y) = window.centre()
            client.warpPointer(to: x, y)
            window.reset()

            try mouse.button(3, pressed: true)
            sleep(.milliseconds(600))
            try mouse.button(3, pressed: false)
            var events = window.waitForEvents(2)
            var buttons = PointerGiveBackTests.buttons(events)
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(events) \(daemon.output)")
            #expect(buttons.first.map { ($0.rootX, $0.rootY) == (x, y) } == true, "\(buttons)")
            window.reset()

            try drag(mouse, dx: 3, steps: 10, pause: .milliseconds(40))
            poll { PointerGiveBackTests.buttons(window.waitForEvents(0, timeout: .zero)).count >= 2 }
            usleep(100_000)
            events = window.waitForEvents(0, timeout: .zero)
            buttons = PointerGiveBackTests.buttons(events)
            let pointer = client.pointer()
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(events) \(daemon.output)")
            #expect(buttons.first.map { ($0.rootX, $0.rootY) == (x, y) } == true, "\(buttons)")
            #expect(buttons.last.map { ($0.rootX, $0.rootY) == (pointer.x, pointer.y) } == true, "\(buttons) pointer \(pointer)")
            #expect(pointer.x > x, "the drag moved the pointer")
            #expect(events.contains { $0.kind == .motion && $0.state & UInt32(Button3Mask) != 0 }, "\(events)")
            window.reset()

            try drag(mouse, dx: 50, steps: 6, pause: .milliseconds(12))
            #expect(poll { client.currentDesktop() == 1 }, "\(daemon.output)")
            #expect(poll { client.buttonsDown() == 0 }, "no button left down")
            #expect(!daemon.output.contains("error"), "\(daemon.output)")
        }
    }
}
