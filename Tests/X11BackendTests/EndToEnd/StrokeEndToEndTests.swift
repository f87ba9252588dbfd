import CX11
import Foundation
import GestureEngine
import GestureTestKit
import Testing

/// Strokes drawn live on real X servers (contract section 7): with the right button on Xvfb +
/// openbox through XTest relative motion, and with one finger on the headless Xorg touchscreen
/// (`inputtest`). The paths are ``StrokeSynth``'s, drawn at their own timing (125 events a
/// second). What fires is seen by a separate client (raw key events); what is given back, by a
/// window openbox manages.
@Suite("strokes, end to end", .serialized)
struct StrokeEndToEndTests {
    /// A circle drawn with the right button or one finger presses F5.
    static let config = """
        [[bind]]
        gesture = "stroke"
        shape = "circle"
        action = "key F5"
        """

    static func shape(_ name: String) -> StrokeShape { StrokeShape.builtIn.first { $0.name == name }! }

    /// `name` as a hand draws it, centred on (`x`, `y`), 200 px across.
    static func drawn(_ name: String, at x: Int, _ y: Int, seed: UInt64 = 11) -> [StrokeSynth.Sample] {
        StrokeSynth.timedPath(for: shape(name), seed: seed, origin: Point(x: Double(x), y: Double(y)))
    }

    // MARK: - Pointer (Xvfb + openbox)

    @Test("a right-button circle fires its key, seen by another client; the window under it gets no click")
    func pointerCircleFires() throws {
        try PointerGiveBackTests.withSession(config: Self.config) { s in
            let keys = try RawKeyObserver(server: s.server.name)
            let (x, y) = s.centre
            s.mouse.draw(Self.drawn("circle", at: x, y))
            #expect(poll { keys.pump().contains("up F5") }, "\(keys.lines)\n\(s.daemon.output)")
            #expect(keys.lines == ["down F5", "up F5"], "\(keys.lines)")
            usleep(100_000)
            let buttons = PointerGiveBackTests.buttons(s.window.waitForEvents(0, timeout: .zero))
            #expect(buttons.isEmpty, "the stroke reached the window: \(buttons)\n\(s.daemon.output)")
        }
    }

    @Test("an unmatched right-button scribble goes back to the window: its press where it began and its release, nothing else")
    func pointerScribbleIsGivenBack() throws {
        try PointerGiveBackTests.withSession(config: Self.config) { s in
            let keys = try RawKeyObserver(server: s.server.name)
            let (x, y) = s.centre
            let samples = Self.drawn("zig-zag", at: x, y)
            let start = (Int(samples[0].point.x.rounded()), Int(samples[0].point.y.rounded()))
            let end = s.mouse.draw(samples)
            let events = s.givenBack()
            let buttons = PointerGiveBackTests.buttons(events)
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(s.daemon.output)")
            #expect(buttons.first.map { ($0.rootX, $0.rootY) == start } == true, "pressed at \(start): \(buttons)")
            #expect(buttons.last.map { ($0.rootX, $0.rootY) == end } == true, "released at \(end): \(buttons)")
            #expect(!events.contains { $0.kind != .motion && $0.detail != 3 }, "only button 3 and motion: \(events)")
            usleep(100_000)
            #expect(keys.pump().isEmpty, "a key fired: \(keys.lines)\n\(s.daemon.output)")
            // And a circle still fires after it.
            s.mouse.draw(Self.drawn("circle", at: x, y, seed: 12))
            #expect(poll { keys.pump().contains("up F5") }, "\(keys.lines)\n\(s.daemon.output)")
        }
    }

    // MARK: - Touchscreen (headless Xorg + inputtest)

