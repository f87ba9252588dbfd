/// One finger on the touchscreen, as its group tracks it.
struct TouchSlot {
    var id: Int
    var landing: Point
    var current: Point
    /// The farthest this finger has been from where it landed.
    var wander: Double
    /// Offset from the centroid at the previous measurement, for incremental rotation.
    var offset: Point
    /// Its updates so far (see ``Engine/replayableTouchUpdates``).
    var updates = 0
}

/// Touchscreen input: groups touches into gestures, measures them and feeds the group; owns
/// the multi-tap sequence, which outlives the groups that make its taps.
///
/// ```text
/// idle ──first touch──▶ settling ──window closes / no binding wants more / a lift──▶ open
/// open ──late touch──▶ finished (pending cancelled, running ended; the touch goes on)
/// open ──first lift──▶ lifting ──last lift──▶ idle
/// ```
/// (The group's own diagram is `GroupPhase`'s; the sequence's is ``TapSequence``'s.)
struct TouchscreenSource: GestureSource {
    static let device = DeviceKind.touchscreen

    var group = GestureGroup(device: device)
    private(set) var taps: TapSequence
    private var touches: [TouchSlot] = []
    /// Fingers of the current hand that are down but not the group's: a late finger, and every
    /// finger of a group that gave its input to the application. Until the last of them lifts,
    /// a finger that lands belongs to that hand and goes to the application too: ten fingers
    /// on the glass never make a fresh one-finger gesture of the last one. A set: touches that
    /// never end (a trace of 10^6 begins) must not make every begin a walk over them.
    private var passedOn: Set<Int> = []
    private var settleDeadline: Instant? = nil
    private var landingCentroid = Point.zero
    private var initialSpan = 0.0
    private var angle = 0.0

    init(_ configuration: EngineConfiguration) {
        taps = TapSequence(triggers: configuration.triggers)
        touches.reserveCapacity(16)
        passedOn.reserveCapacity(16)
    }

    private static func index(of id: Int, in touches: [TouchSlot]) -> Int? {
        for i in touches.indices where touches[i].id == id { return i }
        return nil
    }

    /// The earliest timer: the settle window, the group's arena, or — while no group holds it —
    /// the pending multi-tap's interval.
    @inline(__always) func deadline(_ s: RecognizerSettings) -> Instant? {
        if group.isActive { return settleDeadline.earliest(group.nextDeadline()) }
        return taps.deadline(s)
    }

    mutating func fireTimers(at t: Instant, until target: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        if let settle = settleDeadline, settle <= t {
            settleNow(at: settle, env, emit: emit)
        } else if !group.isActive {
            if let due = taps.deadline(env.recognition.settings(Self.device)), due <= t { taps.flush(at: due, emit: emit) }
        } else {
            run(.timers(until: target), at: t, env.recognition, emit)
        }
        dropReleased(at: t, env.recognition, emit: emit)
    }

    /// A finger lands; `modifiers`, the keys held then, count when it is a gesture's first.
    mutating func begin(id: Int, at p: Point, modifiers: Modifiers, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard Self.index(of: id, in: touches) == nil, !passedOn.contains(id) else { return }
        switch group.phase {
        case .settling:
            join(id: id, at: p, time: t, env.recognition, emit: emit)
            claimEarlyIfAsked(at: t, env.recognition, emit: emit)
            if !env.recognition.wantsMoreFingers(than: touches.count, device: Self.device, app: group.app, modifiers: group.modifiers) {
                settleNow(at: t, env, emit: emit)
            }
            dropReleased(at: t, env.recognition, emit: emit)
        case .open, .lifting, .finished:
            // A late finger belongs to the group it spoils: it cancels what is pending, ends
            // what runs, and goes to the application itself.
            run(.spoil, at: t, env.recognition, emit)
            dropReleased(at: t, env.recognition, emit: emit)
            passOn(id, emit: emit)
        case .idle where !passedOn.isEmpty:
            // A finger of a hand that is still down, whose gesture is over.
            passOn(id, emit: emit)
        case .idle:
            touches.removeAll(keepingCapacity: true)
            run(.begin(env.app, modifiers), at: t, env.recognition, emit)
            join(id: id, at: p, time: t, env.recognition, emit: emit)
            if env.recognition.wantsMoreFingers(than: 1, device: Self.device, app: env.app, modifiers: modifiers) {
                settleDeadline = t + Interval(milliseconds: env.recognition.settings(Self.device).fingerSettleMs)
            } else {
                settleNow(at: t, env, emit: emit)
            }
            dropReleased(at: t, env.recognition, emit: emit)
        }
    }

