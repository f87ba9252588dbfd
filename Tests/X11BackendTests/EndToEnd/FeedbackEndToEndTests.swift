import CX11
import Foundation
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// The on-screen feedback on real X servers (docs/config.md, «Feedback»): what the screen shows
/// mid-stroke and after, with no compositor and with Debian's (xcompmgr, picom) started by the
/// test; that the overlay takes no click, no given-back press and no focus; a touchscreen swipe
/// on the headless Xorg. Screens are read from the root window (``Screenshot``): what a user sees.
@Suite("on-screen feedback, end to end", .serialized)
struct FeedbackEndToEndTests {
    /// A pointer circle is bound: the trail is on for the pointer by default. No OSD, so that
    /// the screen after the release is the screen before it.
    static let config = """
        [feedback]
        osd = false

        [[bind]]
        gesture = "stroke"
        shape = "circle"
        device = "pointer"
        action = "key F5"
        """

    /// The trail's colour as the screen shows it over `background`: the default colour blended
    /// at its opacity by a compositor, opaque without one.
    static func trailColor(over background: UInt32, compositing: Bool) -> UInt32 {
        let c = Feedback.defaultTrailColor
        let a = compositing ? Double(c.alpha) / 255 : 1
        func mix(_ channel: UInt8, _ shift: UInt32) -> UInt32 {
            UInt32((Double(channel) * a + Double((background >> shift) & 0xff) * (1 - a)).rounded()) << shift
        }
        return mix(c.red, 16) | mix(c.green, 8) | mix(c.blue, 0)
    }

    /// An "L" from (x, y): right 200 px, then down 100 px, in steps of 2 px (under the
    /// server's acceleration threshold, so the pointer goes exactly there).
    static func ell(from x: Int, _ y: Int) -> [Point] {
        (0...100).map { Point(x: Double(x + 2 * $0), y: Double(y)) } + (1...50).map { Point(x: Double(x + 200), y: Double(y + 2 * $0)) }
    }

    static func drive(_ mouse: PointerDriver, along path: [Point]) {
        for (p, q) in zip(path, path.dropFirst()) {
            XTestFakeRelativeMotionEvent(mouse.client.display, Int32(q.x - p.x), Int32(q.y - p.y), 0)
            XSync(mouse.client.display, 0)
            usleep(2_000)
        }
    }

