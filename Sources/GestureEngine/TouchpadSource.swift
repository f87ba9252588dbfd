/// Touchpad input (XI 2.4 gesture events): a swipe sequence makes swipes and pans, a pinch
/// sequence pinches and rotates, with the finger count the server reports. The position is
/// the pointer's when the sequence began. A cancelled sequence fires nothing more.
struct TouchpadSource {
    var group = GestureGroup(device: .touchpad)
    private var family = GestureFamily.motion
    private var measures = Measures()

    @inline(__always) func deadline(_ s: RecognizerSettings) -> Instant? { group.nextDeadline(s) }

    mutating func fireTimers(at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        group.fireTimers(at: t, env.recognition, emit: emit)
    }

    mutating func begin(
        _ family: GestureFamily, fingers: Int, at p: Point, time t: Instant, _ env: EngineEnvironment,
        emit: (EngineOutput) -> Void
    ) {
        if group.active {
            // A begin without an end: the previous sequence is over.
            group.end(at: t, cancelled: false, env.recognition, emit: emit)
            group.deactivate()
        }
        self.family = family
        group.begin(at: t, app: env.app)
        measures = Measures()
        measures.centroid = p
        group.store(measures, at: t)
        group.settle(at: t, fingers: fingers, startCentroid: p, screen: env.screen, family: family, env.recognition, emit: emit)
    }

    mutating func swipe(by delta: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.active, family == .motion else { return }
        measures.translation = measures.translation + delta
        measures.wander = measures.translation.length
        group.update(at: t, measures, env.recognition, emit: emit)
    }

    mutating func pinch(scale: Double, angle: Double, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.active, family == .pinchRotate else { return }
        measures.scale = scale
        measures.angle += angle
        group.update(at: t, measures, env.recognition, emit: emit)
    }

    mutating func end(_ family: GestureFamily, cancelled: Bool, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.active, family == self.family else { return }
        group.end(at: t, cancelled: cancelled, env.recognition, emit: emit)
        group.deactivate()
    }

    mutating func abandon(at t: Instant, emit: (EngineOutput) -> Void) {
        group.abandon(at: t, emit: emit)
    }
}
