import CX11
import Foundation
import GestureTestKit
import Testing

/// A touch-aware application gets its touches at once and whole (issue 24, item 5): on headless
/// Xorg with a client that selects XI 2.2 touch events on its window (as Firefox with XInput2
/// and Chromium do), a 3-finger swipe and a 2-finger pinch bound. Each touch that is not a
/// gesture arrives complete — its begin, every update, its end — and soon: one finger when the
/// fingers have settled, two fingers scrolling together as they pass the slop; a long scroll
/// arrives with every update although the server replays only 98 of an undecided touch.
@Suite("touches handed over to a touch-aware application, end to end on headless Xorg", .serialized,
       .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
struct TouchHandOverTests {
    /// A 3-finger swipe (an `exec` marker) and a 2-finger pinch.
    private static func config(marker: String) -> String {
        """
        [[bind]]
        gesture = "swipe"
        fingers = 3
        direction = "right"
        device = "touchscreen"
        action = "exec sh -c 'echo swipe >> \(marker)'"

        [[bind]]
        gesture = "pinch"
        fingers = 2
        device = "touchscreen"
        action = "key ctrl+plus"
        """
    }

    /// The client: XI 2.2 touch events on a window openbox manages, with `XI_TouchOwnership`
    /// or without; what it received per touch, with when (the local monotonic clock).
    final class TouchApp {
        struct Sequence {
            var begin: ContinuousClock.Instant?
            var owned: ContinuousClock.Instant?
            var updates = 0
            var end: ContinuousClock.Instant?
        }
        let client: XClient
        private let opcode: Int32
        private(set) var touches: [UInt32: Sequence] = [:]
        private(set) var order: [UInt32] = []

        init(server: String, window: Window, ownership: Bool) throws {
            client = try XClient(server)
            opcode = try client.xinput22Opcode(server)
            var events = [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd]
            if ownership { events.append(XI_TouchOwnership) }
            guard client.selectXI(events, on: window) else { throw HarnessError("XISelectEvents failed on \(server)") }
        }

        func pump() {
            let display = client.display
            client.forEachPendingEvent { event in
                guard event.type == GenericEvent, event.xcookie.extension == opcode, XGetEventData(display, &event.xcookie) != 0 else { return }
                defer { XFreeEventData(display, &event.xcookie) }
                let now = ContinuousClock.now
                let type = event.xcookie.evtype
                let id: UInt32
                var pendingEnd = false
                if type == XI_TouchOwnership {
                    id = event.xcookie.data.assumingMemoryBound(to: XITouchOwnershipEvent.self).pointee.touchid
                } else {
                    let e = event.xcookie.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
                    id = UInt32(bitPattern: e.detail)
                    pendingEnd = e.flags & Int32(XITouchPendingEnd) != 0
                }
                if touches[id] == nil { order.append(id) }
                switch type {
                case XI_TouchBegin: touches[id, default: Sequence()].begin = now
                // Not an update of the finger: a listener that is not the owner yet learns that
                // the finger lifted (XI 2.2's pending end).
                case XI_TouchUpdate where pendingEnd: break
                case XI_TouchUpdate: touches[id, default: Sequence()].updates += 1
                case XI_TouchEnd: touches[id, default: Sequence()].end = now
                case XI_TouchOwnership: touches[id, default: Sequence()].owned = now
                default: break
                }
            }
        }

        /// Reads events for `ms` milliseconds, every millisecond (so arrival times are exact
        /// to about 1 ms).
        func read(for ms: Int) {
            let until = ContinuousClock.now + .milliseconds(ms)
            repeat {
                pump()
                usleep(1_000)
            } while ContinuousClock.now < until
        }

        /// The touches received since `count` were known, in order.
        func touches(after count: Int) -> [Sequence] { order.dropFirst(count).compactMap { touches[$0] } }

        /// When a touch became the application's: its ownership with `XI_TouchOwnership`
        /// selected (its events come live), else its begin (replayed at the rejection).
        static func handedOver(_ s: Sequence) -> ContinuousClock.Instant? { s.owned ?? s.begin }
    }

    private static func milliseconds(_ d: Duration) -> Double { Double(d / .microseconds(1)) / 1000 }

    /// Runs `body` with the server, the app's window and client, the daemon and the touchscreen.
    private func withApp(ownership: Bool, _ body: (TouchApp, InputTestDevice, DaemonProcess, (Int, Int), () -> Int) throws -> Void) throws {
        let marker = URL(fileURLWithPath: TestScratch.path("gb-handover"))
        defer { try? FileManager.default.removeItem(at: marker) }
        try XServer.with(.xorgInputTest, windowManager: true) { server in
            let window = try EventWindow(server: server.name, width: 900, height: 700)
            let app = try TouchApp(server: server.name, window: window.window, ownership: ownership)
            let daemon = try DaemonProcess(server, config: Self.config(marker: marker.path), arguments: ["--verbose"])
            let touch = try server.touchscreen()
            let fired = { ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n").count }
            try body(app, touch, daemon, window.centre(), fired)
        }
    }

    @Test("one-finger taps and drags and two-finger scrolls reach the app whole and promptly; a long scroll keeps all 150 updates; a bound pinch and swipe stay the bridge's",
          arguments: [false, true])
    func touchesReachTheAppWholeAndPromptly(ownership: Bool) throws {
        try withApp(ownership: ownership) { app, touch, daemon, centre, fired in
            let (x, y) = (Double(centre.0), Double(centre.1))
            let settleMs = 100.0  // finger_settle_ms: a 3-finger binding waits for more fingers
            // What a timer's wake may be late on a loaded machine (~70 ms seen with the whole
            // suite running on 2 cores); the gestures that wait for the settle last 300 ms and
            // more, so a hand-over within it is still long before their lift.
            let slackMs = 100.0

            // A one-finger tap (40 ms): the lift fixes the count, so it is the app's at the lift.
            let tapped = ContinuousClock.now
            try touch.touch(.begin, id: 1, x: x - 200, y: y)
            try touch.sync()
            app.read(for: 40)
            try touch.touch(.end, id: 1, x: x - 200, y: y)
            try touch.sync()
            app.read(for: 150)
            let tap = app.touches(after: 0)
            #expect(tap.count == 1 && tap.first?.updates == 0 && tap.first?.end != nil, "\(tap)\n\(daemon.output.suffix(3000))")
            let tapDelay = tap.first.flatMap(TouchApp.handedOver).map { Self.milliseconds($0 - tapped) } ?? .infinity
            // Its lift decided it.
            #expect(tapDelay <= 40 + slackMs, "a tap handed over \(tapDelay) ms after it landed")

            // One finger dragging 10 px every 10 ms, 30 updates: it lasts well past the settle
            // window, so a hand-over at the settle is told from one at the lift.
            var known = app.touches(after: 0).count
            let landed = ContinuousClock.now
            try touch.touch(.begin, id: 1, x: x - 200, y: y)
            try touch.sync()
            app.read(for: 10)
            for k in 1...30 {
                try touch.touch(.update, id: 1, x: x - 200 + 10 * Double(k), y: y)
                try touch.sync()
                app.read(for: 10)
            }
            try touch.touch(.end, id: 1, x: x + 100, y: y)
            try touch.sync()
            app.read(for: 100)
            let drag = app.touches(after: known)
            #expect(drag.count == 1 && drag.first?.updates == 30 && drag.first?.end != nil, "\(drag)\n\(daemon.output.suffix(3000))")
            let dragDelay = drag.first.flatMap(TouchApp.handedOver).map { Self.milliseconds($0 - landed) } ?? .infinity
            #expect(dragDelay <= settleMs + slackMs, "a one-finger drag handed over \(dragDelay) ms after it landed")
            known = app.order.count

            /// Two fingers 80 px apart land at `top`, rest `restMs`, scroll down together 5 px
            /// every 10 ms for `steps` steps and lift; returns when they passed the slop.
            func scroll(from top: Double, restMs: Int, steps: Int) throws -> ContinuousClock.Instant {
                try touch.touch(.begin, id: 1, x: x - 40, y: top)
                try touch.touch(.begin, id: 2, x: x + 40, y: top)
                try touch.sync()
                app.read(for: restMs)
                var pastSlop: ContinuousClock.Instant? = nil
                for k in 1...steps {
                    let dy = 5 * Double(k)
                    try touch.touch(.update, id: 1, x: x - 40, y: top + dy)
                    try touch.touch(.update, id: 2, x: x + 40, y: top + dy)
                    try touch.sync()
                    if dy > 10 && pastSlop == nil { pastSlop = ContinuousClock.now }
                    app.read(for: 10)
                }
                try touch.touch(.end, id: 1, x: x - 40, y: top + 5 * Double(steps))
                try touch.touch(.end, id: 2, x: x + 40, y: top + 5 * Double(steps))
                try touch.sync()
                app.read(for: 100)
                return pastSlop ?? .now
            }

            // Two fingers rest past the settle window, then scroll.
            let pastSlop = try scroll(from: y - 200, restMs: Int(settleMs) + 30, steps: 30)
            let scrolled = app.touches(after: known)
            #expect(scrolled.count == 2 && scrolled.allSatisfy { $0.updates == 30 && $0.end != nil }, "\(scrolled)\n\(daemon.output.suffix(3000))")
            let scrollDelays = scrolled.compactMap(TouchApp.handedOver).map { Self.milliseconds($0 - pastSlop) }
            #expect(scrollDelays.count == 2 && scrollDelays.allSatisfy { $0 <= 50 }, "handed over \(scrollDelays) ms after passing the slop")
            known = app.order.count

            // Two fingers that scroll as they land: past the slop before the settle window
            // closes, they are handed over when it does.
            let scrolledAtOnce = ContinuousClock.now
            _ = try scroll(from: y - 200, restMs: 0, steps: 40)
            let early = app.touches(after: known)
            #expect(early.count == 2 && early.allSatisfy { $0.updates == 40 && $0.end != nil }, "\(early)\n\(daemon.output.suffix(3000))")
            let earlyDelays = early.compactMap(TouchApp.handedOver).map { Self.milliseconds($0 - scrolledAtOnce) }
            #expect(earlyDelays.count == 2 && earlyDelays.allSatisfy { $0 <= settleMs + slackMs }, "handed over \(earlyDelays) ms after landing")
            known = app.order.count

            // Two fingers tremble in place (no pinch, no scroll yet) for 120 updates, then
            // scroll 30: 150 updates each, more than the 98 the server keeps.
            try touch.touch(.begin, id: 1, x: x - 40, y: y)
            try touch.touch(.begin, id: 2, x: x + 40, y: y)
            try touch.sync()
            for k in 1...150 {
                let dy = k <= 120 ? Double(k % 2) : 5 * Double(k - 120)
                try touch.touch(.update, id: 1, x: x - 40, y: y + dy)
                try touch.touch(.update, id: 2, x: x + 40, y: y + dy)
                try touch.sync()
                app.read(for: 2)
            }
            try touch.touch(.end, id: 1, x: x - 40, y: y + 150)
            try touch.touch(.end, id: 2, x: x + 40, y: y + 150)
            try touch.sync()
            app.read(for: 200)
            let long = app.touches(after: known)
            #expect(long.count == 2 && long.allSatisfy { $0.updates == 150 && $0.end != nil }, "\(long)\n\(daemon.output.suffix(3000))")
            known = app.order.count

            // A real pinch is the bridge's: it begins, and the app never owns its touches.
            try touch.touch(.begin, id: 1, x: x - 40, y: y)
            try touch.touch(.begin, id: 2, x: x + 40, y: y)
            try touch.sync()
            app.read(for: Int(settleMs) + 20)
            for k in 1...10 {
                try touch.touch(.update, id: 1, x: x - 40 - 8 * Double(k), y: y)
                try touch.touch(.update, id: 2, x: x + 40 + 8 * Double(k), y: y)
                try touch.sync()
                app.read(for: 10)
            }
            try touch.touch(.end, id: 1, x: x - 120, y: y)
            try touch.touch(.end, id: 2, x: x + 120, y: y)
            try touch.sync()
            app.read(for: 100)
            #expect(daemon.output.contains("pinch began"), "\(daemon.output.suffix(3000))")
            let pinch = app.touches(after: known)
            #expect(ownership ? pinch.allSatisfy { $0.owned == nil } : pinch.isEmpty, "\(pinch)")
            known = app.order.count

            // The bound swipe fires; without XI_TouchOwnership the app sees none of it, with it
            // the app sees the touches live but never owns them.
            try touch.swipe(fingers: 3, from: x - 150, y + 150, by: 300, 0)
            #expect(poll(timeout: .seconds(3)) { fired() == 1 }, "the bound swipe did not fire: \(daemon.output.suffix(3000))")
            app.read(for: 100)
            let swipe = app.touches(after: known)
            if ownership {
                #expect(swipe.allSatisfy { $0.owned == nil }, "\(swipe)")
            } else {
                #expect(swipe.isEmpty, "\(swipe)")
            }
            print("hand-over (ownership \(ownership)): one-finger tap \(tapDelay) ms after landing; one-finger drag \(dragDelay) ms after landing; two-finger scroll \(scrollDelays) ms after the slop, \(earlyDelays) ms after landing when it moves at once")
        }
    }
}