    @Test("mid-stroke the screen shows the trail along the path and nothing else; after the release nothing remains, the press goes back to its window, and no overlay ever has the focus",
          arguments: ["none", "xcompmgr", "picom"])
    func theTrailIsWhereThePathIsAndGoes(compositor: String) throws {
        if compositor != "none", !FileManager.default.isExecutableFile(atPath: "/usr/bin/\(compositor)") {
            Issue.record("\(compositor) is not installed: run scripts/setup-debian")
            return
        }
        try XServer.with(windowManager: true) { server in
            let running = compositor == "none" ? nil
                : try Compositor(server, compositor == "picom" ? ["picom", "--backend", "xrender", "--no-fading-openclose", "--shadow-opacity", "0"] : ["xcompmgr"])
            defer { running?.stop() }
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 800, height: 500)
            let client = try XClient(server.name)
            #expect(poll(timeout: .seconds(10)) { window.parent() != client.root }, "openbox does not manage the window")
            // --verbose: its log says when the press reached it (below).
            let daemon = try DaemonProcess(server, config: Self.config, arguments: ["--verbose"])
            let frame = window.rootFrame()
            let area = (x: frame.x, y: frame.y, width: frame.width, height: frame.height)
            let mouse = try PointerDriver(server)
            let (x, y) = (frame.x + 150, frame.y + 150)
            mouse.move(to: x, y)
            usleep(300_000)
            window.reset()
            let before = Screenshot(client)
            let white = before[x + 50, y + 50]

            let path = Self.ell(from: x, y)
            mouse.press(3)
            // The daemon follows a press by its raw motion, selected when the press reaches it:
            // motion sent before that (a loaded machine) would be lost to it, and the trail
            // drawn where the daemon, not the test, thinks the path is. So the drag waits for the
            // press's transition in its log (a fixed pause was too short under load).
            #expect(daemon.pressReached(), "the press did not reach the daemon: \(daemon.output)")
            usleep(20_000)
            Self.drive(mouse, along: path)
            let colour = Self.trailColor(over: white, compositing: running != nil)
            let last = path.last!
            var mid = Screenshot(client)
            let drawn = poll(timeout: .seconds(3)) {
                mid = Screenshot(client)
                return close(mid[Int(last.x), Int(last.y)], colour)
            }
            #expect(drawn, "no trail at the path's end: \(String(mid[Int(last.x), Int(last.y)], radix: 16)), expected \(String(colour, radix: 16))\n\(daemon.output)")
            // Along the path: the trail's colour, every 4 px of it.
            let along = path.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            let missing = along.filter { !close(mid[Int($0.x), Int($0.y)], colour) }
            #expect(missing.isEmpty, "\(missing.count) of \(along.count) points of the path without the trail, first \(missing.prefix(3))")
            // Nothing else: every pixel that changed is within the line's half width (2 px)
            // and its anti-aliased edge of the path.
            let changed = mid.differences(from: before, in: area)
            let stray = changed.filter { distance(from: Point(x: Double($0.0), y: Double($0.1)), toPolyline: path) > 3.5 }
            #expect(stray.isEmpty, "\(stray.count) changed pixels away from the path, first \(stray.prefix(5))")
            #expect(changed.count > 500, "only \(changed.count) pixels changed")
            // The overlays: never focused, never managed.
            let overlays = client.feedbackWindows()
            #expect(!overlays.isEmpty && overlays.contains { client.isMapped($0) }, "\(overlays)")
            #expect(!overlays.contains(client.focus()))
            #expect(!(client.longs("_NET_CLIENT_LIST", of: client.root) ?? []).contains { overlays.contains($0) })

            mouse.release(3)
            // Not a circle: the press goes back to the window, where it began, with its release.
            let given = window.waitForEvents(2, timeout: .seconds(5)).filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }
            #expect(given.map(\.kind) == [.buttonPress, .buttonRelease], "\(given)\n\(daemon.output)")
            #expect(given.first.map { ($0.rootX, $0.rootY) == (x, y) } == true, "\(given)")
            var after = Screenshot(client)
            let gone = poll(timeout: .seconds(3)) {
                after = Screenshot(client)
                return after.differences(from: before, in: area).isEmpty
            }
            #expect(gone, "\(after.differences(from: before, in: area).count) pixels of the trail remain")
            #expect(!client.feedbackWindows().contains { client.isMapped($0) })
            #expect(!client.feedbackWindows().contains(client.focus()))
            #expect(!daemon.output.contains("warning"), "\(daemon.output)")
        }
    }

    @Test("a click on the trail, mid-stroke, and on the OSD reaches the window below")
    func clicksGoThroughTheOverlays() throws {
        try XServer.with(windowManager: true) { server in
            let client = try XClient(server.name)
            // Where the press begins: a window that takes no button event and lets none go up to
            // the root (where openbox would take it), so that no window grabs the pointer for
            // the press and a click during it goes wherever the server finds the pointer.
            let start = try OverrideWindow(server, x: 100, y: 100, width: 300, height: 300, events: 0, blocking: true)
            // Below the trail: a window that records clicks.
            let below = try OverrideWindow(server, x: 420, y: 100, width: 500, height: 300, events: ButtonPressMask | ButtonReleaseMask, blocking: false)
            _ = start
            let daemon = try DaemonProcess(server, config: """
                [feedback]
                osd = true

                [[bind]]
                gesture = "stroke"
                shape = "circle"
                device = "pointer"
                action = "key F5"
                """, arguments: ["--dry-run"])
            let mouse = try PointerDriver(server)
            mouse.move(to: 250, 250)
            usleep(200_000)
            mouse.press(3)
            // Right, into the window below, 2 px at a time.
            Self.drive(mouse, along: (0...200).map { Point(x: Double(250 + 2 * $0), y: 250) })
            let end = (650, 250)
            let colour = Self.trailColor(over: 0xffffff, compositing: false)
            #expect(poll(timeout: .seconds(3)) { close(Screenshot(client)[end.0 - 20, end.1], colour) }, "no trail over the window\n\(daemon.output)")
            #expect(client.feedbackWindows().contains { client.isMapped($0) })
            // A click where the trail is, while it is shown.
            mouse.press(1)
            mouse.release(1)
            #expect(poll { below.received().contains(ButtonPress) }, "the click on the trail did not reach the window below: \(below.received())")
            mouse.release(3)
            // The OSD (a scribble matched no circle) near where it ended: a click on it too.
            var shownOSD: Window? = nil
            _ = poll(timeout: .seconds(3)) {
                shownOSD = client.feedbackWindows().first { client.isMapped($0) && client.name(of: $0) == "gesture-bridge OSD" }
                return shownOSD != nil
            }
            let osd = try #require(shownOSD, "no OSD: \(daemon.output)")
            var attributes = XWindowAttributes()
            XGetWindowAttributes(client.display, osd, &attributes)
            #expect(attributes.width > 40 && attributes.height > 10 && attributes.override_redirect != 0)
            below.clear()
            mouse.move(to: Int(attributes.x + attributes.width / 2), Int(attributes.y + attributes.height / 2))
            mouse.press(1)
            mouse.release(1)
            #expect(poll { below.received().contains(ButtonPress) }, "the click on the OSD did not reach the window below: \(below.received())")
            #expect(!client.feedbackWindows().contains(client.focus()))
            // It comes off after osd_duration_ms.
            #expect(poll(timeout: .seconds(3)) { !client.isMapped(osd) })
        }
    }

    @Test("a one-finger swipe on the touchscreen draws its trail while it is undecided, and it is gone after the lift",
          .enabled(if: XServer.canRunXorgInputTest, "headless Xorg with inputtest devices needs root"))
    func aTouchscreenSwipeDrawsItsTrail() throws {
        let config = """
            [feedback]
            osd = false

            [[bind]]
            gesture = "stroke"
            shape = "circle"
            device = "touchscreen"
            action = "key F5"

            [[bind]]
            gesture = "swipe"
            device = "touchscreen"
            direction = "right"
            action = "key F6"
            """
        try TouchSession.with(config: config, width: 700, height: 500) { s in
            let keys = try RawKeyObserver(server: s.server.name)
            let (x, y) = s.centre
            let frame = s.window.rootFrame()
            let area = (x: frame.x, y: frame.y, width: frame.width, height: frame.height)
            usleep(200_000)
            let before = Screenshot(s.client)
            // Right 240 px, 4 px every 8 ms: a swipe, pending until the lift (a stroke is bound).
            let path = (0...60).map { Point(x: Double(x - 120 + 4 * $0), y: Double(y)) }
            try s.touch.touch(.begin, id: 1, x: path[0].x, y: path[0].y)
            try s.touch.sync()
            for p in path.dropFirst() {
                usleep(8_000)
                try s.touch.touch(.update, id: 1, x: p.x, y: p.y)
            }
            try s.touch.sync()
            let colour = Self.trailColor(over: 0xffffff, compositing: false)
            var mid = Screenshot(s.client)
            #expect(poll(timeout: .seconds(3)) {
                mid = Screenshot(s.client)
                return close(mid[x + 100, y], colour)
            }, "no trail at the swipe's end\n\(s.daemon.output)")
            let missing = path.filter { !close(mid[Int($0.x), Int($0.y)], colour) }
            #expect(missing.isEmpty, "\(missing.count) of \(path.count) points without the trail")
            let stray = mid.differences(from: before, in: area).filter { distance(from: Point(x: Double($0.0), y: Double($0.1)), toPolyline: path) > 3.5 }
            #expect(stray.isEmpty, "\(stray.count) changed pixels away from the path, first \(stray.prefix(5))")
            try s.touch.touch(.end, id: 1, x: path.last!.x, y: path.last!.y)
            try s.touch.sync()
            #expect(poll { keys.pump().contains("up F6") }, "the swipe fired: \(keys.lines)\n\(s.daemon.output)")
            #expect(poll(timeout: .seconds(3)) { Screenshot(s.client).differences(from: before, in: area).isEmpty }, "the trail remains")
        }
    }
}

