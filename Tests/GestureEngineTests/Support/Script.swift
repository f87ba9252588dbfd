import GestureEngine

/// Builds input traces for recognizer tests: time is data, so tests are instant.
struct Script {
    private(set) var events: [InputEvent] = []

    init(screen: (Int, Int)? = nil, app: String? = nil) {
        if let screen { events.append(InputEvent(time: Instant(milliseconds: 0), .screen(width: screen.0, height: screen.1))) }
        if let app { events.append(InputEvent(time: Instant(milliseconds: 0), .focus(app: app))) }
    }

    mutating func add(_ t: Double, _ kind: InputEvent.Kind) {
        events.append(InputEvent(time: Instant(milliseconds: t), kind))
    }

    mutating func down(_ id: Int, _ x: Double, _ y: Double, at t: Double) { add(t, .touchBegin(id: id, at: Point(x: x, y: y))) }
    mutating func move(_ id: Int, _ x: Double, _ y: Double, at t: Double) { add(t, .touchUpdate(id: id, at: Point(x: x, y: y))) }
    mutating func up(_ id: Int, _ x: Double, _ y: Double, at t: Double) { add(t, .touchEnd(id: id, at: Point(x: x, y: y))) }
    mutating func cancel(_ id: Int, at t: Double) { add(t, .touchCancel(id: id, at: .zero)) }

    /// A tap of `fingers` fingers 30 px apart at (x, y), held for `hold` ms.
    mutating func tap(fingers: Int = 1, at x: Double, _ y: Double, time t: Double, hold: Double = 50, firstID: Int = 1) {
        for f in 0..<fingers { down(firstID + f, x + Double(f) * 30, y, at: t + Double(f) * 5) }
        for f in 0..<fingers { up(firstID + f, x + Double(f) * 30, y, at: t + hold + Double(f) * 5) }
    }

    /// `fingers` fingers (30 px apart) land at (x, y) together, move by (dx, dy) in `steps`
    /// equal steps over `duration` ms, then lift `lift` ms after the last step (nil: stay down).
    mutating func drag(
        fingers: Int = 1, from x: Double, _ y: Double, by dx: Double, _ dy: Double, time t: Double,
        duration: Double, steps: Int = 10, lift: Double? = 10, firstID: Int = 1, stagger: Double = 0, spacing: Double = 30
    ) {
        for f in 0..<fingers { down(firstID + f, x + Double(f) * spacing, y, at: t + Double(f) * stagger) }
        let begin = t + Double(fingers - 1) * stagger
        for s in 1...steps {
            let k = Double(s) / Double(steps)
            for f in 0..<fingers {
                move(firstID + f, x + Double(f) * spacing + dx * k, y + dy * k, at: begin + duration * k)
            }
        }
        if let lift {
            for f in 0..<fingers { up(firstID + f, x + Double(f) * spacing + dx, y + dy, at: begin + duration + lift) }
        }
    }

    /// Two fingers at distance `span` around (cx, cy) change their distance by `factor` and turn
    /// by `degrees` (clockwise positive) in `steps` steps over `duration` ms, then lift.
    mutating func twoFingers(
        around cx: Double, _ cy: Double, span: Double = 200, factor: Double = 1, degrees: Double = 0,
        time t: Double, duration: Double = 300, steps: Int = 10, lift: Bool = true
    ) {
        func place(_ k: Double) -> (Point, Point) {
            let r = span / 2 * (1 + (factor - 1) * k)
            let a = degrees * k * Double.pi / 180
            let c = cos(a), s = sin(a)
            return (Point(x: cx - r * c, y: cy - r * s), Point(x: cx + r * c, y: cy + r * s))
        }
        let (a0, b0) = place(0)
        down(1, a0.x, a0.y, at: t)
        down(2, b0.x, b0.y, at: t)
        for s in 1...steps {
            let k = Double(s) / Double(steps)
            let (a, b) = place(k)
            move(1, a.x, a.y, at: t + duration * k)
            move(2, b.x, b.y, at: t + duration * k)
        }
        if lift {
            let (a, b) = place(1)
            up(1, a.x, a.y, at: t + duration + 10)
            up(2, b.x, b.y, at: t + duration + 10)
        }
    }

    mutating func press(_ button: Int = 3, _ x: Double, _ y: Double, at t: Double) { add(t, .buttonPress(button: button, at: Point(x: x, y: y))) }
    mutating func release(_ button: Int = 3, _ x: Double, _ y: Double, at t: Double) { add(t, .buttonRelease(button: button, at: Point(x: x, y: y))) }
    mutating func motion(_ x: Double, _ y: Double, at t: Double) { add(t, .motion(at: Point(x: x, y: y))) }

