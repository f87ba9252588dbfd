import CX11
import Foundation
import GestureEngine
import Testing

/// What befalls the on-screen feedback on a real desktop, and that it never stops gestures
/// (docs/config.md, «Feedback»: "a problem drawing … is logged once and never stops
/// gestures"; docs/reliability.md): the compositor killed mid-stroke and started again, a
/// monitor plugged in and out, the overlay destroyed by another client, its connection killed
/// (`xkill`). After each, the next gesture fires, the trail is drawn again, and the log says
/// what happened in one line.
@Suite("on-screen feedback when things go wrong, end to end", .serialized)
struct FeedbackResilienceTests {
    /// The trail's config (a pointer circle is bound, so the trail is on for the pointer, no
    /// OSD) and a swipe down that types F6.
    static let config = FeedbackEndToEndTests.config + """


        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "down"
        action = "key F6"
        """

    /// A daemon on a server, with a mouse driven through XTest and an observer of its keys.
    final class Session {
        let server: XServer
        let client: XClient
        let mouse: PointerDriver
        let keys: RawKeyObserver
        let daemon: DaemonProcess
        /// White under where the gestures are made: what a compositor paints the bare root with
        /// is its own choice, a window's colour is not.
        let background: OverrideWindow

        init(_ server: XServer) throws {
            self.server = server
            background = try OverrideWindow(server, x: 100, y: 100, width: 1000, height: 600, events: 0, blocking: true)
            client = try XClient(server.name)
            // On the screen (a compositor paints a new window when it gets to it).
            guard poll(timeout: .seconds(5), { [client] in Screenshot(client)[600, 400] == 0xffffff }) else {
                throw HarnessError("the white background is not on the screen")
            }
            mouse = try PointerDriver(server)
            keys = try RawKeyObserver(server: server.name)
            daemon = try DaemonProcess(server, config: FeedbackResilienceTests.config)
        }

        /// Presses the right button at (`x`, `y`) and draws the first `part` of an "L" from there.
        func beginStroke(at x: Int, _ y: Int, part: Range<Int>? = nil) -> [Point] {
            let path = FeedbackEndToEndTests.ell(from: x, y)
            mouse.move(to: x, y)
            usleep(200_000)
            mouse.press(3)
            // The daemon follows a press by the raw motion it selects when the press reaches it.
            usleep(150_000)
            FeedbackEndToEndTests.drive(mouse, along: Array(path[part ?? path.indices]))
            return path
        }

        /// Draws an "L" from (`x`, `y`) with the right button; nil when the screen showed the
        /// trail along it before the release (`compositing`: blended by a compositor), else what
        /// it showed. Not a circle: the press goes back to the application, and the trail goes.
        ///
        /// The trail is looked for anywhere near the path, not at its exact pixels: on a loaded
        /// machine the daemon may see the drag's first motion late and draw the line a few
        /// pixels off (FeedbackEndToEndTests checks where it is drawn; this, that it is).
        func trailMissing(at x: Int, _ y: Int, compositing: Bool) -> String? {
            _ = beginStroke(at: x, y)
            // Over the white background (a compositor just started may not have painted it yet:
            // the screen before the stroke is no guide); without a compositor the line is opaque.
            let colour = FeedbackEndToEndTests.trailColor(over: 0xffffff, compositing: compositing)
            // The path's box, 40 px around it: 280 × 180 px. The line (4 px wide, 300 px long)
            // covers over 1,000 of them.
            let box = (x: x - 40, y: y - 40, width: 280, height: 180)
            var found = 0
            let drawn = poll(timeout: .seconds(5)) {
                let screen = Screenshot(client)
                found = 0
                for py in box.y..<(box.y + box.height) {
                    for px in box.x..<(box.x + box.width) where close(screen[px, py], colour) { found += 1 }
                }
                return found >= Self.trailPixels
            }
            mouse.release(3)
            _ = poll(timeout: .seconds(3)) { !client.feedbackWindows().contains { client.isMapped($0) } }
            let hex = String(colour, radix: 16)
            return drawn ? nil : "\(found) pixels of the trail's colour \(hex) near the path from (\(x), \(y)), expected \(Self.trailPixels)\n\(daemon.output)"
        }

        /// Pixels of the trail's colour that show a trail is drawn: a third of a 300 px line's.
        static let trailPixels = 400

        /// Draws an "L" from (200, 200) and runs `interruption` a third of the way along it.
        func stroke(interruptedBy interruption: () -> Void) {
            let path = beginStroke(at: 200, 200, part: 0..<50)
            interruption()
            FeedbackEndToEndTests.drive(mouse, along: Array(path[49...]))
            mouse.release(3)
        }

        /// Another client destroys the overlays (`XDestroyWindow`).
        func destroyOverlays() {
            let overlays = client.feedbackWindows()
            #expect(!overlays.isEmpty)
            for window in overlays { XDestroyWindow(client.display, window) }
            XSync(client.display, 0)
        }

        /// Another client kills the overlays' client: what `xkill` does to the window clicked
        /// (`XKillClient`), the connection that made it is closed.
        func killOverlayClient() {
            let overlays = client.feedbackWindows()
            #expect(!overlays.isEmpty)
            if let window = overlays.first { XKillClient(client.display, window) }
            XSync(client.display, 0)
        }

        /// A fast drag down from (`x`, `y`): whether its key came.
        func swipeFires(at x: Int, _ y: Int) -> Bool {
            keys.reset()
            mouse.move(to: x, y)
            usleep(100_000)
            mouse.press(3)
            mouse.drag(by: 0, 200)
            mouse.release(3)
            return poll { keys.pump().contains("up F6") }
        }

