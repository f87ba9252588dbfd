/// The state of one recognizer inside a gesture group.
///
/// ```text
///   possible ──(thresholds met)──▶ active ──(last lift)──▶ done
///       │                            └──(cancel)─────────▶ done
///       └──(ruled out: moved, too slow, too late, another won)──▶ failed
/// ```
/// Discrete recognizers (tap, swipe) go straight from `possible` to `done`.
enum RecognizerState: UInt8 {
    case possible, active, done, failed
}

/// What the recognizers look at, measured by the source from its fingers, pointer or deltas.
struct Measures: Equatable {
    /// Centroid of the fingers (or the pointer), root pixels.
    var centroid = Point.zero
    /// Mean displacement of the fingers since each landed (touchpad: sum of deltas).
    var translation = Point.zero
    /// The farthest any finger has wandered from where it landed (px).
    var wander = 0.0
    /// Span now / span at start (1 with fewer than two fingers).
    var scale = 1.0
    /// Cumulative rotation, degrees, clockwise positive.
    var angle = 0.0
    /// How far (px) the fingers moved relative to each other (span change and arc of
    /// rotation): a pan only begins when the common movement outweighs it.
    var differential = 0.0
    /// Velocity (px/s), filled in when reported.
    var velocity = Point.zero
}

/// Velocity from the translation samples of the last ``window`` ms, in a fixed ring so that
/// tracking allocates nothing.
struct VelocityTracker {
    /// Samples older than this (ms) do not count: a finger that rested this long before lifting
    /// lifts at speed zero. Flutter's `VelocityTracker` uses a 100 ms horizon too.
    static let window = 100.0
    private static let capacity = 8
    private var times = InlineArray<8, Double>(repeating: 0)
    private var xs = InlineArray<8, Double>(repeating: 0)
    private var ys = InlineArray<8, Double>(repeating: 0)
    private var count = 0
    private var head = 0

    mutating func reset() { count = 0; head = 0 }

    mutating func record(_ t: Instant, _ p: Point) {
        times[head] = t.milliseconds
        xs[head] = p.x
        ys[head] = p.y
        head = (head + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
    }

    private func sample(_ i: Int) -> (Double, Point) {
        (times[i], Point(x: xs[i], y: ys[i]))
    }

    /// Velocity in px/s at `now`: displacement between the newest sample and the oldest one
    /// within the window, over their time difference; zero when nothing moved in the window.
    func velocity(at now: Instant) -> Point {
        guard count >= 2 else { return .zero }
        let newestIndex = (head - 1 + Self.capacity) % Self.capacity
        let (tNew, pNew) = sample(newestIndex)
        if now.milliseconds - tNew > Self.window { return .zero }
        var oldest = (tNew, pNew)
        for k in 1..<count {
            let s = sample((newestIndex - k + Self.capacity) % Self.capacity)
            if now.milliseconds - s.0 > Self.window { break }
            oldest = s
        }
        let dt = tNew - oldest.0
        guard dt > 0 else { return .zero }
        return (pNew - oldest.1) * (1000 / dt)
    }
}

/// Which kinds of gesture a group's input can make: a touchpad swipe sequence only swipes and
/// pans, a touchpad pinch sequence only pinches and rotates.
struct GestureFamily: OptionSet {
    let rawValue: UInt8
    static let motion = GestureFamily(rawValue: 1)
    static let pinchRotate = GestureFamily(rawValue: 2)
    static let all: GestureFamily = [.motion, .pinchRotate]
}

/// A pending multi-tap: taps that already happened and wait for one more (touchscreen only).
struct TapSequence {
    /// Taps so far; 0 when nothing is pending.
    var count = 0
    var fingers = 0
    /// Where the latest tap landed.
    var position = Point.zero
    /// When the latest tap's last finger lifted.
    var releaseTime = Instant(milliseconds: 0)
    var app = FocusedApp()
    /// Touches of all taps so far, awaiting their ownership decision.
    var touchIDs: [Int] = []

