/// Pointer input: a press of a trigger button, motion and release make a one-finger gesture
/// from the `pointer` device. Which presses start one is ``PointerPresses``' to say: a press of
/// a button some pointer trigger names, with the modifiers it names (or any). A press that
/// becomes nothing bound is released (replayed to the application by the live layer); a
/// pointer click is never a tap. One press at a time: a press of another button meanwhile is
/// no gesture.
struct PointerSource: GestureSource {
    static let device = DeviceKind.pointer
    /// A press of the button is one finger (``DeviceDescriptor/mostFingers``).
    private static let fingers = device.descriptor.mostFingers ?? 1

    var group = GestureGroup(device: device)
    private var press = Point.zero
    private var wander = 0.0

    init(_ configuration: EngineConfiguration) {}

    mutating func press(button: Int, at p: Point, modifiers: Modifiers, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard !group.isActive, env.recognition.pointerPresses.starts(button: button, modifiers: modifiers) else { return }
        group.button = button
        run(.begin(env.app, modifiers), at: t, env.recognition, emit)
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

    /// What its next motion fires, when that is the swipe's verdict alone (``SwipeArm``).
    func swipeArm(_ r: Recognition, now: Instant, deadline: Instant?) -> SwipeArm? {
        group.swipeArm(press: press, r, now: now, deadline: deadline)
    }
}
