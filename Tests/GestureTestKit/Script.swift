public import GestureEngine

/// Builds an input trace as the capture layer would hand it to the engine: touches, pointer
/// presses and motion, touchpad gestures, all with their time as data (ms), so a test is instant
/// and a benchmark trace is exact.
///
/// The primitives (`add`, `down`, `move`, `up`, `cancel`, `press`, `release`, `motion`) append one
/// event each (the benchmarks' trace builder writes its whole trace with them); the gestures (`tap`, `drag`, `twoFingers`, `pointerDrag`, `touchpadSwipe`,
/// `touchpadPinch`) append a whole hand movement. Events are kept in the order they were added.
///
/// ```swift
/// var s = Script(screen: (1280, 800))
/// s.tap(fingers: 2, at: 100, 100, time: 0)        // two fingers 30 px apart, held 50 ms
/// s.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 500, duration: 150)
/// let outputs = run([swipe(.left, f: 3)], s)
/// ```
public struct Script: Sendable {
    /// The events so far, in the order they were added.
    public private(set) var events: [InputEvent] = []

    /// An empty script; with `screen` (width, height in px) and `app` (the focused application's
    /// WM_CLASS instance), it begins with those context events at time 0.
    public init(screen: (Int, Int)? = nil, app: String? = nil) {
        if let screen { events.append(InputEvent(time: Instant(milliseconds: 0), .screen(width: screen.0, height: screen.1))) }
        if let app { events.append(InputEvent(time: Instant(milliseconds: 0), .focus(app: app))) }
    }

    /// Appends one event of `kind` at `t` ms.
    public mutating func add(_ t: Double, _ kind: InputEvent.Kind) {
        events.append(InputEvent(time: Instant(milliseconds: t), kind))
    }

    /// Drops the events from `index` on (to cut a trace to an exact length).
    public mutating func truncate(to index: Int) { events.removeSubrange(index...) }

    // MARK: - Touchscreen

    /// Touch `id` lands at (x, y) at `t` ms, with `mods` held.
    public mutating func down(_ id: Int, _ x: Double, _ y: Double, at t: Double, mods: Modifiers = []) {
        add(t, .touchBegin(id: id, at: Point(x: x, y: y), modifiers: mods))
    }
    /// Touch `id` moves to (x, y) at `t` ms.
    public mutating func move(_ id: Int, _ x: Double, _ y: Double, at t: Double) { add(t, .touchUpdate(id: id, at: Point(x: x, y: y))) }
    /// Touch `id` lifts at (x, y) at `t` ms.
    public mutating func up(_ id: Int, _ x: Double, _ y: Double, at t: Double) { add(t, .touchEnd(id: id, at: Point(x: x, y: y))) }
    /// The server cancels touch `id` at `t` ms (another client took it).
    public mutating func cancel(_ id: Int, at t: Double) { add(t, .touchCancel(id: id, at: .zero)) }
    /// The server cancels touch `id`, last at (x, y), at `t` ms.
    public mutating func cancel(_ id: Int, _ x: Double, _ y: Double, at t: Double) { add(t, .touchCancel(id: id, at: Point(x: x, y: y))) }

    /// A tap of `fingers` fingers 30 px apart at (x, y), landing and lifting 5 ms apart, each
    /// held for `hold` ms.
    public mutating func tap(
        fingers: Int = 1, at x: Double, _ y: Double, time t: Double, hold: Double = 50, firstID: Int = 1, mods: Modifiers = []
    ) {
        for f in 0..<fingers { down(firstID + f, x + Double(f) * 30, y, at: t + Double(f) * 5, mods: mods) }
        for f in 0..<fingers { up(firstID + f, x + Double(f) * 30, y, at: t + hold + Double(f) * 5) }
    }