    var isPending: Bool { count > 0 }
}

/// One gesture group: the fingers (or pointer press, or touchpad sequence) that form one
/// gesture, and the arena where the bound recognizers compete for it.
///
/// A claim is emitted before the phase that fires: whoever performs the action (a right click
/// after a long press) does so once the input is the bridge's, never while the application
/// could still get it.
///
/// Sources measure; the group decides. Every decision happens here, in one place: which
/// recognizers exist (the bound ones), which wins, what fires, and who owns the input.
/// The group calls `emit` for gesture phases and ownership decisions; it never performs
/// anything itself.
struct GestureGroup {
    let device: DeviceKind
    /// The pointer button (pointer groups), for ownership decisions.
    var button = 0

    /// A group is active from its first finger until its last lift or its release.
    private(set) var active = false
    private(set) var start = Instant(milliseconds: 0)
    /// Whether the finger count is fixed (the settle window closed).
    private(set) var settled = false
    private(set) var fingers = 0
    private(set) var app = FocusedApp()
    private(set) var edge: Edge?
    private(set) var flags = ContextFlags()
    private var candidates: [Int] = []
    private var ratchet: [Double] = []
    private var steps: [Int] = []

    private(set) var measures = Measures()
    private var frozen = Measures()
    /// A finger has lifted: values are frozen, nothing new begins.
    private(set) var lifting = false
    /// Nothing more can be recognized; the group only waits for its fingers to lift.
    private(set) var finished = false
    private(set) var claimed = false
    /// Set when the group released its input: the source forgets the released touches.
    private(set) var releasedInput = false

    private var tap = RecognizerState.failed
    private var longPress = RecognizerState.failed
    private var swipe = RecognizerState.failed
    private var pan = RecognizerState.failed
    private var pinch = RecognizerState.failed
    private var rotate = RecognizerState.failed

    private var panOrigin = Point.zero
    private var pinchOrigin = 1.0
    private var rotateOrigin = 0.0
    private var longPressRepeat: (trigger: Int, next: Instant, every: Double)? = nil
    private var velocity = VelocityTracker()

    /// Touch ids (touchscreen) whose ownership is not decided yet.
    private(set) var undecided: [Int] = []
    /// Pointer and touchpad groups: whether their input still awaits a decision.
    private var inputUndecided = false

    /// The multi-tap that waits for this group's tap (touchscreen only); survives groups.
    private(set) var sequence = TapSequence()
    /// The tap count this group's tap would make (1, or one more than the pending sequence).
    private var tapIndex = 1
    /// This group landed while a multi-tap was pending: the sequence waits for this group's
    /// verdict instead of its own deadline.
    private var holdsSequence = false

    init(device: DeviceKind) {
        self.device = device
        candidates.reserveCapacity(32)
        ratchet.reserveCapacity(32)
        steps.reserveCapacity(32)
        undecided.reserveCapacity(16)
        sequence.touchIDs.reserveCapacity(16)
    }

    // MARK: - Lifecycle driven by the source

    /// Starts a group at its first finger, press or touchpad begin.
    mutating func begin(at t: Instant, app: FocusedApp) {
        active = true
        start = t
        settled = false
        fingers = 0
        self.app = app
        edge = nil
        flags = ContextFlags()
        candidates.removeAll(keepingCapacity: true)
        measures = Measures()
        frozen = Measures()
        lifting = false
        finished = false
        claimed = false
        releasedInput = false
        tap = .failed; longPress = .failed; swipe = .failed
        pan = .failed; pinch = .failed; rotate = .failed
        longPressRepeat = nil
        velocity.reset()
        undecided.removeAll(keepingCapacity: true)
        inputUndecided = device != .touchscreen
        tapIndex = 1
        holdsSequence = sequence.isPending
    }

    /// Adds a touch to the input awaiting a decision.
    mutating func addTouch(_ id: Int) { undecided.append(id) }

    /// Claims the input now, before any gesture won it (`claim_on_second_finger`): nothing is
    /// released afterwards, whether or not a gesture then matches.
    mutating func claimEarly(emit: (EngineOutput) -> Void) {
        guard active else { return }
        decide(.claim, emit: emit)
    }