    /// A pointer drag with the trigger button by (dx, dy) over `duration` ms.
    mutating func pointerDrag(_ button: Int = 3, from x: Double, _ y: Double, by dx: Double, _ dy: Double, time t: Double, duration: Double, steps: Int = 10) {
        press(button, x, y, at: t)
        for s in 1...steps {
            let k = Double(s) / Double(steps)
            motion(x + dx * k, y + dy * k, at: t + duration * k)
        }
        release(button, x + dx, y + dy, at: t + duration + 10)
    }

    mutating func touchpadSwipe(fingers: Int, by dx: Double, _ dy: Double, time t: Double, duration: Double, steps: Int = 10, cancelled: Bool = false, at p: Point? = nil) {
        add(t, .touchpadSwipeBegin(fingers: fingers, at: p))
        for s in 1...steps {
            add(t + duration * Double(s) / Double(steps), .touchpadSwipeUpdate(fingers: fingers, delta: Point(x: dx / Double(steps), y: dy / Double(steps))))
        }
        add(t + duration + 10, .touchpadSwipeEnd(fingers: fingers, cancelled: cancelled))
    }

    mutating func touchpadPinch(fingers: Int = 2, scale: Double, degrees: Double = 0, time t: Double, duration: Double = 200, steps: Int = 10, cancelled: Bool = false) {
        add(t, .touchpadPinchBegin(fingers: fingers, at: Point(x: 400, y: 300)))
        for s in 1...steps {
            let k = Double(s) / Double(steps)
            add(t + duration * k, .touchpadPinchUpdate(fingers: fingers, delta: .zero, scale: 1 + (scale - 1) * k, angle: degrees / Double(steps)))
        }
        add(t + duration + 10, .touchpadPinchEnd(fingers: fingers, cancelled: cancelled))
    }
}

private func cos(_ a: Double) -> Double { sin(a + Double.pi / 2) }
private func sin(_ x: Double) -> Double {
    // Taylor series after reduction to [-π, π]; plenty for test geometry.
    var a = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if a > Double.pi { a -= 2 * Double.pi }
    if a < -Double.pi { a += 2 * Double.pi }
    var term = a, sum = a
    for n in stride(from: 3, through: 25, by: 2) {
        term *= -a * a / Double((n - 1) * n)
        sum += term
    }
    return sum
}

/// Runs a script through a fresh engine and lets time run 10 s past the last event.
func run(
    _ triggers: [Trigger], _ script: Script, settings: RecognizerSettings = RecognizerSettings(), pointerButton: Int = 3,
    claimOnSecondFinger: Bool = false
) -> [EngineOutput] {
    var engine = Engine(EngineConfiguration(
        settings: settings, pointerButton: pointerButton, triggers: triggers, claimOnSecondFinger: claimOnSecondFinger))
    var out: [EngineOutput] = []
    for e in script.events { engine.handle(e) { out.append($0) } }
    let last = script.events.last?.time.milliseconds ?? 0
    engine.advance(to: Instant(milliseconds: last + 10_000)) { out.append($0) }
    return out
}

/// The gesture reports of a run.
func reports(_ outputs: [EngineOutput]) -> [GestureReport] {
    outputs.compactMap { if case .gesture(let r) = $0 { r } else { nil } }
}

/// A compact line per report: `gesture phase [direction] [taps=N] fN device [edge=E] [→index]`.
func lines(_ outputs: [EngineOutput]) -> [String] {
    reports(outputs).map(describe)
}

func describe(_ r: GestureReport) -> String {
    var s = "\(r.gesture.rawValue) \(r.phase.rawValue)"
    if let d = r.direction { s += " \(d.rawValue)" }
    if let taps = r.taps { s += " taps=\(taps)" }
    s += " f\(r.fingers) \(r.device.rawValue)"
    if let e = r.edge { s += " edge=\(e.rawValue)" }
    if let f = r.firing { s += " →\(f)" }
    return s
}

/// Only the lines that fire a binding.
func firings(_ outputs: [EngineOutput]) -> [String] {
    reports(outputs).filter { $0.firing != nil }.map(describe)
}

/// Ownership decisions per touch id.
func touchDecisions(_ outputs: [EngineOutput]) -> [Int: [Ownership]] {
    var d: [Int: [Ownership]] = [:]
    for o in outputs { if case .touch(let id, let own) = o { d[id, default: []].append(own) } }
    return d
}
