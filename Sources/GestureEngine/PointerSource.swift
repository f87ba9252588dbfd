/// Pointer input: a press of the trigger button, motion and release make a one-finger gesture
/// from the `pointer` device. A press that becomes nothing bound is released (replayed to the
/// application by the live layer); a pointer click is never a tap.
struct PointerSource: GestureSource {
    static let device = DeviceKind.pointer
    /// A press of the button is one finger (``DeviceDescriptor/mostFingers``).
    private static let fingers = device.descriptor.mostFingers ?? 1

    var group = GestureGroup(device: device)
    private var press = Point.zero
    private var wander = 0.0

    init(_ configuration: EngineConfiguration) {}

    mutating func press(button: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard env.recognition.pointerButton != 0, button == env.recognition.pointerButton, !group.isActive else { return }
        group.button = button
        run(.begin(env.app), at: t, env.recognition, emit)
        press = p
        wander = 0
        var m = Measures()
        m.centroid = p
        run(.store(m, sampledAt: t), at: t, env.recognition, emit)
        run(.settle(fingers: Self.fingers, landing: p, screen: env.screen, sequence: nil, evaluateNow: true), at: t, env.recognition, emit)
        dropReleased(at: t, env.recognition, emit: emit)
    }

    mutating func motion(to p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive else { return }
        var m = Measures()
        m.centroid = p
        m.translation = p - press
        wander = max(wander, m.translation.length)
        m.wander = wander
        run(.update(m), at: t, env.recognition, emit)
        dropReleased(at: t, env.recognition, emit: emit)
    }

    mutating func release(button: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive, button == group.button else { return }
        run(.lift(wander: p.distance(to: press), last: true, pathEnd: p), at: t, env.recognition, emit)
    }
}