    /// Fixes the finger count: the settle window closed, or the gesture had to be decided
    /// sooner. Finds the bound triggers that apply; when none does, the input is released.
    mutating func settle(
        at t: Instant, fingers: Int, startCentroid: Point, screen: (width: Int, height: Int)?,
        family: GestureFamily = .all, evaluateNow: Bool = true, _ r: Recognition, emit: (EngineOutput) -> Void
    ) {
        guard active, !settled else { return }
        settled = true
        self.fingers = fingers
        edge = device == .touchpad ? nil : Geometry.edge(of: startCentroid, screen: screen, margin: r.settings.edgePx)
        flags = ContextFlags.collect(r, device: device, fingers: fingers, app: app, edge: edge, into: &candidates)
        if !family.contains(.motion) { flags.swipe = false; flags.pan = false }
        if !family.contains(.pinchRotate) { flags.pinch = false; flags.rotate = false }
        ratchet.removeAll(keepingCapacity: true)
        steps.removeAll(keepingCapacity: true)
        for _ in candidates { ratchet.append(0); steps.append(0) }
        tap = flags.maxTaps > 0 ? .possible : .failed
        longPress = flags.longPress ? .possible : .failed
        swipe = flags.swipe ? .possible : .failed
        pan = flags.pan ? .possible : .failed
        pinch = flags.pinch ? .possible : .failed
        rotate = flags.rotate ? .possible : .failed

        if sequence.isPending {
            let continues = tap == .possible && sequence.fingers == fingers
                && startCentroid.distance(to: sequence.position) <= r.settings.multiTapDistancePx
                && flags.maxTaps > sequence.count
            if continues {
                tapIndex = sequence.count + 1
            } else {
                holdsSequence = false
                flushSequence(at: t, r, emit: emit)
            }
        }
        if evaluateNow { evaluate(at: t, r, emit: emit) }
    }

    /// Measurements taken before the count is fixed (a finger joined): stored, not judged.
    mutating func store(_ m: Measures, at t: Instant) {
        measures = m
        velocity.record(t, m.translation)
    }

    /// New measurements from the source.
    mutating func update(at t: Instant, _ m: Measures, _ r: Recognition, emit: (EngineOutput) -> Void) {
        guard active else { return }
        measures = m
        velocity.record(t, m.translation)
        if settled && !lifting && !finished { evaluate(at: t, r, emit: emit) }
    }

    /// The first finger lifts: values freeze as they were before it; nothing new begins.
    mutating func beginLifting(at t: Instant) {
        guard active, !lifting else { return }
        lifting = true
        frozen = measures
        frozen.velocity = velocity.velocity(at: t)
    }

    /// A finger's final position counts for the tap's slop, not for the frozen values.
    mutating func noteWander(_ wander: Double) {
        measures.wander = max(measures.wander, wander)
    }

    /// The last finger lifted (or the press was released, or the touchpad gesture ended).
    mutating func end(at t: Instant, cancelled: Bool, _ r: Recognition, emit: (EngineOutput) -> Void) {
        guard active else { return }
        if !lifting { beginLifting(at: t) }
        if cancelled {
            cancelRunning(at: t, emit: emit)
        } else {
            endRunning(at: t, r, emit: emit)
        }
        if !finished && tap == .possible && settled
            && t - start <= Interval(milliseconds: r.settings.tapMaxMs)
            && measures.wander <= r.settings.slopPx
        {
            completeTap(at: t, r, emit: emit)
        } else {
            failTap(at: t, r, emit: emit)
        }
        if !claimed { decide(.release, emit: emit) }
        active = false
    }

    /// A finger landed after the count was fixed: what is pending is cancelled, a running
    /// continuous gesture ends (with the values from before the landing).
    mutating func spoil(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        guard active, !finished else { return }
        if !lifting { beginLifting(at: t) }
        endRunning(at: t, r, emit: emit)
        failTap(at: t, r, emit: emit)
        finish()
        if !claimed { decide(.release, emit: emit) }
    }

    /// A touch was cancelled by the server: running gestures are cancelled, nothing fires.
    mutating func cancel(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        guard active else { return }
        if !lifting { beginLifting(at: t) }
        cancelRunning(at: t, emit: emit)
        failTap(at: t, r, emit: emit)
        finish()
        if !claimed { decide(.release, emit: emit) }
    }

    /// Drops the group after its input was released and forgotten, or its last finger left.
    mutating func deactivate() { active = false }

    // MARK: - Timers