    @Test("a one-finger circle on the touchscreen fires its key; the window under it gets no click",
          .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
    func touchCircleFires() throws {
        try TouchSession.with(config: Self.config, width: 700, height: 500, probingDrags: true) { s in
            let keys = try RawKeyObserver(server: s.server.name)
            let (x, y) = s.centre
            try s.touch.draw(Self.drawn("circle", at: x, y))
            #expect(poll { keys.pump().contains("up F5") }, "\(keys.lines)\n\(s.daemon.output)")
            #expect(keys.lines == ["down F5", "up F5"], "\(keys.lines)")
            usleep(200_000)
            s.window.pump()
            let clicks = s.window.received.filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }
            #expect(clicks.isEmpty, "the stroke reached the window: \(clicks)\n\(s.daemon.output)")
            // The touch was accepted after its end, as a bound tap's is: the daemon resets the
            // emulated button 1 (see docs/design.md), and no window following button-1 drags
            // gets mouse motion afterwards; a tap afterwards reaches the window.
            #expect(poll(timeout: .seconds(2)) { s.daemon.output.contains(TouchEndToEndTests.resetLogLine) }, "the reset ran: \(s.daemon.output)")
            let mouse = try PointerDriver(s.server)
            for step in 0...4 { mouse.move(to: x - 50 + 5 * step, y) }
            usleep(50_000)
            #expect(s.dragProbe?.pump().isEmpty == true, "a window following button-1 drags got motion\n\(s.daemon.output)")
            s.window.reset()
            try s.touch.tap(at: Double(x), Double(y))
            #expect(s.window.waitForEvents(2).map(\.kind) == [.buttonPress, .buttonRelease],
                    "\(s.window.received)\n\(s.daemon.output)")
        }
    }

    @Test("an unmatched one-finger path is given back: the touch is rejected and the window receives it",
          .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
    func touchScribbleIsGivenBack() throws {
        try TouchSession.with(config: Self.config, width: 700, height: 500) { s in
            let keys = try RawKeyObserver(server: s.server.name)
            let (x, y) = s.centre
            let samples = Self.drawn("zig-zag", at: x, y)
            try s.touch.draw(samples)
            let events = s.window.waitForEvents(2, timeout: .seconds(5))
            let buttons = events.filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(s.daemon.output)")
            #expect(buttons.allSatisfy { $0.detail == 1 }, "pointer emulation clicks button 1: \(buttons)")
            let first = samples[0].point
            #expect(buttons.first.map { abs(Double($0.rootX) - first.x) <= 1 && abs(Double($0.rootY) - first.y) <= 1 } == true,
                    "pressed where the finger landed, \(first): \(buttons)")
            usleep(100_000)
            #expect(keys.pump().isEmpty, "a key fired: \(keys.lines)\n\(s.daemon.output)")
            #expect(poll(timeout: .seconds(1)) { s.client.buttonsDown() == 0 }, "button mask \(s.client.buttonsDown())")
        }
    }
}

// MARK: - Drawing a stroke as a hand would

extension PointerDriver {
    /// Moves to the first sample, presses `button`, follows the samples at their own times
    /// with relative motion, releases; returns where the pointer ended (root pixels).
    ///
    /// Each step is cut into moves of at most 2 px, below the server's acceleration threshold,
    /// so that the pointer lands exactly on the drawn path.
    @discardableResult
    func draw(_ samples: [StrokeSynth.Sample], button: UInt32 = 3) -> (Int, Int) {
        guard let first = samples.first else { return (0, 0) }
        var x = Int(first.point.x.rounded()), y = Int(first.point.y.rounded())
        move(to: x, y)
        press(button)
        let start = ContinuousClock.now
        for sample in samples.dropFirst() {
            let tx = Int(sample.point.x.rounded()), ty = Int(sample.point.y.rounded())
            while (x, y) != (tx, ty) {
                let dx = max(-2, min(2, tx - x)), dy = max(-2, min(2, ty - y))
                XTestFakeRelativeMotionEvent(client.display, Int32(dx), Int32(dy), 0)
                x += dx
                y += dy
            }
            XSync(client.display, 0)
            let due = start + .milliseconds(Int(sample.time * 1000))
            if due > .now { sleep(due - .now) }
        }
        release(button)
        return (x, y)
    }
}

extension InputTestDevice {
    /// One finger (touch 1) draws the samples at their own times, then lifts.
    func draw(_ samples: [StrokeSynth.Sample]) throws {
        guard let first = samples.first, let last = samples.last else { return }
        try touch(.begin, id: 1, x: first.point.x, y: first.point.y)
        try sync()
        let start = ContinuousClock.now
        for sample in samples.dropFirst() {
            let due = start + .milliseconds(Int(sample.time * 1000))
            if due > .now { sleep(due - .now) }
            try touch(.update, id: 1, x: sample.point.x, y: sample.point.y)
        }
        try touch(.end, id: 1, x: last.point.x, y: last.point.y)
        try sync()
    }
}
