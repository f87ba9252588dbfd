/// Touchpad input (XI 2.4 gesture events): a swipe sequence makes swipes and pans, a pinch
/// sequence pinches and rotates, with the finger count the server reports. The position is
/// the pointer's when the sequence began. A cancelled sequence fires nothing more.
///
/// A sequence the group released stays the group's until its end event (its updates are the
/// application's, and change nothing here).
struct TouchpadSource {
    var group = GestureGroup(device: .touchpad)
    private var sequence = TouchpadSequence.swipe
    private var measures = Measures()

    @inline(__always) func deadline(_ s: RecognizerSettings) -> Instant? { group.nextDeadline(s) }

    mutating func fireTimers(at t: Instant, until target: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.fireTimers(at: t, until: target, env.recognition, emit: out)
    }

    mutating func begin(
        _ sequence: TouchpadSequence, fingers: Int, at p: Point, time t: Instant, _ env: EngineEnvironment,
        emit: (EngineOutput) -> Void
    ) {
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        if group.isActive {
            // A begin without an end: the previous sequence is over.
            group.end(at: t, cancelled: false, env.recognition, emit: out)
        }
        group.begin(at: t, app: env.app, emit: out)
        self.sequence = sequence
        measures = Measures()
        measures.centroid = p
        group.store(measures, at: t)
        group.settle(at: t, fingers: fingers, startCentroid: p, screen: env.screen, sequence: sequence, env.recognition, emit: out)
    }

    mutating func swipe(by delta: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive, sequence == .swipe else { return }
        measures.translation = measures.translation + delta
        measures.wander = measures.translation.length
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.update(at: t, measures, env.recognition, emit: out)
    }

    mutating func pinch(scale: Double, angle: Double, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive, sequence == .pinch else { return }
        measures.scale = scale
        measures.angle += angle
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.update(at: t, measures, env.recognition, emit: out)
    }

    mutating func end(_ sequence: TouchpadSequence, cancelled: Bool, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard group.isActive, sequence == self.sequence else { return }
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.end(at: t, cancelled: cancelled, env.recognition, emit: out)
    }

    mutating func abandon(at t: Instant, emit: (EngineOutput) -> Void) {
        func out(_ o: GroupOutput) { if case .engine(let e) = o { emit(e) } }
        group.abandon(at: t, emit: out)
    }
}