    /// The earliest deadline of this group or its pending multi-tap.
    @inline(__always) func nextDeadline(_ s: RecognizerSettings) -> Instant? {
        var d: Instant? = nil
        func consider(_ x: Instant) { d = d.earliest(x) }
        if sequence.isPending && !(active && holdsSequence) {
            consider(sequence.releaseTime + Interval(milliseconds: s.multiTapIntervalMs))
        }
        guard active, settled, !finished, !lifting else { return d }
        if tap == .possible { consider(start + Interval(milliseconds: s.tapMaxMs)) }
        if swipe == .possible { consider(start + Interval(milliseconds: s.swipeWindowMs)) }
        if longPress == .possible { consider(start + Interval(milliseconds: s.longPressMs)) }
        if longPress == .active, let rep = longPressRepeat { consider(rep.next) }
        return d
    }

    /// Fires whatever is due at `t` (a deadline reported by ``nextDeadline(_:)``).
    mutating func fireTimers(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        let s = r.settings
        if sequence.isPending && !(active && holdsSequence)
            && sequence.releaseTime + Interval(milliseconds: s.multiTapIntervalMs) <= t
        {
            flushSequence(at: sequence.releaseTime + Interval(milliseconds: s.multiTapIntervalMs), r, emit: emit)
        }
        guard active, settled, !finished, !lifting else { return }
        if longPress == .active, let rep = longPressRepeat, rep.next <= t {
            emit(.gesture(report(.longPress, .changed, at: rep.next, measures, firing: rep.trigger)))
            longPressRepeat = (rep.trigger, rep.next + Interval(milliseconds: rep.every), rep.every)
            return
        }
        var ruledOut = false
        if tap == .possible && start + Interval(milliseconds: s.tapMaxMs) <= t {
            failTap(at: t, r, emit: emit)
            ruledOut = true
        }
        if swipe == .possible && start + Interval(milliseconds: s.swipeWindowMs) <= t {
            swipe = .failed
            ruledOut = true
        }
        if longPress == .possible && start + Interval(milliseconds: s.longPressMs) <= t {
            // Nothing else can begin once a long press has: no evaluation after it.
            beginLongPress(at: start + Interval(milliseconds: s.longPressMs), r, emit: emit)
            return
        }
        if ruledOut { evaluate(at: t, r, emit: emit) }
    }

    // MARK: - The arena

    /// Decides what the current measures make of the group. Only called while settled,
    /// before any lift, and while something can still happen.
    private mutating func evaluate(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        guard active, settled, !lifting, !finished else { return }
        let s = r.settings
        let m = measures

        if m.wander > s.slopPx {
            if tap == .possible { failTap(at: t, r, emit: emit) }
            if longPress == .possible { longPress = .failed }
        }

        // A running continuous gesture owns the group.
        if longPress == .active {
            emit(.gesture(report(.longPress, .changed, at: t, m, firing: nil)))
            return
        }
        if pan == .active {
            emitChanged(.pan, at: t, r, emit: emit)
            return
        }
        if pinch == .active || rotate == .active {
            if pinch == .possible && reaches(abs(m.scale - 1), s.pinchMinScale) { beginPinch(at: t, r, emit: emit) }
            if rotate == .possible && reaches(abs(m.angle), s.rotateMinDegrees) { beginRotate(at: t, r, emit: emit) }
            if pinch == .active { emitChanged(.pinch, at: t, r, emit: emit) }
            if rotate == .active { emitChanged(.rotate, at: t, r, emit: emit) }
            return
        }

        let distance = m.translation.length
        if swipe == .possible {
            let elapsed = (t - start).milliseconds
            if elapsed > s.swipeWindowMs {
                swipe = .failed
            } else if reaches(distance, s.swipeMinPx) {
                if elapsed <= 0 || reaches(distance / elapsed, s.swipeMinVelocity) {
                    recognizeSwipe(at: t, r, emit: emit)
                    return
                }
                swipe = .failed
            }
        }

        let pinchNow = pinch == .possible && reaches(abs(m.scale - 1), s.pinchMinScale)
        let rotateNow = rotate == .possible && reaches(abs(m.angle), s.rotateMinDegrees)
        if pinchNow || rotateNow {
            failTap(at: t, r, emit: emit)
            longPress = .failed; swipe = .failed; pan = .failed
            if pinchNow { beginPinch(at: t, r, emit: emit) }
            if rotateNow { beginRotate(at: t, r, emit: emit) }
            return
        }

        if pan == .possible && swipe != .possible && distance > s.slopPx
            && (pinch != .possible && rotate != .possible || distance >= m.differential)
        {
            failTap(at: t, r, emit: emit)
            longPress = .failed; pinch = .failed; rotate = .failed
            beginPan(at: t, r, emit: emit)
            return
        }

        releaseIfHopeless(emit: emit)
    }

