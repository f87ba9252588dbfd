/// Pointer input: a press of the trigger button, motion and release make a one-finger gesture
/// from the `pointer` device. A press that becomes nothing bound is released (replayed to the
/// application by the live layer); a pointer click is never a tap.
struct PointerSource {
    var group = GestureGroup(device: .pointer)
    private var press = Point.zero
    private var wander = 0.0

    /// A press of the button is one finger (``DeviceDescriptor/mostFingers``).
    private static let fingers = DeviceKind.pointer.descriptor.mostFingers ?? 1

    @inline(__always) func deadline(_ s: RecognizerSettings) -> Instant? { group.nextDeadline(s) }

    mutating func fireTimers(at t: Instant, until target: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.fireTimers(at: t, until: target, env.recognition, emit: out)
        dropReleased(at: t, emit: emit)
    }

    mutating func press(button: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard env.recognition.pointerButton != 0, button == env.recognition.pointerButton, !group.isActive else { return }
        group.button = button
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.begin(at: t, app: env.app, emit: out)
        press = p
        wander = 0
        var m = Measures()
        m.centroid = p
        group.store(m, at: t)
        group.settle(at: t, fingers: Self.fingers, startCentroid: p, screen: env.screen, env.recognition, emit: out)
        dropReleased(at: t, emit: emit)
    }

    mutating func motion(to p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive else { return }
        var m = Measures()
        m.centroid = p
        m.translation = p - press
        wander = max(wander, m.translation.length)
        m.wander = wander
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.update(at: t, m, env.recognition, emit: out)
        dropReleased(at: t, emit: emit)
    }

    mutating func release(button: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive, button == group.button else { return }
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.extendPath(to: p)
        group.beginLifting(at: t, emit: out)
        group.noteWander(p.distance(to: press))
        group.end(at: t, cancelled: false, env.recognition, emit: out)
    }

    mutating func abandon(at t: Instant, emit: (EngineOutput) -> Void) {
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.abandon(at: t, emit: out)
    }

    /// A press given back to the application is over for the engine.
    private mutating func dropReleased(at t: Instant, emit: (EngineOutput) -> Void) {
        if group.isActive && group.decision == .released {
            func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
            group.deactivate(at: t, emit: out)
        }
    }

}