    /// `fingers` fingers (`spacing` px apart) land at (x, y), `stagger` ms apart, move by (dx, dy)
    /// in `steps` equal steps over `duration` ms from the last landing, then lift `lift` ms after
    /// the last step (nil: stay down); `mods` are held as they land.
    public mutating func drag(
        fingers: Int = 1, from x: Double, _ y: Double, by dx: Double, _ dy: Double, time t: Double,
        duration: Double, steps: Int = 10, lift: Double? = 10, firstID: Int = 1, stagger: Double = 0, spacing: Double = 30,
        mods: Modifiers = []
    ) {
        for f in 0..<fingers { down(firstID + f, x + Double(f) * spacing, y, at: t + Double(f) * stagger, mods: mods) }
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
    /// by `degrees` (clockwise positive) in `steps` steps over `duration` ms, then lift 10 ms
    /// later (unless `lift` is false).
    public mutating func twoFingers(
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

    // MARK: - Pointer

    /// Mouse `button` goes down at (x, y) at `t` ms, with `mods` held.
    public mutating func press(_ button: Int = 3, _ x: Double, _ y: Double, at t: Double, mods: Modifiers = []) {
        add(t, .buttonPress(button: button, at: Point(x: x, y: y), modifiers: mods))
    }
    /// Mouse `button` goes up at (x, y) at `t` ms.
    public mutating func release(_ button: Int = 3, _ x: Double, _ y: Double, at t: Double) { add(t, .buttonRelease(button: button, at: Point(x: x, y: y))) }
    /// The pointer is at (x, y) at `t` ms.
    public mutating func motion(_ x: Double, _ y: Double, at t: Double) { add(t, .motion(at: Point(x: x, y: y))) }

    /// A pointer drag with `button` held by (dx, dy) in `steps` motions over `duration` ms,
    /// released 10 ms after the last; `mods` held at the press.
    public mutating func pointerDrag(
        _ button: Int = 3, from x: Double, _ y: Double, by dx: Double, _ dy: Double, time t: Double, duration: Double, steps: Int = 10,
        mods: Modifiers = []
    ) {
        press(button, x, y, at: t, mods: mods)
        for s in 1...steps {
            let k = Double(s) / Double(steps)
            motion(x + dx * k, y + dy * k, at: t + duration * k)
        }
        release(button, x + dx, y + dy, at: t + duration + 10)
    }

    // MARK: - Paths

    /// One finger (touch `id`) draws `points` (root pixels) over `duration` ms, one update per
    /// point, and lifts 10 ms after the last.
    public mutating func path(_ points: [Point], time t: Double, duration: Double, id: Int = 1) {
        guard let first = points.first, let last = points.last else { return }
        down(id, first.x, first.y, at: t)
        for (k, p) in points.enumerated().dropFirst() {
            move(id, p.x, p.y, at: t + duration * Double(k) / Double(points.count - 1))
        }
        up(id, last.x, last.y, at: t + duration + 10)
    }

    /// The pointer draws `points` with `button` held over `duration` ms, one motion per point,
    /// released 10 ms after the last.
    public mutating func pointerPath(_ points: [Point], button: Int = 3, time t: Double, duration: Double) {
        guard let first = points.first, let last = points.last else { return }
        press(button, first.x, first.y, at: t)
        for (k, p) in points.enumerated().dropFirst() {
            motion(p.x, p.y, at: t + duration * Double(k) / Double(points.count - 1))
        }
        release(button, last.x, last.y, at: t + duration + 10)
    }

    // MARK: - Touchpad

    /// An XI 2.4 touchpad swipe of `fingers` fingers by (dx, dy) in `steps` equal updates over
    /// `duration` ms, ended (or cancelled) 10 ms after the last; `p` is where the pointer was.
    public mutating func touchpadSwipe(
        fingers: Int, by dx: Double, _ dy: Double, time t: Double, duration: Double, steps: Int = 10, cancelled: Bool = false, at p: Point? = nil,
        mods: Modifiers = []
    ) {
        add(t, .touchpadSwipeBegin(fingers: fingers, at: p, modifiers: mods))
        for s in 1...steps {
            add(t + duration * Double(s) / Double(steps), .touchpadSwipeUpdate(fingers: fingers, delta: Point(x: dx / Double(steps), y: dy / Double(steps))))
        }
        add(t + duration + 10, .touchpadSwipeEnd(fingers: fingers, cancelled: cancelled))
    }

    /// An XI 2.4 touchpad pinch at (400, 300) to `scale` and turning by `degrees` in `steps`
    /// updates over `duration` ms, ended (or cancelled) 10 ms after the last.
    public mutating func touchpadPinch(
        fingers: Int = 2, scale: Double, degrees: Double = 0, time t: Double, duration: Double = 200, steps: Int = 10, cancelled: Bool = false,
        mods: Modifiers = []
    ) {
        add(t, .touchpadPinchBegin(fingers: fingers, at: Point(x: 400, y: 300), modifiers: mods))
        for s in 1...steps {
            let k = Double(s) / Double(steps)
            add(t + duration * k, .touchpadPinchUpdate(fingers: fingers, delta: .zero, scale: 1 + (scale - 1) * k, angle: degrees / Double(steps)))
        }
        add(t + duration + 10, .touchpadPinchEnd(fingers: fingers, cancelled: cancelled))
    }
}

// The kit does without Foundation; these are plenty for test geometry.
private func cos(_ a: Double) -> Double { sin(a + Double.pi / 2) }
private func sin(_ x: Double) -> Double {
    // Taylor series after reduction to [-π, π].
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