    /// Whether a measured value reaches a threshold. Thresholds are inclusive, and the few ulps a
    /// centroid or a ratio picks up in floating point must not decide: 1.15 − 1 is 0.1499…
    private func reaches(_ value: Double, _ threshold: Double) -> Bool {
        value >= threshold - 1e-9 * max(1, abs(threshold))
    }

    /// Releases the input the moment no bound gesture can win it any more.
    private mutating func releaseIfHopeless(emit: (EngineOutput) -> Void) {
        guard !claimed, !finished else { return }
        let hope = tap == .possible || longPress == .possible || swipe == .possible
            || pan == .possible || pinch == .possible || rotate == .possible
        if !hope {
            finish()
            decide(.release, emit: emit)
        }
    }

    // MARK: - Recognitions

    private mutating func recognizeSwipe(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        failTap(at: t, r, emit: emit)
        swipe = .done
        longPress = .failed; pan = .failed; pinch = .failed; rotate = .failed
        let direction = Geometry.direction(of: measures.translation, diagonals: flags.swipeDiagonals)
        let firing = r.bestFiring(among: candidates, gesture: .swipe, direction: direction, on: nil)
        var rep = report(.swipe, .recognized, at: t, measures, firing: firing)
        rep.direction = direction
        finish()
        // Ownership first: the input is the bridge's before the bound action happens.
        decide(firing != nil ? .claim : .release, emit: emit)
        emit(.gesture(rep))
    }

    private mutating func beginLongPress(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        failTap(at: t, r, emit: emit)
        longPress = .active
        swipe = .failed; pan = .failed; pinch = .failed; rotate = .failed
        let firing = r.bestFiring(among: candidates, gesture: .longPress, direction: nil, on: .begin)
        decide(.claim, emit: emit)
        emit(.gesture(report(.longPress, .began, at: t, measures, firing: firing)))
        if let firing, let every = r.triggers[firing].repeatEvery, every > 0 {
            longPressRepeat = (firing, t + Interval(milliseconds: every), every)
        }
    }

    private mutating func beginPan(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        pan = .active
        panOrigin = measures.translation
        let direction = Geometry.direction(of: measures.translation, diagonals: flags.panDiagonals)
        beginContinuous(.pan, direction: direction, at: t, r, emit: emit)
    }

    private mutating func beginPinch(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        pinch = .active
        pinchOrigin = measures.scale
        beginContinuous(.pinch, direction: measures.scale < 1 ? .in : .out, at: t, r, emit: emit)
    }

    private mutating func beginRotate(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        rotate = .active
        rotateOrigin = measures.angle
        beginContinuous(.rotate, direction: measures.angle > 0 ? .cw : .ccw, at: t, r, emit: emit)
    }

    private mutating func beginContinuous(
        _ gesture: GestureKind, direction: Direction, at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void
    ) {
        for k in candidates.indices where r.triggers[candidates[k]].gesture == gesture { ratchet[k] = 0 }
        let firing = r.bestFiring(among: candidates, gesture: gesture, direction: direction, on: .begin)
        decide(.claim, emit: emit)
        emit(.gesture(report(gesture, .began, at: t, measures, firing: firing)))
    }

