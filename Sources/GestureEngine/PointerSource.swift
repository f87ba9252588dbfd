/// Pointer input: a press of the trigger button, motion and release make a one-finger gesture
/// from the `pointer` device. A press that becomes nothing bound is released (replayed to the
/// application by the live layer); a pointer click is never a tap.
struct PointerSource {
    var group = GestureGroup(device: .pointer)
    private var press = Point.zero
    private var wander = 0.0

    @inline(__always) func deadline(_ s: RecognizerSettings) -> Instant? { group.nextDeadline(s) }

    mutating func fireTimers(at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        group.fireTimers(at: t, env.recognition, emit: emit)
        if group.releasedInput { group.deactivate() }
    }

    mutating func press(button: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        let r = env.recognition
        guard r.pointerButton != 0, button == r.pointerButton, !group.active else { return }
        group.button = button
        group.begin(at: t, app: env.app)
        press = p
        wander = 0
        var m = Measures()
        m.centroid = p
        group.store(m, at: t)
        group.settle(at: t, fingers: 1, startCentroid: p, screen: env.screen, r, emit: emit)
        if group.releasedInput { group.deactivate() }
    }

    mutating func motion(to p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.active else { return }
        var m = Measures()
        m.centroid = p
        m.translation = p - press
        wander = max(wander, m.translation.length)
        m.wander = wander
        group.update(at: t, m, env.recognition, emit: emit)
        if group.releasedInput { group.deactivate() }
    }

    mutating func release(button: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.active, button == group.button else { return }
        group.beginLifting(at: t)
        group.noteWander(p.distance(to: press))
        group.end(at: t, cancelled: false, env.recognition, emit: emit)
        group.deactivate()
    }

    mutating func abandon(at t: Instant, emit: (EngineOutput) -> Void) {
        group.abandon(at: t, emit: emit)
    }
}
