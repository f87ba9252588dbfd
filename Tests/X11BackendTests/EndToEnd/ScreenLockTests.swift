import CX11
import Foundation
import Testing

/// A stand-in for a screen locker: an override-redirect window over the whole screen with a
/// locker's `WM_CLASS`, on the test's own connection; it grabs nothing unless asked to.
private final class FakeLocker {
    let client: XClient
    let window: Window

    init(_ server: XServer, wmClass: String = "i3lock") throws {
        client = try XClient(server.name)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        window = XCreateWindow(
            client.display, client.root, 0, 0, UInt32(XServer.screenWidth), UInt32(XServer.screenHeight), 0, 0, UInt32(InputOutput), nil,
            UInt(CWOverrideRedirect), &attributes)
        var hint = XClassHint()
        wmClass.withCString { name in
            hint.res_name = UnsafeMutablePointer(mutating: name)
            hint.res_class = UnsafeMutablePointer(mutating: name)
            XSetClassHint(client.display, window, &hint)
        }
    }

    func map() {
        XMapRaised(client.display, window)
        client.sync()
    }

    func unmap() {
        XUnmapWindow(client.display, window)
        client.sync()
    }

    /// One `XGrabPointer` attempt, as i3lock makes them; true when granted.
    func grabPointer() -> Bool {
        let status = XGrabPointer(
            client.display, window, 0, UInt32(ButtonPressMask | ButtonReleaseMask), GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
        client.sync()
        return status == GrabSuccess
    }

    func ungrabPointer() {
        XUngrabPointer(client.display, UInt(CurrentTime))
        client.sync()
    }
}

/// The MIT-SCREEN-SAVER state of the root window (`ScreenSaverOn` = 1).
private func screenSaverState(_ client: XClient) -> Int32 {
    guard let info = XScreenSaverAllocInfo() else { return -1 }
    defer { XFree(info) }
    guard XScreenSaverQueryInfo(client.display, client.root, info) != 0 else { return -1 }
    return Int32(info.pointee.state)
}

/// A right-button drag by `dx` from where the pointer is: the press itself is the first input.
private func dragFromHere(_ server: XServer, by dx: Int, steps: Int = 6) throws {
    try tool(server, "xdotool", "mousedown", "3")
    for _ in 0..<steps {
        try tool(server, "xdotool", "mousemove_relative", "--", "\(dx / steps)", "0")
        usleep(15_000)
    }
    try tool(server, "xdotool", "mouseup", "3")
}

/// How many lines of `output` contain `text`.
private func count(_ text: String, in output: String) -> Int {
    output.split(separator: "\n").filter { $0.contains(text) }.count
}

/// While the screen is locked — the X screen saver on, or a known locker's window mapped —
/// gestures perform nothing; the real binary on Xvfb with openbox.
@Suite("the screen lock, end to end", .serialized)
struct ScreenLockTests {
    @Test("the drag that wakes the screen saver performs nothing and says so; the next one works, and after xset s reset too")
    func screenSaverBlocksTheWakingGesture() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: pointerSwipeBindings, arguments: ["--verbose"])
            let client = try XClient(server.name)
            try tool(server, "xdotool", "mousemove", "300", "300")
            try tool(server, "xset", "s", "activate")
            #expect(screenSaverState(client) == ScreenSaverOn)
            let locked = poll(timeout: .seconds(10)) { daemon.output.contains("screen locked: gestures perform nothing until it is unlocked") }
            #expect(locked, "\(daemon.output)")

            try dragFromHere(server, by: 300)
            let skipped = poll(timeout: .seconds(10)) { daemon.output.contains("swipe recognized: skipped workspace next, the screen is locked (the screen saver is on)") }
            #expect(skipped, "\(daemon.output)")
            #expect(client.currentDesktop() == 0, "\(daemon.output)")
            #expect(screenSaverState(client) != ScreenSaverOn, "the drag woke the screen")

            // Awake: the next drag works.
            try rightDrag(server, from: 300, 300, by: 300)
            let switched = poll { client.currentDesktop() == 1 }
            #expect(switched, "\(daemon.output)")