    /// A `changed` phase, firing the repeat steps crossed since the last firing.
    private mutating func emitChanged(_ gesture: GestureKind, at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        let m = measures
        var bestSpecificity = -1
        for k in candidates.indices {
            steps[k] = 0
            let ti = candidates[k]
            guard r.triggers[ti].gesture == gesture, r.triggers[ti].on == .begin, let every = r.triggers[ti].repeatEvery, every > 0 else { continue }
            let triggerDirection = r.triggers[ti].direction
            let progress: Double
            var twoSided = false
            switch gesture {
            case .pan:
                let moved = m.translation - panOrigin
                if let d = triggerDirection {
                    let u = d.unitVector
                    progress = moved.x * u.x + moved.y * u.y
                } else {
                    progress = moved.length
                }
            case .pinch:
                let delta = m.scale - pinchOrigin
                switch triggerDirection {
                case .in?: progress = -delta
                case nil: progress = delta; twoSided = true
                default: progress = delta
                }
            case .rotate:
                let delta = m.angle - rotateOrigin
                switch triggerDirection {
                case .ccw?: progress = -delta
                case nil: progress = delta; twoSided = true
                default: progress = delta
                }
            case .tap, .swipe, .longPress:
                continue
            }
            var n = 0
            while reaches(progress, ratchet[k] + every) && n < Self.maxStepsPerEvent {
                ratchet[k] += every
                n += 1
            }
            while reaches(-progress, -(ratchet[k] - every)) && n < Self.maxStepsPerEvent {
                ratchet[k] -= every
                if twoSided { n += 1 }
            }
            if n >= Self.maxStepsPerEvent {
                // Catch up silently beyond the cap so later steps are measured from here.
                ratchet[k] = progress
            }
            steps[k] = n
            if n > 0 { bestSpecificity = max(bestSpecificity, r.triggers[ti].specificity) }
        }
        var fired = false
        if bestSpecificity >= 0 {
            for k in candidates.indices where steps[k] > 0 && r.triggers[candidates[k]].specificity == bestSpecificity {
                for _ in 0..<steps[k] {
                    emit(.gesture(report(gesture, .changed, at: t, m, firing: candidates[k])))
                    fired = true
                }
            }
        }
        if !fired { emit(.gesture(report(gesture, .changed, at: t, m, firing: nil))) }
    }

    /// One event that crosses several repeat steps fires once per step, at most this often.
    static let maxStepsPerEvent = 32

    /// Ends running continuous gestures normally, firing their `on = "end"` bindings.
    private mutating func endRunning(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        let m = frozen
        if longPress == .active {
            longPress = .done
            let firing = r.bestFiring(among: candidates, gesture: .longPress, direction: nil, on: .end)
            emit(.gesture(report(.longPress, .ended, at: t, m, firing: firing)))
        }
        if pan == .active {
            pan = .done
            let direction = Geometry.direction(of: m.translation, diagonals: flags.panDiagonals)
            let firing = r.bestFiring(among: candidates, gesture: .pan, direction: direction, on: .end)
            emit(.gesture(report(.pan, .ended, at: t, m, firing: firing)))
        }
        if pinch == .active {
            pinch = .done
            let direction: Direction = m.scale < 1 ? .in : .out
            let firing = r.bestFiring(among: candidates, gesture: .pinch, direction: direction, on: .end)
            var rep = report(.pinch, .ended, at: t, m, firing: firing)
            rep.direction = direction
            emit(.gesture(rep))
        }
        if rotate == .active {
            rotate = .done
            let direction: Direction = m.angle > 0 ? .cw : .ccw
            let firing = r.bestFiring(among: candidates, gesture: .rotate, direction: direction, on: .end)
            var rep = report(.rotate, .ended, at: t, m, firing: firing)
            rep.direction = direction
            emit(.gesture(rep))
        }
    }

    /// Cancels running continuous gestures: nothing fires.
    private mutating func cancelRunning(at t: Instant, emit: (EngineOutput) -> Void) {
        let m = frozen
        if longPress == .active { longPress = .done; emit(.gesture(report(.longPress, .cancelled, at: t, m, firing: nil))) }
        if pan == .active { pan = .done; emit(.gesture(report(.pan, .cancelled, at: t, m, firing: nil))) }
        if pinch == .active { pinch = .done; emit(.gesture(report(.pinch, .cancelled, at: t, m, firing: nil))) }
        if rotate == .active { rotate = .done; emit(.gesture(report(.rotate, .cancelled, at: t, m, firing: nil))) }
    }

    private mutating func finish() {
        finished = true
        if tap == .possible { tap = .failed }
        if longPress == .possible { longPress = .failed }
        if swipe == .possible { swipe = .failed }
        if pan == .possible { pan = .failed }
        if pinch == .possible { pinch = .failed }
        if rotate == .possible { rotate = .failed }
    }

    // MARK: - Taps and multi-taps

    /// This group can no longer be a tap: a multi-tap waiting for it is decided now.
    private mutating func failTap(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        if tap == .possible { tap = .failed }
        if holdsSequence {
            holdsSequence = false
            tapIndex = 1
            flushSequence(at: t, r, emit: emit)
        }
    }

