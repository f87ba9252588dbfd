/// One finger on the touchscreen, as its group tracks it.
struct TouchSlot {
    var id: Int
    var landing: Point
    var current: Point
    /// The farthest this finger has been from where it landed.
    var wander: Double
    /// Offset from the centroid at the previous measurement, for incremental rotation.
    var offset: Point
}

/// Touchscreen input: groups touches into gestures, measures them and feeds the group.
///
/// ```text
/// idle ──first touch──▶ settling ──window closes / no binding wants more / a lift──▶ settled
/// settled ──late touch──▶ spoiled (pending cancelled, running ended)
/// settled ──first lift──▶ lifting ──last lift──▶ idle
/// ```
struct TouchscreenSource {
    var group = GestureGroup(device: .touchscreen)
    private var touches: [TouchSlot] = []
    private var settleDeadline: Instant? = nil
    private var landingCentroid = Point.zero
    private var initialSpan = 0.0
    private var angle = 0.0

    init() { touches.reserveCapacity(16) }

    private static func index(of id: Int, in touches: [TouchSlot]) -> Int? {
        for i in touches.indices where touches[i].id == id { return i }
        return nil
    }

    @inline(__always) func deadline(_ s: RecognizerSettings) -> Instant? {
        settleDeadline.earliest(group.nextDeadline(s))
    }

    mutating func fireTimers(at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        if let settle = settleDeadline, settle <= t {
            settleNow(at: settle, env, emit: emit)
        } else {
            group.fireTimers(at: t, env.recognition, emit: emit)
        }
        dropReleased()
    }

    mutating func begin(id: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard Self.index(of: id, in: touches) == nil else { return }
        let r = env.recognition
        if group.active {
            if !group.settled && !group.lifting && !group.finished {
                join(id: id, at: p)
                claimEarlyIfAsked(r, emit: emit)
                if !r.wantsMoreFingers(than: touches.count, device: .touchscreen, app: group.app) {
                    settleNow(at: t, env, emit: emit)
                }
                dropReleased()
                return
            }
            // A late finger belongs to the group it spoils: it cancels what is pending, ends
            // what runs, and goes to the application itself.
            group.spoil(at: t, r, emit: emit)
            dropReleased()
            emit(.touch(id: id, .release))
            return
        }
        touches.removeAll(keepingCapacity: true)
        group.begin(at: t, app: env.app)
        join(id: id, at: p)
        if r.wantsMoreFingers(than: 1, device: .touchscreen, app: env.app) {
            settleDeadline = t + Interval(milliseconds: r.settings.fingerSettleMs)
        } else {
            settleNow(at: t, env, emit: emit)
        }
        dropReleased()
    }

    mutating func update(id: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard let i = Self.index(of: id, in: touches) else { return }
        touches[i].current = p
        touches[i].wander = max(touches[i].wander, p.distance(to: touches[i].landing))
        group.update(at: t, measure(), env.recognition, emit: emit)
        dropReleased()
    }

    mutating func end(id: Int, at p: Point, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard let i = Self.index(of: id, in: touches) else { return }
        if !group.settled {
            settleNow(at: t, env, emit: emit)
            if dropReleased() { return }
        }
        group.beginLifting(at: t)
        group.noteWander(p.distance(to: touches[i].landing))
        touches.remove(at: i)
        if touches.isEmpty {
            group.end(at: t, cancelled: false, env.recognition, emit: emit)
            group.deactivate()
        }
        dropReleased()
    }

    mutating func cancel(id: Int, time t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        guard let i = Self.index(of: id, in: touches) else { return }
        if !group.settled {
            settleNow(at: t, env, emit: emit)
            if dropReleased() { return }
        }
        group.cancel(at: t, env.recognition, emit: emit)
        touches.remove(at: i)
        if touches.isEmpty { group.deactivate() }
        dropReleased()
    }

    mutating func abandon(at t: Instant, emit: (EngineOutput) -> Void) {
        group.abandon(at: t, emit: emit)
        touches.removeAll(keepingCapacity: true)
        settleDeadline = nil
    }

    // MARK: -

    private mutating func join(id: Int, at p: Point) {
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
        group.store(measure(), at: group.start)
    }

    /// `claim_on_second_finger`: once the fingers down make a count that a binding uses, every
    /// touch of the group is claimed while still down, and so is every finger that joins it
    /// afterwards. A touch the X server sees accepted before its end leaves no emulated button
    /// down; the price is that applications never get these touches.
    private mutating func claimEarlyIfAsked(_ r: Recognition, emit: (EngineOutput) -> Void) {
        guard r.claimOnSecondFinger, touches.count >= 2 else { return }
        if group.claimed || r.usesFingers(touches.count, device: .touchscreen, app: group.app) {
            group.claimEarly(emit: emit)
        }
    }

    private func currentCentroid() -> Point {
        var sum = Point.zero
        for s in touches { sum = sum + s.current }
        return sum / Double(max(touches.count, 1))
    }

    private mutating func settleNow(at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        settleDeadline = nil
        group.settle(
            at: t, fingers: touches.count, startCentroid: landingCentroid, screen: env.screen, evaluateNow: false,
            env.recognition, emit: emit)
        // Scale and rotation are only measured once the bound gestures are known: measure now,
        // so a pinch that crossed its threshold while the fingers settled begins at once.
        if group.active && !group.releasedInput {
            group.update(at: t, measure(), env.recognition, emit: emit)
        }
    }

    /// Forgets every touch once the group released its input: the application owns them now,
    /// and their later events are not ours.
    @discardableResult
    private mutating func dropReleased() -> Bool {
        guard group.releasedInput else { return false }
        touches.removeAll(keepingCapacity: true)
        settleDeadline = nil
        group.deactivate()
        return true
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
        if touches.count >= 2 && group.settled && (flags.pinch || flags.rotate) {
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