    mutating func update(id: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard let i = Self.index(of: id, in: touches) else { return }
        touches[i].current = p
        touches[i].wander = max(touches[i].wander, p.distance(to: touches[i].landing))
        touches[i].updates += 1
        let full = touches[i].updates >= Engine.replayableTouchUpdates
        let m = measure()
        run(.update(m), at: t, env.recognition, emit)
        if full && group.decision == .undecided && group.isActive {
            if group.phase == .settling { settleNow(at: t, env, emit: emit) }
            run(.replayLimit, at: t, env.recognition, emit)
        }
        dropReleased(at: t, env.recognition, emit: emit)
    }

    mutating func end(id: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard let i = leaving(id, at: t, env, emit: emit) else { return }
        let wander = p.distance(to: touches[i].landing)
        // The path of a one-finger group ends where the finger lifted.
        let pathEnd: Point? = touches.count == 1 ? p : nil
        touches.remove(at: i)
        run(.lift(wander: wander, last: touches.isEmpty, pathEnd: pathEnd), at: t, env.recognition, emit)
        dropReleased(at: t, env.recognition, emit: emit)
    }

    mutating func cancel(id: Int, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard let i = leaving(id, at: t, env, emit: emit) else { return }
        touches.remove(at: i)
        run(.cancel(last: touches.isEmpty), at: t, env.recognition, emit)
        dropReleased(at: t, env.recognition, emit: emit)
    }

    /// A finger leaves (lifts or is cancelled): a finger of the hand is simply gone; a finger of
    /// a group still settling fixes its count first. Returns the finger's slot in the group, or
    /// nil when the group has nothing more to do with it.
    private mutating func leaving(_ id: Int, at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) -> Int? {
        if passedOn.remove(id) != nil { return nil }
        guard let i = Self.index(of: id, in: touches) else { return nil }
        if group.phase == .settling {
            settleNow(at: t, env, emit: emit)
            if dropReleased(at: t, env.recognition, emit: emit) {
                passedOn.remove(id)  // this one is gone, not down
                return nil
            }
        }
        return i
    }

    mutating func abandon(at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        taps.abandon(emit: emit)
        run(.abandon, at: t, env.recognition, emit)
        touches.removeAll(keepingCapacity: true)
        settleDeadline = nil
    }

    /// Gives a finger that lands on a hand whose gesture is over to the application.
    private mutating func passOn(_ id: Int, emit: (EngineOutput) -> Void) {
        passedOn.insert(id)
        emit(.touch(id: id, .release))
    }

    /// Runs one step of the group with its outputs going to `emit` and its tap's verdicts to
    /// the multi-tap sequence, in the order they happen (a pending double tap is reported
    /// before the swipe that ruled it out).
    @inline(__always)
    mutating func run(_ step: GroupStep, at t: Instant, _ r: Recognition, _ emit: (EngineOutput) -> Void) {
        Self.run(step, at: t, &group, &taps, r, emit)
    }

    /// ``run(_:at:_:_:)`` on the two parts it changes, so that the routing of the group's
    /// outputs can reach the sequence while the group runs.
    @inline(__always)
    private static func run(
        _ step: GroupStep, at t: Instant, _ group: inout GestureGroup, _ taps: inout TapSequence, _ r: Recognition,
        _ emit: (EngineOutput) -> Void
    ) {
        group.run(step, at: t, r) { output in
            switch output {
            case .engine(let o): emit(o)
            case .tapFailed(let at): taps.flush(at: at, emit: emit)
            case .tapCompleted(let tap): taps.add(tap, emit: emit)
            }
        }
    }

    // MARK: -