/// An override-redirect window on its own connection (no window manager frames or focuses
/// it), recording the core events it selected.
final class OverrideWindow {
    let client: XClient
    let window: Window
    private var events: [Int32] = []

    /// - Parameter blocking: its button events go no further up than itself (`do_not_propagate_mask`).
    init(_ server: XServer, x: Int, y: Int, width: Int, height: Int, events mask: Int, blocking: Bool) throws {
        client = try XClient(server.name)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = 0xffffff
        attributes.event_mask = mask | StructureNotifyMask
        attributes.do_not_propagate_mask = blocking ? ButtonPressMask | ButtonReleaseMask : 0
        window = XCreateWindow(client.display, client.root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, Int32(CopyFromParent),
                               UInt32(InputOutput), nil, UInt(CWOverrideRedirect | CWBackPixel | CWEventMask | CWDontPropagate), &attributes)
        XMapRaised(client.display, window)
        XSync(client.display, 0)
        guard poll(timeout: .seconds(5), { client.isMapped(window) }) else { throw HarnessError("override-redirect window not mapped") }
    }

    /// The types of the events received so far.
    func received() -> [Int32] {
        while XPending(client.display) > 0 {
            var event = XEvent()
            XNextEvent(client.display, &event)
            events.append(event.type)
        }
        return events
    }

    func clear() {
        _ = received()
        events = []
    }
}
