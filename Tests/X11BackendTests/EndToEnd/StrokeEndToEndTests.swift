import CX11
import Foundation
import GestureEngine
import GestureTestKit
import Testing

/// Strokes drawn live on real X servers (docs/interface.md, «Strokes»): with the right button on Xvfb +
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

    @Test("--dry-run --json reports a right-button circle as the stroke it would fire, and the window still gets the press")
    func dryRunReportsAStroke() throws {
        try XServer.with(windowManager: true) { server in
            let window = try managedWindow(server)
            let daemon = try DaemonProcess(server, config: Self.config, arguments: ["--dry-run", "--json"])
            let keys = try RawKeyObserver(server: server.name)
            let (x, y) = window.centre()
            try PointerDriver(server).draw(Self.drawn("circle", at: x, y))
            #expect(poll { daemon.output.contains(#""gesture":"stroke","phase":"recognized""#) }, "\(daemon.output)")
            #expect(daemon.output.contains(#""shape":"circle","score":"#) && daemon.output.contains(#""action":"key F5"}"#),
                    "\(daemon.output)")
            // Nothing injected, nothing taken.
            let buttons = window.waitForEvents(2, timeout: .seconds(2)).filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(buttons)")
            usleep(100_000)
            #expect(keys.pump().isEmpty, "\(keys.lines)")
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

/// An 800 × 500 window, returned once openbox has placed it in its frame: strokes are then
/// drawn over where it really is.
private func managedWindow(_ server: XServer) throws -> EventWindow {
    let window = try EventWindow(server: server.name, x: 100, y: 100, width: 800, height: 500)
    let client = try XClient(server.name)
    #expect(poll(timeout: .seconds(10)) { window.parent() != client.root }, "openbox does not manage the window")
    usleep(100_000)
    return window
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
        draw(samples.map { ($0.point, $0.time) }, button: button)
    }

    /// ``draw(_:button:)`` for points with their times (seconds from the press).
    @discardableResult
    func draw(_ samples: [(point: Point, time: Double)], button: UInt32 = 3) -> (Int, Int) {
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
        try draw(samples.map { ($0.point, $0.time) })
    }

    /// ``draw(_:)`` for points with their times (seconds from the touch).
    func draw(_ samples: [(point: Point, time: Double)]) throws {
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

/// `gesture-bridge learn NAME` on Xvfb + openbox: it takes nothing from the window, refuses a
/// stroke that is too small, asks again for a drawing unlike the others, and prints the drawings
/// as a `[[shape]]` block that a config takes and the daemon fires.
@Suite("learn, end to end", .serialized)
struct LearnEndToEndTests {
    @Test("learn --samples 1 refuses a small stroke, prints the next as a [[shape]] block, exits 0; the window gets the right presses")
    func learnPrintsAShape() throws {
        try XServer.with(windowManager: true) { server in
            let window = try managedWindow(server)
            let learn = try DaemonProcess(server, config: "", arguments: ["learn", "L", "--samples", "1"])
            #expect(poll { learn.output.contains("draw the shape L now") }, "\(learn.output)")
            let mouse = try PointerDriver(server)
            let (x, y) = window.centre()
            // Too small: 30 px across.
            mouse.draw([(Point(x: Double(x), y: Double(y)), 0), (Point(x: Double(x), y: Double(y + 30)), 0.1)])
            #expect(poll { learn.output.contains("smaller than stroke_min_px") }, "\(learn.output)")
            // An "L": down 150 px, right 100 px.
            var samples: [(point: Point, time: Double)] = []
            for k in 0...30 { samples.append((Point(x: Double(x), y: Double(y - 75 + 5 * k)), Double(k) * 0.008)) }
            for k in 1...20 { samples.append((Point(x: Double(x + 5 * k), y: Double(y + 75)), 0.24 + Double(k) * 0.008)) }
            mouse.draw(samples)
            #expect(learn.waitForExit() == 0, "\(learn.output)")
            let output = learn.output
            let start = try #require(output.range(of: "[[shape]]"), "\(output)")
            let block = String(output[start.lowerBound...]).split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { !$0.isEmpty }.joined(separator: "\n")
            #expect(block.hasPrefix("[[shape]]\nname = \"L\"\npoints = [\n    [0, 0], "), "\(block)")
            // The block is a valid config shape, ending at the bottom right of the L.
            let file = URL(fileURLWithPath: TestScratch.path("gb-learned") + ".toml")
            try (block + "\n[[bind]]\ngesture = \"stroke\"\nshape = \"L\"\naction = \"key a\"\n").write(to: file, atomically: false, encoding: .utf8)
            let check = try runToCompletion([DaemonProcess.executable, "check-config", file.path])
            #expect(check.status == 0 && check.output.contains("valid, 1 binding, 1 shape"), "\(check.output)")
            // It ends at the bottom right of the L. (Its top may lack a few pixels: observing,
            // raw motion is only selected once the press is seen, a round trip after it.)
            #expect(block.hasSuffix(", [100, 150]\n]") || block.hasSuffix(", [100, 145]\n]") || block.hasSuffix(", [100, 140]\n]"), "\(block)")
            // Nothing was taken: the window got both right presses and their releases.
            let buttons = window.waitForEvents(4, timeout: .seconds(2)).filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease, .buttonPress, .buttonRelease], "\(buttons) \(window.received)")
        }
    }

    /// An "L" drawn from (`x`, `y`) down `height` px and right `width` px, the corner cut by
    /// `round` px, at 5 px per 8 ms (a hand's 0.6 px/ms).
    static func ell(at x: Int, _ y: Int, height: Int, width: Int, round: Int = 0) -> [(point: Point, time: Double)] {
        var corners = [Point(x: Double(x), y: Double(y)), Point(x: Double(x), y: Double(y + height - round))]
        if round > 0 { corners.append(Point(x: Double(x + round), y: Double(y + height))) }
        corners.append(Point(x: Double(x + width), y: Double(y + height)))
        var samples: [(point: Point, time: Double)] = [(corners[0], 0)]
        for (a, b) in zip(corners, corners.dropFirst()) {
            let steps = max(1, Int((a.distance(to: b) / 5).rounded()))
            for k in 1...steps {
                samples.append((a + (b - a) * (Double(k) / Double(steps)), samples[samples.count - 1].time + 0.008))
            }
        }
        return samples
    }

    @Test("learn --samples 3 refuses a drawing under stroke_min_mm, asks again for one unlike the others, and prints a shape that loads and fires")
    func learnFromSeveralDrawings() throws {
        try XServer.with(windowManager: true) { server in
            let window = try managedWindow(server)
            let learn = try DaemonProcess(server, config: "[recognizer]\nstroke_min_mm = 20\n", arguments: ["learn", "L", "--samples", "3"])
            #expect(poll { learn.output.contains("draw the shape L now, 3 times") }, "\(learn.output)")
            let mouse = try PointerDriver(server)
            let (x, y) = window.centre()
            // 40 px across: under 20 mm at any density a screen has (2 px/mm and more).
            mouse.draw(Self.ell(at: x, y, height: 30, width: 25))
            #expect(poll { learn.output.contains("smaller than stroke_min_mm (20 mm, ") }, "\(learn.output)")
            mouse.draw(Self.ell(at: x - 50, y - 75, height: 150, width: 100))
            #expect(poll { learn.output.contains("drawing 1 of 3 taken") }, "\(learn.output)")
            mouse.draw(Self.ell(at: x - 40, y - 70, height: 140, width: 110, round: 15))
            #expect(poll { learn.output.contains("drawing 2 of 3 taken") }, "\(learn.output)")
            // A circle is no L: asked for again.
            mouse.draw(StrokeEndToEndTests.drawn("circle", at: x, y).map { ($0.point, $0.time) })
            #expect(poll { learn.output.contains("drawing 3 is unlike the others: it scores ") }, "\(learn.output)")
            #expect(!learn.output.contains("[[shape]]"), "\(learn.output)")
            mouse.draw(Self.ell(at: x - 45, y - 80, height: 160, width: 90, round: 6))
            #expect(learn.waitForExit() == 0, "\(learn.output)")
            let output = learn.output
            #expect(output.contains("the 3 drawings are alike: each scores "), "\(output)")
            let start = try #require(output.range(of: "# learned from 3 drawings, each scoring "), "\(output)")
            let block = String(output[start.lowerBound...]).split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { !$0.isEmpty }.joined(separator: "\n")
            #expect(block.contains("[[shape]]\nname = \"L\"\ntemplates = [\n    [\n        [0, 0], "), "\(block)")

            // The block loads, and a fresh L drawn in the daemon fires the L's binding, a circle the circle's.
            let config = block + "\n\n[[bind]]\ngesture = \"stroke\"\nshape = \"L\"\naction = \"key F5\"\n"
                + "\n[[bind]]\ngesture = \"stroke\"\nshape = \"circle\"\naction = \"key F6\"\n"
            let file = URL(fileURLWithPath: TestScratch.path("gb-learned") + ".toml")
            try config.write(to: file, atomically: false, encoding: .utf8)
            let check = try runToCompletion([DaemonProcess.executable, "check-config", file.path])
            #expect(check.status == 0 && check.output.contains("valid, 2 bindings, 1 shape"), "\(check.output)")
            // Replayed as a finger on the touchscreen, a fresh L fires too: the shape is not the pointer's alone.
            var trace = #"{"t":0,"type":"screen","width":1280,"height":800}"# + "\n"
            let finger = Self.ell(at: 500, 300, height: 170, width: 95, round: 12)
            for (k, sample) in finger.enumerated() {
                let kind = k == 0 ? "touch-begin" : k == finger.count - 1 ? "touch-end" : "touch-update"
                trace += #"{"t":\#(1000 + Int(sample.time * 1000)),"type":"\#(kind)","id":1,"x":\#(Int(sample.point.x)),"y":\#(Int(sample.point.y))}"# + "\n"
            }
            let traceFile = URL(fileURLWithPath: TestScratch.path("gb-learned") + ".trace.jsonl")
            try trace.write(to: traceFile, atomically: false, encoding: .utf8)
            let replay = try runToCompletion([DaemonProcess.executable, "--config", file.path, "replay", traceFile.path, "--json"])
            #expect(replay.status == 0 && replay.output.contains(#""gesture":"stroke","phase":"recognized","fingers":1,"device":"touchscreen""#)
                && replay.output.contains(#""shape":"L""#) && replay.output.contains(#""action":"key F5""#), "\(replay.output)")

            let daemon = try DaemonProcess(server, config: config)
            let keys = try RawKeyObserver(server: server.name)
            mouse.draw(Self.ell(at: x - 60, y - 60, height: 130, width: 120, round: 10))
            #expect(poll { keys.pump().contains("up F5") }, "\(keys.lines)\n\(daemon.output)")
            // A pause between strokes, as a hand makes, before the circle pointerCircleFires draws.
            usleep(200_000)
            mouse.draw(StrokeEndToEndTests.drawn("circle", at: x, y).map { ($0.point, $0.time) })
            #expect(poll { keys.pump().contains("up F6") }, "\(keys.lines)\n\(daemon.output)")
            #expect(keys.lines == ["down F5", "up F5", "down F6", "up F6"], "\(keys.lines)\n\(daemon.output)")
        }
    }

    @Test("learn --samples 2 by finger on the touchscreen: a drawing under stroke_min_mm refused, the two drawings one shape that loads",
          .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
    func learnByFinger() throws {
        try TouchSession.with(config: "[recognizer]\nstroke_min_mm = 20\n", arguments: ["learn", "L", "--samples", "2"],
                              width: 700, height: 500) { s in
            #expect(poll { s.daemon.output.contains("draw the shape L now, 2 times") }, "\(s.daemon.output)")
            let (x, y) = s.centre
            try s.touch.draw(Self.ell(at: x, y, height: 30, width: 25))
            #expect(poll { s.daemon.output.contains("smaller than stroke_min_mm (20 mm, ") }, "\(s.daemon.output)")
            #expect(s.daemon.output.contains("on that monitor, for the touchscreen): draw it larger"), "\(s.daemon.output)")
            try s.touch.draw(Self.ell(at: x - 50, y - 75, height: 150, width: 100))
            #expect(poll { s.daemon.output.contains("drawing 1 of 2 taken") }, "\(s.daemon.output)")
            try s.touch.draw(Self.ell(at: x - 40, y - 70, height: 140, width: 110, round: 15))
            #expect(s.daemon.waitForExit() == 0, "\(s.daemon.output)")
            let output = s.daemon.output
            #expect(output.contains("the 2 drawings are alike: each scores "), "\(output)")
            let start = try #require(output.range(of: "# learned from 2 drawings, each scoring "), "\(output)")
            let block = String(output[start.lowerBound...]).split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { !$0.isEmpty }.joined(separator: "\n")
            let file = URL(fileURLWithPath: TestScratch.path("gb-learned") + ".toml")
            try (block + "\n\n[[bind]]\ngesture = \"stroke\"\nshape = \"L\"\naction = \"key F5\"\n").write(to: file, atomically: false, encoding: .utf8)
            let check = try runToCompletion([DaemonProcess.executable, "check-config", file.path])
            #expect(check.status == 0 && check.output.contains("valid, 1 binding, 1 shape"), "\(check.output)")
        }
    }

    @Test("Ctrl-C before a stroke ends learn cleanly: exit 1, nothing printed but the reason")
    func interruptedLearn() throws {
        try XServer.with { server in
            let learn = try DaemonProcess(server, config: "", arguments: ["learn", "L"])
            learn.signal(SIGINT)
            #expect(learn.waitForExit() == 1, "\(learn.output)")
            #expect(learn.output.contains("stopped before a stroke was drawn: nothing learned"), "\(learn.output)")
            #expect(!learn.output.contains("[[shape]]"), "\(learn.output)")
        }
    }
}