    /// The group was a tap: it fires now, or waits for one more when a higher count is bound.
    private mutating func completeTap(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        tap = .done
        let count = tapIndex
        tapIndex = 1
        holdsSequence = false
        if count == 1 {
            sequence.touchIDs.removeAll(keepingCapacity: true)
        }
        sequence.count = count
        sequence.fingers = fingers
        sequence.position = measures.centroid - measures.translation
        sequence.releaseTime = t
        sequence.app = app
        sequence.touchIDs.append(contentsOf: undecided)
        undecided.removeAll(keepingCapacity: true)
        claimed = true  // the touches now belong to the sequence's decision
        finished = true
        if flags.maxTaps <= count {
            flushSequence(at: t, r, emit: emit)
        }
    }

    /// Reports the pending multi-tap with its count so far, fires its binding and decides its
    /// touches.
    private mutating func flushSequence(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) {
        guard sequence.isPending else { return }
        var firing: Int? = nil
        var bestSpecificity = -1
        for (i, trigger) in r.triggers.enumerated()
        where trigger.gesture == .tap && trigger.taps == sequence.count
            && trigger.applies(to: device, app: sequence.app, fingers: sequence.fingers, edge: nil)
            && trigger.specificity > bestSpecificity
        {
            firing = i
            bestSpecificity = trigger.specificity
        }
        let decision: Ownership = firing != nil ? .claim : .release
        for id in sequence.touchIDs { emit(.touch(id: id, decision)) }
        emit(.gesture(GestureReport(
            time: t, gesture: .tap, phase: .recognized, fingers: sequence.fingers, device: device,
            position: sequence.position, taps: sequence.count, app: sequence.app.name, appClass: sequence.app.className,
            firing: firing)))
        sequence.touchIDs.removeAll(keepingCapacity: true)
        sequence.count = 0
    }

    /// Ends everything at once (shutdown, reload): running gestures are cancelled, a pending
    /// multi-tap is released unreported, undecided input is released.
    mutating func abandon(at t: Instant, emit: (EngineOutput) -> Void) {
        if sequence.isPending {
            for id in sequence.touchIDs { emit(.touch(id: id, .release)) }
            sequence.touchIDs.removeAll(keepingCapacity: true)
            sequence.count = 0
        }
        guard active else { return }
        if !lifting { beginLifting(at: t) }
        cancelRunning(at: t, emit: emit)
        finish()
        if !claimed { decide(.release, emit: emit) }
        active = false
    }

    // MARK: - Diagnostics

    /// The recognizers' states, in `GestureKind.allCases` order (`idle` when no group is active).
    var states: [String] {
        guard active else { return Array(repeating: "idle", count: 6) }
        return [tap, longPress, swipe, pan, pinch, rotate].map { settled ? "\($0)" : "settling" }
    }

    // MARK: - Ownership and reports

    private mutating func decide(_ ownership: Ownership, emit: (EngineOutput) -> Void) {
        if ownership == .release && claimed {
            // Claimed before a gesture won (`claim_on_second_finger`): the touches stay the
            // bridge's; only the recognizing is over.
            finished = true
            return
        }
        switch device {
        case .touchscreen:
            for id in undecided { emit(.touch(id: id, ownership)) }
            undecided.removeAll(keepingCapacity: true)
        case .pointer:
            if inputUndecided { emit(.pointer(button: button, ownership)) }
        case .touchpad:
            if inputUndecided { emit(.touchpad(ownership)) }
        }
        inputUndecided = false
        if ownership == .claim {
            claimed = true
        } else {
            releasedInput = true
            finished = true
        }
    }

    private func report(_ gesture: GestureKind, _ phase: Phase, at t: Instant, _ m: Measures, firing: Int?) -> GestureReport {
        var rep = GestureReport(
            time: t, gesture: gesture, phase: phase, fingers: fingers, device: device,
            position: m.centroid, app: app.name, appClass: app.className, firing: firing)
        switch gesture {
        case .swipe:
            rep.edge = edge
        case .pan:
            rep.edge = edge
            rep.translation = m.translation
            rep.velocity = phase == .ended || phase == .cancelled ? m.velocity : velocity.velocity(at: t)
        case .pinch:
            rep.scale = m.scale
        case .rotate:
            rep.angle = m.angle
        case .tap, .longPress:
            break
        }
        return rep
    }
}
