import BridgeCore
import CX11
import Foundation
import GestureConfig
import GestureEngine
import Testing
@testable import X11Backend

/// `key` actions while the user holds modifier keys on a real keyboard device (docs/config.md,
/// «Modifier keys and trigger buttons»): the headless Xorg's inputtest keyboard is a slave of its
/// own, whose held keys the server keeps apart from XTest's, as a hand on a keyboard.
@Suite("key actions under held modifiers", .serialized,
       .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
struct HeldModifierKeyTests {
    /// A session: the inputtest keyboard, a focused window, and the performer with a capture
    /// (grabbing, as the daemon's) on one connection, wired as the daemon wires them.
    struct Session {
        let keyboard: InputTestDevice
        let window: EventWindow
        let performer: X11ActionPerformer
        let capture: X11InputCapture

        /// The keycode of `name` in the server's keymap.
        func keycode(_ name: String) -> Int32 { Int32(XKeysymToKeycode(window.client.display, keysym(name))) }

        /// The user presses or lets go of `name` on the keyboard; returns once the server has it.
        func user(_ name: String, down: Bool) throws {
            try keyboard.key(keycode(name), pressed: down)
            try keyboard.sync()
        }

        /// What the daemon's loop does between turns: the server's events are read (raw key
        /// releases among them) and the requests that follow sent.
        func turn() {
            usleep(50_000)
            capture.drain { _ in }
            performer.display.flush()
            usleep(50_000)
        }

        /// The keys down on the master keyboard, by name.
        func keysDown() -> [String] {
            window.client.keysDown().sorted().map { code in
                XKeysymToString(XkbKeycodeToKeysym(window.client.display, code, 0, 0)).map { String(cString: $0) } ?? "\(code)"
            }
        }
    }

    func withSession(_ body: (Session) throws -> Void) throws {
        try XServer.with(.xorgInputTest) { server in
            let window = try EventWindow(server: server.name, width: 600, height: 400)
            let display = try X11Display(name: server.name)
            let capture = try X11InputCapture(
                display: display, mode: .grab, needs: CaptureNeeds(touchscreen: false, touchpadSwipes: false, touchpadPinches: false),
                logger: quietLogger)
            let performer = try X11ActionPerformer(display: display, logger: quietLogger)
            performer.followKeyReleases = { capture.followKeyReleases($0) }
            capture.userKeyReleased = { performer.userReleased($0) }
            try body(Session(keyboard: try server.keyboard(), window: window, performer: performer, capture: capture))
        }
    }

    /// What the window saw, as `press Name [modifiers]` / `release Name`.
    static func lines(_ events: [EventWindow.Received]) -> [String] {
        events.filter { $0.kind == .keyPress || $0.kind == .keyRelease }.map { event in
            let name = XKeysymToString(event.keysym).map { String(cString: $0) } ?? "?"
            return event.kind == .keyPress ? "press \(name) \(modifierNames(event.state))" : "release \(name)"
        }
    }

    /// `[ctrl+shift]`: the modifiers of an event's state, as gestures name them.
    static func modifierNames(_ state: UInt32) -> String {
        "[\(ModifierMap().modifiers(state: state))]"
    }

    static func withModifiers(_ modifiers: Modifiers) -> ActionContext {
        ActionContext(device: .pointer, position: Point(x: 0, y: 0), time: Instant(milliseconds: 0), modifiers: modifiers)
    }

    @Test("with Super physically held, a bound ctrl+c reaches the application as Ctrl+C, and Super is down again after")
    func superHeldCtrlC() throws {
        try withSession { s in
            try s.user("Super_L", down: true)
            s.window.reset()
            try s.performer.perform(keyAction("Control_L", "c"), context: Self.withModifiers(.super))
            let seen = Self.lines(s.window.waitForEvents(6))
            print("Super held, key ctrl+c: \(seen)")
            #expect(seen == [
                "release Super_L", "press Control_L [none]", "press c [ctrl]", "release c", "release Control_L", "press Super_L [none]",
            ])
            #expect(s.keysDown() == ["Super_L"], "the user still holds it")
            #expect(s.performer.borrowedKeys.map(\.rawValue) == [UInt8(s.keycode("Super_L"))])
            // The user lets go: the application sees it, and the copy put back goes with it.
            s.window.reset()
            try s.user("Super_L", down: false)
            s.turn()
            #expect(Self.lines(s.window.waitForEvents(1)) == ["release Super_L"])
            #expect(s.performer.borrowedKeys.isEmpty)
            #expect(s.keysDown().isEmpty)
            // Nothing of it is left: Super works as before for the user's next key.
            s.window.reset()
            try s.user("Super_L", down: true)
            try s.user("c", down: true)
            try s.user("c", down: false)
            try s.user("Super_L", down: false)
            #expect(Self.lines(s.window.waitForEvents(4)) == ["press Super_L [none]", "press c [super]", "release c", "release Super_L"])
            #expect(s.keysDown().isEmpty)
        }
    }

    @Test("with Ctrl physically held, ctrl+shift+b presses only what it adds and never lets go of the user's Ctrl")
    func ctrlHeldCtrlShiftB() throws {
        try withSession { s in
            try s.user("Control_L", down: true)
            s.window.reset()
            try s.performer.perform(keyAction("Control_L", "Shift_L", "b"), context: Self.withModifiers(.ctrl))
            let seen = Self.lines(s.window.waitForEvents(4))
            print("Ctrl held, key ctrl+shift+b: \(seen)")
            #expect(seen == ["press Shift_L [ctrl]", "press B [shift+ctrl]", "release B", "release Shift_L"])
            usleep(100_000)
            #expect(Self.lines(s.window.waitForEvents(0, timeout: .zero)).count == 4, "no release of the user's Ctrl")
            #expect(s.keysDown() == ["Control_L"])
            #expect(s.performer.borrowedKeys.isEmpty)
            try s.user("Control_L", down: false)
            #expect(s.keysDown().isEmpty)
        }
    }

    @Test("with Alt physically held, ctrl+shift+b arrives without Alt")
    func altHeldCtrlShiftB() throws {
        try withSession { s in
            try s.user("Alt_L", down: true)
            s.window.reset()
            try s.performer.perform(keyAction("Control_L", "Shift_L", "b"), context: Self.withModifiers(.alt))
            let seen = Self.lines(s.window.waitForEvents(8))
            print("Alt held, key ctrl+shift+b: \(seen)")
            #expect(seen.first == "release Alt_L")
            #expect(seen.contains("press B [shift+ctrl]"), "exactly Ctrl+Shift+B, no Alt: \(seen)")
            #expect(seen.last == "press Alt_L [none]")
            try s.user("Alt_L", down: false)
            s.turn()
            #expect(s.keysDown().isEmpty)
            #expect(s.performer.borrowedKeys.isEmpty)
        }
    }

    @Test("the user lets go of the held modifier during the injection: it ends up, never left down")
    func releasedDuringTheInjection() throws {
        try withSession { s in
            try s.user("Super_L", down: true)
            s.window.reset()
            try s.performer.display.call("key ctrl+c", sync: true) { (_) throws(X11Error) in
                try s.performer.withHeldModifiersLifted(keeping: 0) { (_) throws(X11Error) in
                    // Super is lifted now (for the server too); the finger leaves it.
                    try s.performer.display.sync()
                    try? s.user("Super_L", down: false)
                }
            }
            s.turn()
            #expect(s.keysDown().isEmpty, "Super is not left down")
            #expect(s.performer.borrowedKeys.isEmpty)
            let seen = Self.lines(s.window.waitForEvents(3))
            print("Super let go during the injection: \(seen)")
            #expect(seen.last == "release Super_L", "the application's last word on Super is its release: \(seen)")
        }
    }

    @Test("without modifiers at the gesture's start, a key action is typed as before: no lifting")
    func noModifiersNoLifting() throws {
        try withSession { s in
            try s.performer.perform(keyAction("Control_L", "c"), context: Self.withModifiers([]))
            #expect(Self.lines(s.window.waitForEvents(4)) == ["press Control_L [none]", "press c [ctrl]", "release c", "release Control_L"])
            #expect(s.performer.borrowedKeys.isEmpty)
            #expect(!s.performer.followingKeyReleases)
        }
    }

    @Test("shutdown lets go of the keys put back for the user: nothing stays down once the user lets go")
    func shutdownReleasesBorrowedKeys() throws {
        try withSession { s in
            try s.user("Super_L", down: true)
            try s.performer.perform(keyAction("Control_L", "c"), context: Self.withModifiers(.super))
            #expect(!s.performer.borrowedKeys.isEmpty)
            s.performer.releaseEverything()
            try s.user("Super_L", down: false)
            #expect(s.keysDown().isEmpty)
            // The XTest keyboard holds no copy: an XTest press of Super reaches the master.
            try s.performer.display.call("probe") { XTestFakeKeyEvent($0, UInt32(s.keycode("Super_L")), 1, 0) }
            try s.performer.display.sync()
            #expect(s.keysDown() == ["Super_L"])
            try s.performer.display.call("probe") { XTestFakeKeyEvent($0, UInt32(s.keycode("Super_L")), 0, 0) }
            try s.performer.display.sync()
        }
    }
}
