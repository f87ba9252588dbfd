/// Touchpad input (XI 2.4 gesture events): a swipe sequence makes swipes and pans, a pinch
/// sequence pinches and rotates, with the finger count the server reports. The position is
/// the pointer's when the sequence began. A cancelled sequence fires nothing more.
///
/// A sequence the group released stays the group's until its end event (its updates are the
/// application's, and change nothing here).
struct TouchpadSource: GestureSource {
    static let device = DeviceKind.touchpad
    static let keepsReleasedInput = true

    var group = GestureGroup(device: device)
    private var sequence = TouchpadSequence.swipe
    private var measures = Measures()

    init(_ configuration: EngineConfiguration) {}

    mutating func begin(
        _ sequence: TouchpadSequence, fingers: Int, at p: Point, modifiers: Modifiers, time t: Instant, _ env: EngineEnvironment,
        emit: (EngineOutput) -> Void
    ) {
        if group.isActive {
            // A begin without an end: the previous sequence is over.
            run(.end(cancelled: false), at: t, env.recognition, emit)
        }
        run(.begin(env.app, modifiers), at: t, env.recognition, emit)
        self.sequence = sequence
        measures = Measures()
        measures.centroid = p
        run(.store(measures, sampledAt: t), at: t, env.recognition, emit)
        run(.settle(fingers: fingers, landing: p, screen: env.screen, sequence: sequence, evaluateNow: true), at: t, env.recognition, emit)
    }

    mutating func swipe(by delta: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive, sequence == .swipe else { return }
        measures.translation = measures.translation + delta
        measures.wander = measures.translation.length
        run(.update(measures), at: t, env.recognition, emit)
    }

    mutating func pinch(scale: Double, angle: Double, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive, sequence == .pinch else { return }
        measures.scale = scale
        measures.angle += angle
        run(.update(measures), at: t, env.recognition, emit)
    }

    mutating func end(_ sequence: TouchpadSequence, cancelled: Bool, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive, sequence == self.sequence else { return }
        run(.end(cancelled: cancelled), at: t, env.recognition, emit)
    }
}
