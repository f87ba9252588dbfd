import Foundation
import GestureEngine
import GestureTestKit

/// Builds a long, realistic mixed input trace, as the capture layer would hand it to the engine.
///
/// The devices are modelled on what they report, not on what the recognizers need:
/// - a touchscreen reports every finger in every frame (60, 90 or 120 Hz) as one
///   `touchUpdate` per finger, with sub-pixel noise, and fingers land and lift a few ms apart;
///   a resting finger reports only when its noise moves it (about every other frame);
/// - a mouse reports motion at 125 Hz;
/// - a touchpad reports XI 2.4 gesture updates at 60–120 Hz, with per-update deltas.
///
/// Gestures follow each other with idle gaps (0.3–1.5 s), with pointer hover in between, the
/// focused application changing now and then, and the screen size changing rarely.
///
/// The events are written with the tests' ``Script`` primitives, at the builder's clock.
struct TraceBuilder {
    private var script = Script()
    private var rng: SplitMix64
    /// The clock, ms.
    private var t = 0.0
    private var nextTouchID = 1
    private var pointer = Point(x: 960, y: 540)
    private var screen = (width: 1920.0, height: 1080.0)
    private(set) var gestures: [String: Int] = [:]

    /// WM_CLASS (instance, class) pairs as the focus tracker reports them: mixed case, and some
    /// longer than the 15 UTF-8 bytes a Swift string keeps inline.
    static let apps: [(instance: String, className: String)] = [
        ("Navigator", "firefox"), ("xterm", "XTerm"), ("gimp", "Gimp"), ("code", "Code"),
        ("org.gnome.Nautilus", "Org.gnome.Nautilus"), ("libreoffice", "libreoffice-writer"), ("kitty", "kitty"),
    ]

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        script.add(t, .screen(width: 1920, height: 1080))
        script.add(t, .focus(app: "xterm", appClass: "XTerm"))
    }

    /// The trace so far.
    var events: [InputEvent] { script.events }

    var count: Int { script.events.count }

    /// Drops the events from `index` on (to cut the trace to an exact length at a gesture
    /// boundary); the clock keeps running.
    mutating func truncate(to index: Int) { script.truncate(to: index) }

    // MARK: - Randomness

    private mutating func uniform(_ a: Double, _ b: Double) -> Double { Double.random(in: a...b, using: &rng) }
    private mutating func int(_ a: Int, _ b: Int) -> Int { Int.random(in: a...b, using: &rng) }
    private mutating func chance(_ p: Double) -> Bool { uniform(0, 1) < p }
    private mutating func noise(_ amplitude: Double) -> Point {
        Point(x: uniform(-amplitude, amplitude), y: uniform(-amplitude, amplitude))
    }
    private mutating func touchRate() -> Double { [60.0, 90.0, 120.0][int(0, 2)] }
    private mutating func frameGap(_ hz: Double) -> Double { 1000 / hz + uniform(-0.15, 0.15) }

    private func clamp(_ p: Point) -> Point {
        Point(x: min(max(p.x, 0), screen.width - 1), y: min(max(p.y, 0), screen.height - 1))
    }

    private mutating func somewhere(margin: Double = 150) -> Point {
        Point(x: uniform(margin, screen.width - margin), y: uniform(margin, screen.height - margin))
    }

    /// Where a hand puts `n` fingertips around `c`: a shallow arc about 28 px apart.
    private mutating func hand(_ n: Int, around c: Point) -> [Point] {
        (0..<n).map { f in
            let k = Double(f) - Double(n - 1) / 2
            return c + Point(x: k * 28 + uniform(-4, 4), y: abs(k) * 9 + uniform(-3, 3))
        }
    }

    // MARK: - The mix

    /// Appends one randomly chosen gesture (or hover, focus change …) and the idle gap after it.
    mutating func addRandomGesture() {
        // Weights: roughly how often each happens in a session of use.
        let roll = int(0, 999)
        switch roll {
        case 0..<130: hover()
        case 130..<240: tap(fingers: 1)
        case 240..<280: tap(fingers: 2)
        case 280..<300: tap(fingers: 3)
        case 300..<310: tap(fingers: 4)
        case 310..<320: tap(fingers: 5)
        case 320..<370: multiTap(taps: 2, fingers: 1)
        case 370..<385: multiTap(taps: 3, fingers: 1)
        case 385..<405: multiTap(taps: 2, fingers: 2)
        case 405..<435: longPress(fingers: 1)
        case 435..<445: longPress(fingers: 2)
        case 445..<505: swipe(fingers: 3, direction: [.left, .right, .up, .down][int(0, 3)])
        case 505..<525: swipe(fingers: 4, direction: Direction.planar[int(0, 7)])
        case 525..<540: swipe(fingers: 2, direction: Direction.planar[int(0, 7)])
        case 540..<560: edgeSwipe()
        case 560..<610: pan(fingers: 1)
        case 610..<660: pan(fingers: 2)
        case 660..<675: pan(fingers: 3)
        case 675..<685: pan(fingers: 4)
        case 685..<725: pinchRotate(fingers: 2, scale: chance(0.5) ? uniform(0.45, 0.7) : uniform(1.4, 2), degrees: uniform(-8, 8))
        case 725..<735: pinchRotate(fingers: 3, scale: chance(0.5) ? uniform(0.5, 0.7) : uniform(1.4, 1.8), degrees: 0)
        case 735..<765: pinchRotate(fingers: 2, scale: uniform(0.95, 1.05), degrees: (chance(0.5) ? 1 : -1) * uniform(40, 120))
        case 765..<780: pinchRotate(fingers: 2, scale: uniform(0.6, 1.6), degrees: uniform(-90, 90))
        case 780..<785: cancelledDrag()
        case 785..<815: pointerClick(button: 3)
        case 815..<845: pointerClick(button: 1)
        case 845..<880: pointerDrag()
        case 880..<890: pointerHold()
        case 890..<940: touchpadSwipe()
        case 940..<970: touchpadPinch()
        case 970..<998: focusChange()
        default: screenChange()
        }
        t += uniform(300, 1500)
    }

    private mutating func note(_ name: String) { gestures[name, default: 0] += 1 }

    // MARK: - Touchscreen

    /// Fingers land `stagger` ms apart, report `frames` frames at `hz` along `path` (finger,
    /// frame → position; frame 0 is the landing), then lift a few ms apart. `sparse` fingers
    /// rest: each reports in about half the frames.
    private mutating func touches(
        at landing: [Point], frames: Int, hz: Double, stagger: Double = 12, sparse: Bool = false,
        cancel: Bool = false, path: (Int, Int) -> Point
    ) {
        let ids = landing.indices.map { nextTouchID + $0 }
        nextTouchID += landing.count
        for f in landing.indices {
            if f > 0 { t += uniform(0, stagger) }
            let p = clamp(path(f, 0))
            script.down(ids[f], p.x, p.y, at: t)
        }
        var last = landing
        for k in 0..<frames {
            t += frameGap(hz)
            for f in landing.indices {
                if sparse && chance(0.5) { continue }
                let p = clamp(path(f, k + 1) + noise(0.35))
                last[f] = p
                script.move(ids[f], p.x, p.y, at: t)
            }
        }
        t += frameGap(hz)
        for f in landing.indices {
            if f > 0 { t += uniform(0, 8) }
            if cancel {
                script.cancel(ids[f], last[f].x, last[f].y, at: t)
            } else {
                script.up(ids[f], last[f].x, last[f].y, at: t)
            }
        }
    }

    private mutating func tap(fingers n: Int, at c: Point? = nil) {
        if c == nil { note("tap \(n)f") }
        let centre = c ?? somewhere()
        let landing = hand(n, around: centre)
        let hz = touchRate()
        let frames = Int(uniform(50, 160) / (1000 / hz))
        let drift = landing.map { _ in noise(1.2) }
        touches(at: landing, frames: frames, hz: hz, sparse: true) { f, k in
            landing[f] + drift[f] * (Double(k) / Double(max(frames, 1)))
        }
    }

    private mutating func multiTap(taps: Int, fingers n: Int) {
        note("\(taps)×tap \(n)f")
        let c = somewhere()
        for i in 0..<taps {
            if i > 0 { t += uniform(70, 180) }
            tap(fingers: n, at: c + noise(8))
        }
    }

    private mutating func longPress(fingers n: Int) {
        note("long-press \(n)f")
        let landing = hand(n, around: somewhere())
        let hz = touchRate()
        let frames = Int(uniform(650, 1400) / (1000 / hz))
        // A resting finger creeps a little (at most ~3 px).
        let creep = landing.map { _ in noise(3) }
        touches(at: landing, frames: frames, hz: hz, sparse: true) { f, k in
            landing[f] + creep[f] * (Double(k) / Double(max(frames, 1)))
        }
    }

    /// A swipe: 4–6 px per frame at 90–120 Hz (0.45–0.7 px/ms), a flick of 10–18 px per frame
    /// one time in five; 160–320 px in all, with a slight bend.
    private mutating func swipe(fingers n: Int, direction d: Direction) {
        note("swipe \(n)f")
        let hz = [90.0, 120.0][int(0, 1)]
        let step = chance(0.2) ? uniform(10, 18) : uniform(4.5, 6)
        let frames = Int(uniform(160, 320) / step)
        let centre = somewhere(margin: 350)
        let landing = hand(n, around: centre)
        let u = d.unitVector
        let bend = Point(x: -u.y, y: u.x) * uniform(-0.08, 0.08)
        touches(at: landing, frames: frames, hz: hz, stagger: 8) { f, k in
            // Ramp up over the first three frames, as a finger accelerates.
            let s = Double(k) < 3 ? Double(k * k) / 6 : Double(k) - 1.5
            return landing[f] + (u + bend) * (s * step)
        }
    }

    /// One finger from the bottom edge up, or from the left edge right.
    private mutating func edgeSwipe() {
        note("edge swipe 1f")
        let fromBottom = chance(0.5)
        let start = fromBottom
            ? Point(x: uniform(300, screen.width - 300), y: screen.height - uniform(2, 12))
            : Point(x: uniform(2, 12), y: uniform(200, screen.height - 200))
        let u = fromBottom ? Point(x: 0, y: -1) : Point(x: 1, y: 0)
        let step = uniform(5, 8)
        let frames = Int(uniform(180, 300) / step)
        touches(at: [start], frames: frames, hz: 120) { _, k in start + u * (Double(k) * step) }
    }

    /// A slow pan: 2–4 px per frame at 60 Hz (well under swipe speed), 60–150 frames, turning
    /// gently. One finger mostly pans down (a bound, repeating pan).
    private mutating func pan(fingers n: Int) {
        note("pan \(n)f")
        let step = uniform(2, 4)
        let frames = int(60, 150)
        let landing = hand(n, around: somewhere(margin: 250))
        var heading = n == 1 && chance(0.7) ? Double.pi / 2 : uniform(-Double.pi, Double.pi)
        let turn = uniform(-0.01, 0.01)
        var offsets = [Point.zero]
        var o = Point.zero
        for _ in 0..<frames {
            o = o + Point(x: cos(heading), y: sin(heading)) * step
            heading += turn
            offsets.append(o)
        }
        touches(at: landing, frames: frames, hz: 60) { f, k in landing[f] + offsets[k] }
    }

    /// Fingers around a centre change their distance from it to `scale` times and turn by
    /// `degrees`, each finger moving 2–6 px per frame.
    private mutating func pinchRotate(fingers n: Int, scale: Double, degrees: Double) {
        note(abs(degrees) > 20 ? "rotate \(n)f" : "pinch \(n)f")
        let c = somewhere(margin: 300)
        let r0 = uniform(70, 150)
        let r1 = r0 * scale
        let a0 = uniform(0, 2 * Double.pi)
        let turn = degrees * Double.pi / 180
        // Enough frames that no finger moves more than ~5 px per frame.
        let travel = max(abs(r1 - r0), abs(turn) * max(r0, r1))
        let frames = max(12, Int(travel / uniform(3, 5)))
        let hz = touchRate()
        func place(_ f: Int, _ k: Int) -> Point {
            let q = Double(k) / Double(frames)
            let r = r0 + (r1 - r0) * q
            let a = a0 + Double(f) * 2 * Double.pi / Double(n) + turn * q
            return c + Point(x: r * cos(a), y: r * sin(a))
        }
        let landing = (0..<n).map { place($0, 0) }
        touches(at: landing, frames: frames, hz: hz, stagger: 10) { f, k in place(f, k) }
    }

    /// A one-finger drag that the server cancels half-way (another client took the touch).
    private mutating func cancelledDrag() {
        note("cancelled drag 1f")
        let start = somewhere()
        let u = Direction.planar[int(0, 7)].unitVector
        touches(at: [start], frames: int(10, 30), hz: 60, cancel: true) { _, k in start + u * (Double(k) * 3) }
    }

    // MARK: - Pointer

    /// The mouse moving with no button held: 125 Hz, 2–6 px per report.
    private mutating func hover() {
        note("hover")
        let n = int(20, 120)
        for _ in 0..<n { hoverStep() }
    }

    /// One 125 Hz motion report.
    mutating func hoverStep() {
        t += 8 + uniform(-0.2, 0.2)
        pointer = clamp(pointer + Point(x: uniform(-6, 6), y: uniform(-6, 6)))
        script.motion(pointer.x, pointer.y, at: t)
    }

    private mutating func pointerClick(button: Int) {
        note("click button \(button)")
        script.press(button, pointer.x, pointer.y, at: t)
        for _ in 0..<int(0, 2) {
            t += 8
            pointer = clamp(pointer + noise(1))
            script.motion(pointer.x, pointer.y, at: t)
        }
        t += uniform(60, 140)
        script.release(button, pointer.x, pointer.y, at: t)
    }

    /// A right-button drag: 3–8 px per 125 Hz report, 30–80 reports in one direction.
    private mutating func pointerDrag() {
        note("right drag")
        pointer = somewhere(margin: 400)
        script.press(3, pointer.x, pointer.y, at: t)
        let u = Direction.planar[int(0, 7)].unitVector
        let step = uniform(3, 8)
        for _ in 0..<int(30, 80) {
            t += 8
            pointer = clamp(pointer + u * step + noise(0.5))
            script.motion(pointer.x, pointer.y, at: t)
        }
        t += 8
        script.release(3, pointer.x, pointer.y, at: t)
    }

    /// A right-button press held still for 600–900 ms (a pointer long press).
    private mutating func pointerHold() {
        note("right hold")
        script.press(3, pointer.x, pointer.y, at: t)
        let until = t + uniform(600, 900)
        while t < until {
            t += uniform(30, 120)
            pointer = clamp(pointer + noise(1))
            script.motion(pointer.x, pointer.y, at: t)
        }
        script.release(3, pointer.x, pointer.y, at: t)
    }

    // MARK: - Touchpad

    private mutating func touchpadSwipe() {
        let fingers = chance(0.6) ? 3 : 4
        note("touchpad swipe \(fingers)f")
        script.add(t, .touchpadSwipeBegin(fingers: fingers, at: pointer))
        let u = Direction.planar[int(0, 3)].unitVector
        let hz = [60.0, 90.0, 120.0][int(0, 2)]
        let step = uniform(2, 6)
        for _ in 0..<int(15, 50) {
            t += frameGap(hz)
            let delta = u * step + noise(0.4)
            script.add(t, .touchpadSwipeUpdate(fingers: fingers, delta: delta))
        }
        t += frameGap(hz)
        let cancelled = chance(0.05)
        script.add(t, .touchpadSwipeEnd(fingers: fingers, cancelled: cancelled))
    }

    private mutating func touchpadPinch() {
        note("touchpad pinch 2f")
        script.add(t, .touchpadPinchBegin(fingers: 2, at: pointer))
        let target = chance(0.5) ? uniform(0.5, 0.75) : uniform(1.3, 1.7)
        let updates = int(20, 60)
        let hz = [60.0, 90.0, 120.0][int(0, 2)]
        let spin = uniform(-1.5, 1.5)
        for k in 1...updates {
            t += frameGap(hz)
            let scale = 1 + (target - 1) * Double(k) / Double(updates)
            let delta = noise(0.3), angle = spin + uniform(-0.2, 0.2)
            script.add(t, .touchpadPinchUpdate(fingers: 2, delta: delta, scale: scale, angle: angle))
        }
        t += frameGap(hz)
        let cancelled = chance(0.05)
        script.add(t, .touchpadPinchEnd(fingers: 2, cancelled: cancelled))
    }

    // MARK: - Context

    private mutating func focusChange() {
        note("focus")
        let app = Self.apps[int(0, Self.apps.count - 1)]
        script.add(t, .focus(app: app.instance, appClass: app.className))
    }

    private mutating func screenChange() {
        note("screen")
        screen = screen.width == 1920 ? (2560, 1440) : (1920, 1080)
        script.add(t, .screen(width: Int(screen.width), height: Int(screen.height)))
    }
}