    private mutating func join(id: Int, at p: Point, time t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        touches.append(TouchSlot(id: id, landing: p, current: p, wander: 0, offset: .zero))
        group.addTouch(id)
        var sum = Point.zero
        for s in touches { sum = sum + s.landing }
        landingCentroid = sum / Double(touches.count)
        // Span and rotation are measured from the landing positions of all the fingers.
        var span = 0.0
        for k in touches.indices {
            touches[k].offset = touches[k].current - currentCentroid()
            span += touches[k].landing.distance(to: landingCentroid)
        }
        initialSpan = span / Double(touches.count)
        angle = 0
        // Its translation counts at the group's start: a finger that joins has not moved yet.
        run(.store(measure(), sampledAt: group.start), at: t, r, emit)
    }

    /// `claim_on_second_finger`: once the fingers down make a count that a binding uses, every
    /// touch of the group is claimed while still down, and so is every finger that joins it
    /// afterwards. A touch the X server sees accepted before its end leaves no emulated button
    /// down; the price is that applications never get these touches.
    private mutating func claimEarlyIfAsked(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        guard r.claimOnSecondFinger, touches.count >= 2 else { return }
        if group.decision == .claimed || r.usesFingers(touches.count, device: Self.device, app: group.app, modifiers: group.modifiers) {
            run(.claimEarly, at: t, r, emit)
        }
    }

    private func currentCentroid() -> Point {
        var sum = Point.zero
        for s in touches { sum = sum + s.current }
        return sum / Double(max(touches.count, 1))
    }

    private mutating func settleNow(at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        settleDeadline = nil
        let fingers = touches.count, landing = landingCentroid
        run(.settle(fingers: fingers, landing: landing, screen: env.screen, sequence: nil, evaluateNow: false), at: t, env.recognition, emit)
        // A multi-tap waiting for this group goes on only if this group can be its next tap;
        // otherwise it is decided now, before this group's own outcome.
        if taps.isPending && !taps.isContinued(fingers: fingers, modifiers: group.modifiers, landing: landing, maxTaps: group.possibleTaps) {
            taps.flush(at: t, emit: emit)
        }
        // Scale and rotation are only measured once the bound gestures are known: measure now,
        // so a pinch that crossed its threshold while the fingers settled begins at once.
        if group.phase == .open {
            let m = measure()
            run(.update(m), at: t, env.recognition, emit)
        }
    }

    /// The group's touches are the application's now: they stay part of the hand
    /// (``passedOn``) until they lift.
    mutating func forgetReleasedInput() {
        for touch in touches { passedOn.insert(touch.id) }
        touches.removeAll(keepingCapacity: true)
        settleDeadline = nil
    }

    /// Centroid, mean translation, wander, scale and rotation of the fingers now.
    private mutating func measure() -> Measures {
        var m = Measures()
        let n = Double(touches.count)
        guard n > 0 else { return m }
        var current = Point.zero, moved = Point.zero
        for s in touches {
            current = current + s.current
            moved = moved + (s.current - s.landing)
            m.wander = max(m.wander, s.wander)
        }
        m.centroid = current / n
        m.translation = moved / n
        let flags = group.flags
        if touches.count >= 2 && group.phase != .settling && (flags.pinch || flags.rotate) {
            var span = 0.0, turn = 0.0
            for k in touches.indices {
                let offset = touches[k].current - m.centroid
                span += offset.length
                if flags.rotate {
                    turn += Trigonometry.signedDegrees(from: touches[k].offset, to: offset)
                }
                touches[k].offset = offset
            }
            span /= n
            angle += turn / n
            if initialSpan > 0 { m.scale = span / initialSpan }
            m.angle = angle
            m.differential = abs(span - initialSpan) + initialSpan * abs(angle) / Trigonometry.degreesPerRadian
        }
        return m
    }
}

extension Engine {
    /// How many updates of a touch may come before its group must have decided it. An X
    /// server keeps a grabbed touch's events for the client it passes the touch on to, and
    /// xorg-server keeps only the first 99 (`TOUCH_HISTORY_SIZE` 100, its last slot overwritten
    /// by each newer event): the begin and 98 updates. A touch given back later reaches the
    /// application with a hole — a long scroll jumps at the end. So a group still undecided at
    /// this many updates of one touch decides it (``GestureGroup/reachReplayLimit(at:emit:)``:
    /// back to the application, or claimed for a stroke being drawn); the 8 events to spare
    /// are the time the decision takes to reach the server (30 ms at 250 events a second).
    /// Replay counts the same events, so it decides the same.
    public static let replayableTouchUpdates = 90
}