            // On and off again without input: gestures work at once.
            try tool(server, "xset", "s", "activate")
            try tool(server, "xset", "s", "reset")
            let cycled = poll(timeout: .seconds(10)) { count("screen unlocked", in: daemon.output) == 2 }
            #expect(cycled, "\(daemon.output)")
            try rightDrag(server, from: 700, 300, by: -300)
            let back = poll { client.currentDesktop() == 0 }
            #expect(back, "\(daemon.output)")
            #expect(count("screen locked:", in: daemon.output) == 2, "one line per lock: \(daemon.output)")
        }
    }

    @Test("a known locker's window mapped: gestures perform nothing; unmapped: they work again")
    func lockerWindowBlocksGestures() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: pointerSwipeBindings, arguments: ["--verbose"])
            let client = try XClient(server.name)
            let locker = try FakeLocker(server)
            locker.map()
            let locked = poll(timeout: .seconds(10)) { daemon.output.contains("screen locked: gestures perform nothing until it is unlocked") }
            #expect(locked, "\(daemon.output)")
            #expect(daemon.output.contains("reason=the screen locker i3lock has its window up"), "\(daemon.output)")

            try rightDrag(server, from: 300, 300, by: 300)
            let skipped = poll(timeout: .seconds(10)) { daemon.output.contains("swipe recognized: skipped workspace next") }
            #expect(skipped, "\(daemon.output)")
            #expect(client.currentDesktop() == 0)

            locker.unmap()
            let unlocked = poll(timeout: .seconds(10)) { daemon.output.contains("screen unlocked") }
            #expect(unlocked, "\(daemon.output)")
            try rightDrag(server, from: 300, 300, by: 300)
            let switched = poll { client.currentDesktop() == 1 }
            #expect(switched, "\(daemon.output)")
        }
    }

    @Test("a window of another class, even over the whole screen, is no lock")
    func otherWindowsAreNoLock() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: pointerSwipeBindings)
            let client = try XClient(server.name)
            let cover = try FakeLocker(server, wmClass: "i3lock-settings")
            cover.map()
            try rightDrag(server, from: 300, 300, by: 300)
            let switched = poll { client.currentDesktop() == 1 }
            #expect(switched, "\(daemon.output)")
            #expect(!daemon.output.contains("screen locked"), "\(daemon.output)")
            withExtendedLifetime(cover) {}
        }
    }

    @Test("a locker already up when the daemon starts counts from the start")
    func lockerBeforeStart() throws {
        try XServer.with(windowManager: true) { server in
            let locker = try FakeLocker(server, wmClass: "XScreenSaver")
            locker.map()
            let daemon = try DaemonProcess(server, config: pointerSwipeBindings, arguments: ["--verbose"])
            let client = try XClient(server.name)
            #expect(daemon.output.contains("reason=the screen locker xscreensaver has its window up"), "\(daemon.output)")
            try rightDrag(server, from: 300, 300, by: 300)
            let skipped = poll(timeout: .seconds(10)) { daemon.output.contains("swipe recognized: skipped workspace next") }
            #expect(skipped, "\(daemon.output)")
            #expect(client.currentDesktop() == 0)
            // The locker's connection (and so its window) must outlive the checks: Swift may
            // end an object's life after its last use.
            withExtendedLifetime(locker) {}
        }
    }

    @Test("--dry-run says the action would be skipped because the screen is locked")
    func dryRunSaysSkipped() throws {
        try XServer.with(windowManager: true) { server in
            let locker = try FakeLocker(server)
            locker.map()
            let daemon = try DaemonProcess(server, config: pointerSwipeBindings, arguments: ["--dry-run", "--json"])
            try rightDrag(server, from: 300, 300, by: 300)
            let line = #""skipped":"workspace next","reason":"screen locked: the screen locker i3lock has its window up"}"#
            let reported = poll(timeout: .seconds(10)) { daemon.output.contains(line) }
            #expect(reported, "\(daemon.output)")
            let swipes = daemon.output.split(separator: "\n").filter { $0.contains(#""gesture":"swipe""#) }
            #expect(swipes.count == 1 && !swipes[0].contains(#""action""#), "\(daemon.output)")

            locker.unmap()
            let unlocked = poll(timeout: .seconds(10)) { daemon.output.contains("screen unlocked") }
            #expect(unlocked, "\(daemon.output)")
            try rightDrag(server, from: 300, 300, by: 300)
            let acted = poll(timeout: .seconds(10)) { daemon.output.contains(#""action":"workspace next""#) }
            #expect(acted, "\(daemon.output)")
        }
    }

    @Test("a locker started by a held gesture can grab the pointer: the bridge lets go of the press when its window maps")
    func lockerCanGrabDuringAHeldGesture() throws {
        try XServer.with(windowManager: true) { server in
            let config = """
                [[bind]]
                gesture = "long-press"
                device = "pointer"
                action = "exec true"
                """
            let daemon = try DaemonProcess(server, config: config, arguments: ["--verbose"])
            let locker = try FakeLocker(server)
            try tool(server, "xdotool", "mousemove", "300", "300", "mousedown", "3")
            let began = poll(timeout: .seconds(10)) { daemon.output.contains("long-press began → exec true") }
            #expect(began, "\(daemon.output)")
            // The press is claimed: the bridge's grab is active, as it would be when the long
            // press had just started a locker.
            #expect(!locker.grabPointer(), "the held press should be grabbed by the bridge")
            locker.map()
            let granted = poll(timeout: .seconds(3)) { locker.grabPointer() }
            #expect(granted, "the locker could not grab the pointer: \(daemon.output)")
            try tool(server, "xdotool", "mouseup", "3")
            locker.ungrabPointer()
            locker.unmap()

            // Everything works as before once the locker is gone.
            let unlocked = poll(timeout: .seconds(10)) { daemon.output.contains("screen unlocked") }
            #expect(unlocked, "\(daemon.output)")
            try tool(server, "xdotool", "mousemove", "300", "300", "mousedown", "3")
            let again = poll(timeout: .seconds(10)) { count("long-press began → exec true", in: daemon.output) == 2 }
            #expect(again, "\(daemon.output)")
            try tool(server, "xdotool", "mouseup", "3")
            let client = try XClient(server.name)
            let released = poll { client.buttonsDown() == 0 }
            #expect(released)
        }
    }
}
