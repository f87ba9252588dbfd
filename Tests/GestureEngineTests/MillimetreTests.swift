import GestureEngine
import GestureTestKit
import Testing
import Glibc

/// docs/config.md, «Distances in millimetres»: a distance given in millimetres is converted
/// with the density of the monitor a gesture starts on (96 dpi where it reports no size); a
/// touchpad keeps pixels.
@Suite("distances in millimetres")
struct MillimetreTests {
    /// A 13" laptop panel at 1280×800 (7.4 px/mm, 189 dpi) and, to its right, a 16" monitor at
    /// the same resolution (3.8 px/mm, 96 dpi).
    static let panel = Monitor(name: "panel", x: 0, y: 0, width: 1280, height: 800, widthMm: 172, heightMm: 108)
    static let external = Monitor(name: "external", x: 1280, y: 0, width: 1280, height: 800, widthMm: 339, heightMm: 212)

    func script(_ monitors: [Monitor]? = [panel, external]) -> Script {
        var s = Script()
        if let monitors { s.add(0, .screen(width: 2560, height: 800, monitors: monitors)) }
        return s
    }

    func settings(_ change: (inout RecognizerSettings) -> Void) -> RecognizerSettings {
        var s = RecognizerSettings()
        change(&s)
        return s
    }

    func run(_ triggers: [Trigger], _ s: Script, _ settings: RecognizerSettings, device: [DeviceKind: RecognizerSettings] = [:]) -> [String] {
        var engine = Engine(EngineConfiguration(settings: settings, triggers: triggers, deviceSettings: device))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        engine.advance(to: Instant(milliseconds: 100_000)) { out.append($0) }
        return reports(out).map { describe($0) + " @" + ($0.monitor ?? "nil") }
    }

    @Test("a monitor's density comes from its diagonal, whichever way round its size is given")
    func density() throws {
        let density = try #require(Self.panel.pixelsPerMillimetre)
        #expect(abs(density - 1509.43 / 203.08) < 0.001)
        let turned = Monitor(name: "p", x: 0, y: 0, width: 800, height: 1280, widthMm: 172, heightMm: 108)
        #expect(turned.pixelsPerMillimetre == density)
    }

    @Test("no size, half a size or a size no screen has is no density", arguments: [
        Monitor(name: "m", x: 0, y: 0, width: 1920, height: 1080),
        Monitor(name: "m", x: 0, y: 0, width: 1920, height: 1080, widthMm: 344),
        Monitor(name: "m", x: 0, y: 0, width: 1920, height: 1080, widthMm: 0, heightMm: 0),
        // An EDID that gives the aspect ratio: 16 × 9 "millimetres".
        Monitor(name: "m", x: 0, y: 0, width: 1920, height: 1080, widthMm: 16, heightMm: 9),
        Monitor(name: "m", x: 0, y: 0, width: 640, height: 480, widthMm: 5000, heightMm: 4000),
    ])
    func noDensity(_ monitor: Monitor) {
        #expect(monitor.pixelsPerMillimetre == nil)
    }

    @Test("settings in pixels: each millimetre distance converted, pixels and times left alone")
    func conversion() {
        let s = settings { $0.swipeMinMm = 20; $0.edgeMm = 2; $0.swipeMinVelocityMm = 0.1; $0.tapMaxMs = 250 }
        let px = s.inPixels(pixelsPerMillimetre: 5)
        #expect(px.swipeMinPx == 100 && px.edgePx == 10 && px.swipeMinVelocity == 0.5)
        #expect(px.slopPx == 10 && px.multiTapDistancePx == 50 && px.strokeMinPx == 60 && px.tapMaxMs == 250)
        #expect(!px.usesMillimetres && s.usesMillimetres)
        #expect(RecognizerSettings().inPixels(pixelsPerMillimetre: 5) == RecognizerSettings())
    }