        /// The daemon's log lines that contain `text`.
        func lines(_ text: String) -> [Substring] {
            daemon.output.split(separator: "\n").filter { $0.contains(text) }
        }
    }

    @Test("the compositor killed mid-stroke: one line, gestures fire, the trail is drawn opaque; started again: one line, drawn translucent",
          arguments: ["xcompmgr", "picom"])
    func aLostCompositor(compositor: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/\(compositor)") else {
            Issue.record("\(compositor) is not installed: run scripts/setup-debian")
            return
        }
        let argv = compositor == "picom" ? ["picom", "--backend", "xrender", "--no-fading-openclose", "--shadow-opacity", "0"] : ["xcompmgr"]
        try XServer.with(windowManager: true) { server in
            let running = try Compositor(server, argv)
            let s = try Session(server)
            #expect(s.trailMissing(at: 200, 200, compositing: true) == nil)
            #expect(s.swipeFires(at: 700, 200))

            // Killed (SIGKILL: no chance to give anything back) while a trail is on the screen.
            s.stroke(interruptedBy: running.crash)
            #expect(s.swipeFires(at: 700, 200), "\(s.daemon.output)")
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)
            #expect(s.swipeFires(at: 700, 200))
            #expect(s.lines("the compositor stopped").count == 1, "\(s.daemon.output)")

            // Started again.
            let again = try Compositor(server, argv)
            defer { again.stop() }
            #expect(s.trailMissing(at: 200, 200, compositing: true) == nil)
            #expect(s.swipeFires(at: 700, 200))
            #expect(s.lines("a compositor started").count == 1, "\(s.daemon.output)")
            #expect(s.lines("the compositor stopped").count == 1, "\(s.daemon.output)")
            #expect(s.lines("warning").isEmpty && s.lines("error").isEmpty, "\(s.daemon.output)")
            #expect(s.daemon.process.isRunning)
        }
    }

    @Test("the overlay destroyed by another client, idle and mid-stroke: one line, gestures fire, the trail is drawn again")
    func aDestroyedOverlay() throws {
        try XServer.with(windowManager: true) { server in
            let s = try Session(server)
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)
            // Between gestures.
            s.destroyOverlays()
            #expect(s.swipeFires(at: 700, 200), "\(s.daemon.output)")
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)

            // While the trail is drawn: the rest of that stroke is not, the next one is.
            s.stroke(interruptedBy: s.destroyOverlays)
            #expect(s.swipeFires(at: 700, 200), "\(s.daemon.output)")
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)
            #expect(s.swipeFires(at: 700, 200))
            #expect(s.lines("destroyed by another client").count == 1, "\(s.daemon.output)")
            #expect(s.lines("warning").count == 1, "\(s.daemon.output)")
            #expect(s.daemon.process.isRunning)
        }
    }

    @Test("the overlay's client killed (xkill), idle: one line, gestures fire, the trail is drawn again; killed again mid-stroke: one more line, gestures fire")
    func aKilledOverlayClient() throws {
        try XServer.with(windowManager: true) { server in
            let s = try Session(server)
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)
            s.killOverlayClient()
            #expect(s.swipeFires(at: 700, 200), "\(s.daemon.output)")
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)
            #expect(s.lines("connection to the X server was closed").count == 1, "\(s.daemon.output)")

            // Again, within seconds and mid-stroke: said again, gestures go on.
            s.stroke(interruptedBy: s.killOverlayClient)
            #expect(s.swipeFires(at: 700, 200), "\(s.daemon.output)")
            #expect(s.swipeFires(at: 700, 200))
            #expect(poll { s.lines("connection to the X server was closed").count == 2 }, "\(s.daemon.output)")
            #expect(s.lines("warning").count == 2, "\(s.daemon.output)")
            #expect(s.daemon.process.isRunning)
        }
    }

    @Test("a monitor plugged in, the screen growing, and unplugged again (headless Xorg): one line, gestures fire, the trail is drawn on the new monitor",
          .enabled(if: XServer.canRunXorgInputTest, "headless Xorg with inputtest devices needs root"))
    func aMonitorChange() throws {
        try XServer.with(.xorgInputTest) { server in
            let s = try Session(server)
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)
            // To the right of DUMMY0: the screen grows to 3200×1080.
            try TouchscreenMappingEndToEndTests.plug(server, "DUMMY1", 1920, 1080, "--right-of", "DUMMY0")
            #expect(poll { Screenshot(s.client).width == 3200 })
            #expect(s.swipeFires(at: 2000, 200), "\(s.daemon.output)")
            // Drawn where the screen was not when the overlay was made.
            #expect(s.trailMissing(at: 2000, 300, compositing: false) == nil)
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)
            // Unplugged: the screen shrinks back.
            try TouchscreenMappingEndToEndTests.xrandr(server, "--output", "DUMMY1", "--off")
            try TouchscreenMappingEndToEndTests.xrandr(server, "--fb", "1280x800")
            #expect(poll { Screenshot(s.client).width == 1280 })
            #expect(s.swipeFires(at: 700, 200), "\(s.daemon.output)")
            #expect(s.trailMissing(at: 200, 200, compositing: false) == nil)
            #expect(s.lines("the screen changed").count == 1, "\(s.daemon.output)")
            #expect(s.lines("warning").isEmpty, "\(s.daemon.output)")
            #expect(s.daemon.process.isRunning)
        }
    }
}