    @Test("the same 100 px drag is 13 mm on the panel and 26 mm on the external monitor: only the second is a 20 mm swipe")
    func swipeDistance() {
        var s = script()
        s.drag(from: 400, 400, by: 100, 0, time: 100, duration: 100)
        s.drag(from: 1680, 400, by: 100, 0, time: 1000, duration: 100)
        #expect(run([swipe()], s, settings { $0.swipeMinMm = 20 }) == ["swipe recognized right f1 touchscreen →0 @external"])
        // In pixels (the default 80 px), both are swipes: today's behaviour.
        #expect(run([swipe()], s, RecognizerSettings()) == [
            "swipe recognized right f1 touchscreen →0 @panel", "swipe recognized right f1 touchscreen →0 @external",
        ])
    }

    @Test("a monitor without a size, and a run without a screen, count millimetres at 96 dpi", arguments: [true, false])
    func fallback(withScreen: Bool) {
        // 20 mm at 96 dpi is 75.6 px.
        let unsized = Monitor(name: "tv", x: 0, y: 0, width: 1920, height: 1080)
        var s = script(withScreen ? [unsized] : nil)
        s.drag(from: 400, 400, by: 70, 0, time: 100, duration: 70)
        s.drag(from: 400, 400, by: 80, 0, time: 1000, duration: 80)
        #expect(run([swipe()], s, settings { $0.swipeMinMm = 20 }) == ["swipe recognized right f1 touchscreen →0 @\(withScreen ? "tv" : "nil")"])
    }

    @Test("the edge zone is as wide in millimetres on both monitors, so wider in pixels on the denser one")
    func edge() {
        // 4 mm: 29.7 px on the panel, 15.1 px on the external monitor; both drags start 25 px in.
        var s = script()
        s.pointerDrag(from: 25, 400, by: 300, 0, time: 100, duration: 150)
        s.pointerDrag(from: 1305, 400, by: 300, 0, time: 1000, duration: 150)
        #expect(run([swipe(edge: .left)], s, settings { $0.edgeMm = 4 }) == ["swipe recognized right f1 pointer edge=left →0 @panel"])
    }

    @Test("a double tap's taps may be as far apart as the first tap's monitor measures multi_tap_distance_mm")
    func multiTapDistance() {
        // 8 mm: 59 px on the panel, 30 px on the external monitor; the taps are 45 px apart.
        var s = script()
        s.tap(at: 400, 300, time: 100)
        s.tap(at: 445, 300, time: 250, firstID: 3)
        s.tap(at: 1700, 300, time: 2000, firstID: 5)
        s.tap(at: 1745, 300, time: 2150, firstID: 7)
        let lines = run([tap(), tap(2)], s, settings { $0.multiTapDistanceMm = 8 })
        #expect(lines == [
            "tap recognized taps=2 f1 touchscreen →1 @panel",
            "tap recognized taps=1 f1 touchscreen →0 @external", "tap recognized taps=1 f1 touchscreen →0 @external",
        ])
    }

    @Test("a speed in mm per ms keeps the time a swipe may take the same on every monitor")
    func swipeSpeed() {
        // 20 mm at 0.1 mm/ms: 200 ms on both monitors. 160 px on the panel (21.6 mm) and 80 px on
        // the external monitor (21.2 mm), each once in 150 ms (a swipe) and once in 300 ms (too slow).
        var s = script()
        s.drag(from: 400, 400, by: 160, 0, time: 100, duration: 150)
        s.drag(from: 400, 400, by: 160, 0, time: 1000, duration: 300)
        s.drag(from: 1680, 400, by: 80, 0, time: 2000, duration: 150)
        s.drag(from: 1680, 400, by: 80, 0, time: 3000, duration: 300)
        #expect(run([swipe()], s, settings { $0.swipeMinMm = 20; $0.swipeMinVelocityMm = 0.1 }) == [
            "swipe recognized right f1 touchscreen →0 @panel", "swipe recognized right f1 touchscreen →0 @external",
        ])
    }

    @Test("a stroke's smallest size in millimetres")
    func strokeSize() {
        // A small circle of 60 px across: 8 mm on the panel, 16 mm on the external monitor.
        let circle = (0...24).map { k -> Point in
            let a = Double(k) / 24 * 2 * Double.pi
            // Counter-clockwise from the top, as the built-in circle is drawn.
            return Point(x: -30 * sin(a), y: -30 * cos(a))
        }
        var s = script()
        s.path(circle.map { Point(x: 400 + $0.x, y: 400 + $0.y) }, time: 100, duration: 400)
        s.path(circle.map { Point(x: 1700 + $0.x, y: 400 + $0.y) }, time: 2000, duration: 400)
        #expect(run([stroke("circle")], s, settings { $0.strokeMinMm = 12; $0.strokeMinScore = 0.5 }).map { $0.hasPrefix("stroke recognized") && $0.hasSuffix("@external") } == [true])
    }

    @Test("a touchpad keeps pixels: its distances are pointer motion")
    func touchpadKeepsPixels() {
        var s = script()
        s.touchpadSwipe(fingers: 3, by: 40, 0, time: 100, duration: 60, at: Point(x: 400, y: 400))
        let common = settings { $0.swipeMinPx = 30; $0.swipeMinMm = 100 }
        #expect(run([swipe(f: 3)], s, common) == ["swipe recognized right f3 touchpad →0 @panel"])
        #expect(run([swipe(f: 3)], s, RecognizerSettings(), device: [.touchpad: common]) == ["swipe recognized right f3 touchpad →0 @panel"])
    }

    @Test("a new screen event converts again; a reload keeps the screen's densities")
    func layoutChanges() {
        var engine = Engine(EngineConfiguration(settings: settings { $0.swipeMinMm = 20 }, triggers: [swipe()]))
        var out: [EngineOutput] = []
        func drag(at t: Double) {
            var s = Script()
            s.drag(from: 400, 400, by: 100, 0, time: t, duration: 100)
            for e in s.events { engine.handle(e) { out.append($0) } }
        }
        engine.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800, monitors: [Self.panel]))) { _ in }
        drag(at: 100)
        // The same panel, now said to be twice as large: 100 px are 27 mm.
        let large = Monitor(name: "panel", x: 0, y: 0, width: 1280, height: 800, widthMm: 344, heightMm: 216)
        engine.handle(InputEvent(time: Instant(milliseconds: 500), .screen(width: 1280, height: 800, monitors: [large]))) { _ in }
        drag(at: 1000)
        engine.reconfigure(EngineConfiguration(settings: settings { $0.swipeMinMm = 25 }, triggers: [swipe()]), at: Instant(milliseconds: 1500)) { _ in }
        drag(at: 2000)
        engine.reconfigure(EngineConfiguration(settings: settings { $0.swipeMinMm = 30 }, triggers: [swipe()]), at: Instant(milliseconds: 2500)) { _ in }
        drag(at: 3000)
        // Which drags swiped: 148 px on the panel at first, then 74 px and 93 px; 112 px after the last reload.
        #expect(reports(out).map { Int($0.time.milliseconds / 1000) } == [1, 2])
    }
}
