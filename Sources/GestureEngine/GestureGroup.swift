/// One gesture group: the fingers (or pointer press, or touchpad sequence) that form one
/// gesture, and the arena where the bound recognizers compete for it.
///
/// Its state is three values, each with its transitions in one place (`GroupLifecycle.swift`):
/// the ``GroupPhase`` (idle → settling → open → lifting/finished → idle), the
/// ``InputDecision`` (who owns the input) and the ``Recognizers`` (one state per gesture kind).
/// A transition the diagrams do not allow is reported as an ``EngineBug`` output (and stops a
/// debug build), never silently ignored.
///
/// Sources measure; the group decides. Every decision happens here, in one place: which
/// recognizers exist (the bound ones), which wins (``resolve(inFavorOf:at:emit:)`` rejects the
/// losers), what fires, and who owns the input. The group calls `emit` for gesture phases,
/// ownership decisions and its tap's verdict; it never performs anything itself.
///
/// A claim is emitted before the phase that fires: whoever performs the action (a right click
/// after a long press) does so once the input is the bridge's, never while the application
/// could still get it.
struct GestureGroup {
    typealias Emit = (GroupOutput) -> Void

    let device: DeviceKind
    /// The pointer button (pointer groups), for ownership decisions.
    var button = 0

    private(set) var phase = GroupPhase.idle
    private(set) var decision = InputDecision.undecided
    private(set) var recognizers = Recognizers()

    private(set) var start = Instant(milliseconds: 0)
    private(set) var fingers = 0
    private(set) var app = FocusedApp()
    private(set) var edge: Edge?
    /// The name of the monitor the group started on; `nil` while the screen is unknown.
    private(set) var monitor: String?
    private(set) var flags = ContextFlags()
    private var candidates: [Int] = []
    private var ratchet: [Double] = []
    private var steps: [Int] = []

    private(set) var measures = Measures()
    /// The values as they were before the first lift (reported by `ended`/`cancelled`).
    private var frozen = Measures()

    private var panOrigin = Point.zero
    private var pinchOrigin = 1.0
    private var rotateOrigin = 0.0
    private var longPressRepeat: (trigger: Int, next: Instant, every: Double)? = nil
    private var velocity = VelocityTracker()

    /// The path drawn so far (centroids from the first touch or press), for strokes.
    private var path = StrokePath()
    /// The shapes the bound strokes of this group name (indices into the recognizer's shapes):
    /// only they are compared at the lift.
    private var strokeShapes: [Int] = []
    private var strokeScratch = StrokeScratch()
    /// A swipe that met its thresholds while a stroke is bound: what it was then (decided at
    /// the lift).
    private var pendingSwipe: (direction: Direction, measures: Measures)? = nil

    /// Touch ids (touchscreen) whose ownership is not decided yet.
    private(set) var undecided: [Int] = []

    /// Whether an impossible transition stops a debug build (tests of the report turn it off).
    var trapsOnBug = true
    /// Whether phase and recognizer changes are emitted as transitions (`--verbose`); their
    /// cause is filled in by the engine.
    var tracesTransitions = false

    init(device: DeviceKind) {
        self.device = device
        candidates.reserveCapacity(32)
        ratchet.reserveCapacity(32)
        steps.reserveCapacity(32)
        undecided.reserveCapacity(16)
        strokeShapes.reserveCapacity(32)
    }

    /// A group is active from its first finger until its last lift or its release.
    var isActive: Bool { phase != .idle }

    /// The highest tap count this group could still make: 0 when its tap recognizer is out.
    var possibleTaps: Int { recognizers[.tap] == .possible ? flags.maxTaps : 0 }

    // MARK: - Lifecycle driven by the source

    /// Starts a group at its first finger, press or touchpad begin.
    mutating func begin(at t: Instant, app: FocusedApp, emit: Emit) {
        guard move(to: .settling, at: t, "begin", emit: emit) else { return }
        decision = .undecided
        recognizers = Recognizers()
        start = t
        fingers = 0
        self.app = app
        edge = nil
        monitor = nil
        flags = ContextFlags()
        candidates.removeAll(keepingCapacity: true)
        measures = Measures()
        frozen = Measures()
        longPressRepeat = nil
        velocity.reset()
        undecided.removeAll(keepingCapacity: true)
        path.reset()
        strokeShapes.removeAll(keepingCapacity: true)
        pendingSwipe = nil
    }

    /// Adds a touch to the input awaiting a decision.
    mutating func addTouch(_ id: Int) { undecided.append(id) }

    /// Claims the input now, before any gesture won it (`claim_on_second_finger`): nothing is
    /// released afterwards, whether or not a gesture then matches. Touches that join a claimed
    /// group are claimed by the next call.
    mutating func claimEarly(at t: Instant, emit: Emit) {
        guard isActive else { return bug("claim_on_second_finger", at: t, emit: emit) }
        decide(.claim, at: t, emit: emit)
    }

    /// Fixes the finger count: the settle window closed, or the gesture had to be decided
    /// sooner. Finds the bound triggers that apply; when none does, the input is released.
    mutating func settle(
        at t: Instant, fingers: Int, startCentroid: Point, screen: ScreenLayout?,
        sequence: TouchpadSequence? = nil, evaluateNow: Bool = true, _ r: Recognition, emit: Emit
    ) {
        guard move(to: .open, at: t, "settle", emit: emit) else { return }
        self.fingers = fingers
        // The gesture starts on a monitor (a touchpad's: the one under the pointer); its edges
        // are that monitor's sides. No screen known: no monitor, no edge.
        if let screen {
            let on = screen.monitors[screen.monitorIndex(at: startCentroid)]
            monitor = on.name
            edge = device.descriptor.isOnScreen ? Geometry.edge(of: startCentroid, on: on, margin: r.settings(device).edgePx) : nil
        } else {
            monitor = nil
            edge = nil
        }
        flags = ContextFlags.collect(
            r, device: device, fingers: fingers, app: app, edge: edge, monitor: monitor, into: &candidates)
        if let sequence {
            // A touchpad sequence makes only the gestures it carries.
            for kind in GestureKind.allCases where kind.descriptor.touchpadSequence != sequence { flags.remove(kind) }
        }
        ratchet.removeAll(keepingCapacity: true)
        steps.removeAll(keepingCapacity: true)
        for _ in candidates { ratchet.append(0); steps.append(0) }
        for i in candidates where r.triggers[i].gesture == .stroke {
            let shape = r.shapeIndex[i]
            if shape >= 0 && !strokeShapes.contains(shape) { strokeShapes.append(shape) }
        }
        // The recognizers a binding names come into play; the others stay out (failed).
        for kind in GestureKind.allCases where flags.contains(kind) { bringIn(kind, at: t, emit: emit) }
        if evaluateNow { evaluate(at: t, r, emit: emit) }
    }

    /// Measurements taken before the count is fixed (a finger joined): stored, not judged.
    mutating func store(_ m: Measures, at t: Instant) {
        measures = m
        velocity.record(t, m.translation)
        path.record(m.centroid)
    }

    /// Where the last finger lifted or the button was released: the path's last point.
    mutating func extendPath(to p: Point) {
        if isActive && phase != .finished { path.record(p) }
    }

    /// New measurements from the source; judged while the arena is open.
    mutating func update(at t: Instant, _ m: Measures, _ r: Recognition, emit: Emit) {
        guard isActive else { return bug("update", at: t, emit: emit) }
        measures = m
        velocity.record(t, m.translation)
        // The path counts from the first finger: while the fingers settle too.
        if phase == .settling || phase == .open { path.record(m.centroid) }
        if phase == .open { evaluate(at: t, r, emit: emit) }
    }

    /// A finger lifts: the first lift freezes the values as they were before it; nothing new
    /// begins. Later lifts, and lifts of a finished group, change nothing.
    mutating func beginLifting(at t: Instant, emit: Emit) {
        switch phase {
        case .open:
            frozen = measures
            frozen.velocity = velocity.velocity(at: t)
            move(to: .lifting, at: t, "lift", emit: emit)
        case .lifting, .finished:
            break
        case .idle, .settling:
            bug("lift", at: t, emit: emit)
        }
    }

    /// A finger's final position counts for the tap's slop, not for the frozen values.
    mutating func noteWander(_ wander: Double) {
        measures.wander = max(measures.wander, wander)
    }

    /// The last finger lifted (or the press was released, or the touchpad gesture ended):
    /// running gestures end (or are cancelled), a tap completes or fails, undecided input is
    /// released, and the group is idle again.
    mutating func end(at t: Instant, cancelled: Bool, _ r: Recognition, emit: Emit) {
        guard isActive else { return bug(cancelled ? "cancelled end" : "end", at: t, emit: emit) }
        if phase == .open { beginLifting(at: t, emit: emit) }
        if cancelled {
            cancelRunning(at: t, emit: emit)
        } else {
            endRunning(at: t, r, emit: emit)
        }
        if recognizers[.tap] == .possible
            && t - start <= Interval(milliseconds: r.settings(device).tapMaxMs)
            && measures.wander <= r.settings(device).slopPx
        {
            completeTap(at: t, emit: emit)
        } else {
            fail(.tap, at: t, emit: emit)
        }
        if !cancelled { decideAtLift(at: t, r, emit: emit) }
        if decision == .undecided { decide(.release, at: t, emit: emit) }
        move(to: .idle, at: t, "end", emit: emit)
    }

    /// A finger landed after the count was fixed: what is pending is cancelled, a running
    /// continuous gesture ends (with the values from before the landing). A finished group has
    /// nothing left to spoil.
    mutating func spoil(at t: Instant, _ r: Recognition, emit: Emit) {
        switch phase {
        case .open, .lifting: break
        case .finished: return
        case .idle, .settling: return bug("late finger", at: t, emit: emit)
        }
        if phase == .open { beginLifting(at: t, emit: emit) }
        endRunning(at: t, r, emit: emit)
        finishRecognizing(at: t, "late finger", emit: emit)
        if decision == .undecided { decide(.release, at: t, emit: emit) }
    }

    /// A touch was cancelled by the server: running gestures are cancelled, nothing fires.
    mutating func cancel(at t: Instant, emit: Emit) {
        switch phase {
        case .open, .lifting: break
        case .finished: return
        case .idle, .settling: return bug("touch cancel", at: t, emit: emit)
        }
        if phase == .open { beginLifting(at: t, emit: emit) }
        cancelRunning(at: t, emit: emit)
        finishRecognizing(at: t, "touch cancel", emit: emit)
        if decision == .undecided { decide(.release, at: t, emit: emit) }
    }

    /// Drops the group: its input was released and forgotten, or its last finger left after a
    /// cancel.
    mutating func deactivate(at t: Instant, emit: Emit) {
        move(to: .idle, at: t, "drop", emit: emit)
    }

    /// Ends everything at once (shutdown, reload): running gestures are cancelled, undecided
    /// input is released. Nothing happens to an idle group.
    mutating func abandon(at t: Instant, emit: Emit) {
        guard isActive else { return }
        if phase == .open { beginLifting(at: t, emit: emit) }
        cancelRunning(at: t, emit: emit)
        resolve(inFavorOf: nil, at: t, emit: emit)
        if decision == .undecided { decide(.release, at: t, emit: emit) }
        move(to: .idle, at: t, "abandon", emit: emit)
    }

    // MARK: - Timers

    /// The earliest deadline of this group: only an open arena has timers.
    @inline(__always) func nextDeadline(_ s: RecognizerSettings) -> Instant? {
        guard phase == .open else { return nil }
        var d: Instant? = nil
        if recognizers[.tap] == .possible { d = d.earliest(start + Interval(milliseconds: s.tapMaxMs)) }
        if recognizers[.swipe] == .possible { d = d.earliest(start + Interval(milliseconds: s.swipeWindowMs)) }
        switch recognizers[.longPress] {
        case .possible: d = d.earliest(start + Interval(milliseconds: s.longPressMs))
        case .active: if let rep = longPressRepeat { d = d.earliest(rep.next) }
        case .done, .failed, .pending: break
        }
        return d
    }

    /// Fires whatever is due at `t` (a deadline reported by ``nextDeadline(_:)``), on the way to
    /// `target`, the time the engine is advancing to.
    mutating func fireTimers(at t: Instant, until target: Instant, _ r: Recognition, emit: Emit) {
        guard phase == .open else { return }
        let s = r.settings(device)
        if recognizers[.longPress] == .active, let rep = longPressRepeat, rep.next <= t {
            emit(.engine(.gesture(report(.longPress, .changed, at: rep.next, measures, firing: rep.trigger))))
            var next = rep.next + Interval(milliseconds: rep.every)
            guard next > rep.next else {
                // The interval is below the clock's resolution this far out: no more repeats.
                longPressRepeat = nil
                return
            }
            // At most `maxStepsPerEvent` repeats for one event or advance: a backlog beyond that
            // (a daemon that was stopped, an absurd timestamp) is skipped up to the last ones.
            let backlog = ((target - next).milliseconds / rep.every).rounded(.down) + 1
            if backlog >= Double(Self.maxStepsPerEvent) {
                next = next + Interval(milliseconds: (backlog - Double(Self.maxStepsPerEvent - 1)) * rep.every)
            }
            longPressRepeat = (rep.trigger, next, rep.every)
            return
        }
        var ruledOut = false
        if recognizers[.tap] == .possible && start + Interval(milliseconds: s.tapMaxMs) <= t {
            fail(.tap, at: t, emit: emit)
            ruledOut = true
        }
        if recognizers[.swipe] == .possible && start + Interval(milliseconds: s.swipeWindowMs) <= t {
            fail(.swipe, at: t, emit: emit)
            ruledOut = true
        }
        if recognizers[.longPress] == .possible && start + Interval(milliseconds: s.longPressMs) <= t {
            // Nothing else can begin once a long press has: no evaluation after it. It begins at
            // its time, or when the fingers settled if that was later (`t`).
            beginLongPress(at: max(start + Interval(milliseconds: s.longPressMs), t), r, emit: emit)
            return
        }
        if ruledOut { evaluate(at: t, r, emit: emit) }
    }

    // MARK: - The arena

    /// Decides what the current measures make of the group. Only called while the arena is open.
    private mutating func evaluate(at t: Instant, _ r: Recognition, emit: Emit) {
        guard phase == .open else { return }
        let s = r.settings(device)
        let m = measures

        if m.wander > s.slopPx {
            fail(.tap, at: t, emit: emit)
            fail(.longPress, at: t, emit: emit)
        }

        // A running continuous gesture owns the group.
        if recognizers[.longPress] == .active {
            emit(.engine(.gesture(report(.longPress, .changed, at: t, m, firing: nil))))
            return
        }
        if recognizers[.pan] == .active {
            var budget = Self.maxStepsPerEvent
            emitChanged(.pan, at: t, r, budget: &budget, emit: emit)
            return
        }
        if recognizers[.pinch] == .active || recognizers[.rotate] == .active {
            if recognizers[.pinch] == .possible && reaches(abs(m.scale - 1), s.pinchMinScale) { beginPinch(at: t, r, emit: emit) }
            if recognizers[.rotate] == .possible && reaches(abs(m.angle), s.rotateMinDegrees) { beginRotate(at: t, r, emit: emit) }
            // Pinch and rotate running together share one event's budget of steps.
            var budget = Self.maxStepsPerEvent
            if recognizers[.pinch] == .active { emitChanged(.pinch, at: t, r, budget: &budget, emit: emit) }
            if recognizers[.rotate] == .active { emitChanged(.rotate, at: t, r, budget: &budget, emit: emit) }
            return
        }

        let distance = m.translation.length
        if recognizers[.swipe] == .possible {
            let elapsed = (t - start).milliseconds
            if elapsed > s.swipeWindowMs {
                fail(.swipe, at: t, emit: emit)
            } else if reaches(distance, s.swipeMinPx) {
                if elapsed <= 0 || reaches(distance / elapsed, s.swipeMinVelocity) {
                    guard recognizers[.stroke] == .possible else {
                        recognizeSwipe(at: t, r, emit: emit)
                        return
                    }
                    // A stroke is bound: the swipe is decided at the lift, as it is now.
                    pendingSwipe = (Geometry.direction(of: m.translation, diagonals: flags.swipeDiagonals), m)
                    set(.swipe, .pending, at: t, emit: emit)
                    fail(.tap, at: t, emit: emit)
                    fail(.longPress, at: t, emit: emit)
                    return
                }
                fail(.swipe, at: t, emit: emit)
            }
        }

        let pinchNow = recognizers[.pinch] == .possible && reaches(abs(m.scale - 1), s.pinchMinScale)
        let rotateNow = recognizers[.rotate] == .possible && reaches(abs(m.angle), s.rotateMinDegrees)
        if pinchNow || rotateNow {
            if pinchNow { beginPinch(at: t, r, emit: emit) }
            if rotateNow { beginRotate(at: t, r, emit: emit) }
            return
        }

        if recognizers[.pan] == .possible && recognizers[.swipe] != .possible && distance > s.slopPx
            && (recognizers[.pinch] != .possible && recognizers[.rotate] != .possible || distance >= m.differential)
        {
            beginPan(at: t, r, emit: emit)
            return
        }

        if decision != .claimed && !recognizers.anyPossible {
            // No bound gesture can win the input any more: it goes back at once.
            finishRecognizing(at: t, "no binding can win", emit: emit)
            decide(.release, at: t, emit: emit)
        }
    }

    /// Whether a measured value reaches a threshold (inclusively, see ``RepeatRatchet/reaches(_:_:)``).
    func reaches(_ value: Double, _ threshold: Double) -> Bool {
        RepeatRatchet.reaches(value, threshold)
    }

    /// The one place losers are rejected (Flutter's `_resolveInFavorOf`): `winner` won the
    /// group, and every recognizer that could still win and cannot run beside it fails.
    /// `nil`: nobody won and nothing more can be recognized — everything still possible fails.
    mutating func resolve(inFavorOf winner: GestureKind?, at t: Instant, emit: Emit) {
        for kind in GestureKind.allCases where kind != winner {
            if let winner, Recognizers.coexist(kind, winner) { continue }
            fail(kind, at: t, emit: emit)
        }
    }

    /// A recognizer that could still win is ruled out. A failing tap tells the source, which
    /// decides a multi-tap that waited for this group.
    private mutating func fail(_ kind: GestureKind, at t: Instant, emit: Emit) {
        guard recognizers[kind].canStillWin else { return }
        set(kind, .failed, at: t, emit: emit)
        if kind == .tap { emit(.tapFailed(at: t)) }
    }

    /// Nothing more can be recognized: what could still win fails, and the group only waits
    /// for its input to end.
    private mutating func finishRecognizing(at t: Instant, _ cause: StaticString, emit: Emit) {
        resolve(inFavorOf: nil, at: t, emit: emit)
        if phase != .finished { move(to: .finished, at: t, cause, emit: emit) }
    }

    // MARK: - Taps

    /// The group was a tap: its touches go to the multi-tap sequence, which fires it now or
    /// waits for one more when a higher count is bound.
    private mutating func completeTap(at t: Instant, emit: Emit) {
        set(.tap, .done, at: t, emit: emit)
        decision = .handedToTaps
        emit(.tapCompleted(CompletedTap(
            time: t, fingers: fingers, position: measures.centroid - measures.translation, app: app,
            monitor: monitor, touches: undecided, maxTaps: flags.maxTaps)))
        undecided.removeAll(keepingCapacity: true)
        finishRecognizing(at: t, "tap", emit: emit)
    }

    // MARK: - Ownership

    /// Decides who owns the group's input and tells the arbiter. A release after an early
    /// claim changes nothing: the input stays the bridge's, only the recognizing is over.
    mutating func decide(_ ownership: Ownership, at t: Instant, emit: Emit) {
        switch (ownership, decision) {
        case (.claim, .undecided), (.claim, .claimed):
            // Claimed again: fingers that joined an early-claimed group are claimed too.
            emitDecisions(.claim, emit: emit)
            decision = .claimed
        case (.release, .undecided):
            emitDecisions(.release, emit: emit)
            decision = .released
        case (.release, .claimed):
            break
        case (.claim, .released), (.claim, .handedToTaps), (.release, .released), (.release, .handedToTaps):
            bug("\(ownership.rawValue) of input already \(decision)", at: t, emit: emit)
        }
    }

    private mutating func emitDecisions(_ ownership: Ownership, emit: Emit) {
        switch device {
        case .touchscreen:
            for id in undecided { emit(.engine(.touch(id: id, ownership))) }
            undecided.removeAll(keepingCapacity: true)
        case .pointer:
            if decision == .undecided { emit(.engine(.pointer(button: button, ownership))) }
        case .touchpad:
            if decision == .undecided { emit(.engine(.touchpad(ownership))) }
        }
    }

    // MARK: - Transitions and bugs

    /// A recognizer a binding names comes into play at settle.
    private mutating func bringIn(_ kind: GestureKind, at t: Instant, emit: Emit) {
        recognizers[kind] = .possible
        if tracesTransitions {
            emit(.engine(.transition(Transition(time: t, device: device, gesture: kind, from: "idle", to: "possible", cause: ""))))
        }
    }

    /// Every recognizer state change goes through here, so `--verbose` sees each as it happens.
    private mutating func set(_ kind: GestureKind, _ state: RecognizerState, at t: Instant, emit: Emit) {
        let old = recognizers[kind]
        recognizers[kind] = state
        if tracesTransitions && old != state {
            emit(.engine(.transition(Transition(
                time: t, device: device, gesture: kind, from: old.description, to: state.description, cause: ""))))
        }
    }

    /// Moves to `next` if the lifecycle allows it; anything else is reported as a bug and the
    /// group stays where it is.
    @discardableResult
    private mutating func move(to next: GroupPhase, at t: Instant, _ cause: StaticString, emit: Emit) -> Bool {
        guard phase.canMove(to: next) else {
            bug("\(cause): \(phase) → \(next) is not a transition", at: t, emit: emit)
            return false
        }
        if tracesTransitions {
            emit(.engine(.transition(Transition(time: t, device: device, gesture: nil, from: phase.description, to: next.description, cause: ""))))
        }
        phase = next
        return true
    }

    /// Reports an impossible transition: an output for `--verbose`, and a stop in debug builds.
    private func bug(_ message: @autoclosure () -> String, at t: Instant, emit: Emit) {
        let what = "\(message()) (phase \(phase), input \(decision))"
        emit(.engine(.bug(EngineBug(time: t, device: device, message: what))))
        if trapsOnBug { assertionFailure("\(device.rawValue) gesture group: \(what)") }
    }
}

extension GestureGroup {
    // MARK: - Recognitions: a winner begins or is recognized, after the resolver rejected the losers

    /// A swipe wins: now, as its thresholds are met, or at the lift with what it was then
    /// (`pending`, when a stroke was bound and did not match).
    private mutating func recognizeSwipe(at t: Instant, _ r: Recognition, pending: (direction: Direction, measures: Measures)? = nil, emit: Emit) {
        resolve(inFavorOf: .swipe, at: t, emit: emit)
        set(.swipe, .done, at: t, emit: emit)
        let m = pending?.measures ?? measures
        let direction = pending?.direction ?? Geometry.direction(of: m.translation, diagonals: flags.swipeDiagonals)
        let firing = r.bestFiring(among: candidates, gesture: .swipe, direction: direction, on: nil)
        var rep = report(.swipe, .recognized, at: t, m, firing: firing)
        rep.direction = direction
        finishRecognizing(at: t, "swipe", emit: emit)
        // Ownership first: the input is the bridge's before the bound action happens.
        decide(firing != nil ? .claim : .release, at: t, emit: emit)
        emit(.engine(.gesture(rep)))
    }

    /// At the last lift of a group where a stroke is bound: the path is compared with the bound
    /// shapes, and the best fires if it scores at least `stroke_min_score` and the path is at
    /// least `stroke_min_px` across; otherwise a swipe that met its thresholds while moving is
    /// recognized now, as it was then.
    private mutating func decideAtLift(at t: Instant, _ r: Recognition, emit: Emit) {
        if recognizers[.stroke] == .possible {
            let s = r.settings(device)
            path.finish()
            let box = path.bounds
            if box.diagonal >= s.strokeMinPx,
                let match = r.strokes.match(path.points, among: strokeShapes, scratch: &strokeScratch),
                match.score >= s.strokeMinScore
            {
                return recognizeStroke(match, bounds: box, at: t, r, emit: emit)
            }
            fail(.stroke, at: t, emit: emit)
        }
        if recognizers[.swipe] == .pending, let pending = pendingSwipe {
            recognizeSwipe(at: t, r, pending: pending, emit: emit)
        }
    }

    private mutating func recognizeStroke(_ match: StrokeMatch, bounds: PathBounds, at t: Instant, _ r: Recognition, emit: Emit) {
        resolve(inFavorOf: .stroke, at: t, emit: emit)
        set(.stroke, .done, at: t, emit: emit)
        let firing = r.bestFiring(among: candidates, gesture: .stroke, direction: nil, on: nil, shape: match.shape)
        var m = measures
        m.centroid = bounds.centre
        var rep = report(.stroke, .recognized, at: t, m, firing: firing)
        rep.shape = r.strokes.shapes[match.shape].name
        rep.score = match.score.finiteOrLimited
        finishRecognizing(at: t, "stroke", emit: emit)
        decide(firing != nil ? .claim : .release, at: t, emit: emit)
        emit(.engine(.gesture(rep)))
    }

    private mutating func beginLongPress(at t: Instant, _ r: Recognition, emit: Emit) {
        resolve(inFavorOf: .longPress, at: t, emit: emit)
        set(.longPress, .active, at: t, emit: emit)
        let firing = r.bestFiring(among: candidates, gesture: .longPress, direction: nil, on: .begin)
        decide(.claim, at: t, emit: emit)
        emit(.engine(.gesture(report(.longPress, .began, at: t, measures, firing: firing))))
        if let firing, let every = r.triggers[firing].repeatEvery, every > 0 {
            longPressRepeat = (firing, t + Interval(milliseconds: every), every)
        }
    }

    private mutating func beginPan(at t: Instant, _ r: Recognition, emit: Emit) {
        panOrigin = measures.translation
        let direction = Geometry.direction(of: measures.translation, diagonals: flags.panDiagonals)
        beginContinuous(.pan, direction: direction, at: t, r, emit: emit)
    }

    private mutating func beginPinch(at t: Instant, _ r: Recognition, emit: Emit) {
        pinchOrigin = measures.scale
        beginContinuous(.pinch, direction: measures.scale < 1 ? .in : .out, at: t, r, emit: emit)
    }

    private mutating func beginRotate(at t: Instant, _ r: Recognition, emit: Emit) {
        rotateOrigin = measures.angle
        beginContinuous(.rotate, direction: measures.angle > 0 ? .cw : .ccw, at: t, r, emit: emit)
    }

    private mutating func beginContinuous(
        _ gesture: GestureKind, direction: Direction, at t: Instant, _ r: Recognition, emit: Emit
    ) {
        resolve(inFavorOf: gesture, at: t, emit: emit)
        set(gesture, .active, at: t, emit: emit)
        for k in candidates.indices where r.triggers[candidates[k]].gesture == gesture { ratchet[k] = 0 }
        let firing = r.bestFiring(among: candidates, gesture: gesture, direction: direction, on: .begin)
        decide(.claim, at: t, emit: emit)
        emit(.engine(.gesture(report(gesture, .began, at: t, measures, firing: firing))))
    }

    // MARK: - Continuous gestures: changes, end, cancel

    /// A `changed` phase, firing the repeat steps crossed since the last firing.
    private mutating func emitChanged(_ gesture: GestureKind, at t: Instant, _ r: Recognition, budget: inout Int, emit: Emit) {
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
            case .tap, .swipe, .longPress, .stroke:
                continue
            }
            let n = RepeatRatchet.advance(&ratchet[k], to: progress, every: every, twoSided: twoSided, cap: budget)
            steps[k] = n
            if n > 0 { bestSpecificity = max(bestSpecificity, r.triggers[ti].specificity) }
        }
        var fired = false
        if bestSpecificity >= 0 {
            var most = 0
            for k in candidates.indices where r.triggers[candidates[k]].specificity == bestSpecificity { most = max(most, steps[k]) }
            budget -= most
            for k in candidates.indices where steps[k] > 0 && r.triggers[candidates[k]].specificity == bestSpecificity {
                for _ in 0..<steps[k] {
                    emit(.engine(.gesture(report(gesture, .changed, at: t, m, firing: candidates[k]))))
                    fired = true
                }
            }
        }
        if !fired { emit(.engine(.gesture(report(gesture, .changed, at: t, m, firing: nil)))) }
    }

    /// One event that crosses several repeat steps fires once per step, at most this often (pinch
    /// and rotate running together share it).
    static let maxStepsPerEvent = 32


    /// Ends running continuous gestures normally, firing their `on = "end"` bindings.
    private mutating func endRunning(at t: Instant, _ r: Recognition, emit: Emit) {
        let m = frozen
        if recognizers[.longPress] == .active {
            set(.longPress, .done, at: t, emit: emit)
            let firing = r.bestFiring(among: candidates, gesture: .longPress, direction: nil, on: .end)
            emit(.engine(.gesture(report(.longPress, .ended, at: t, m, firing: firing))))
        }
        if recognizers[.pan] == .active {
            set(.pan, .done, at: t, emit: emit)
            let direction = Geometry.direction(of: m.translation, diagonals: flags.panDiagonals)
            let firing = r.bestFiring(among: candidates, gesture: .pan, direction: direction, on: .end)
            emit(.engine(.gesture(report(.pan, .ended, at: t, m, firing: firing))))
        }
        if recognizers[.pinch] == .active {
            set(.pinch, .done, at: t, emit: emit)
            let direction: Direction = m.scale < 1 ? .in : .out
            let firing = r.bestFiring(among: candidates, gesture: .pinch, direction: direction, on: .end)
            var rep = report(.pinch, .ended, at: t, m, firing: firing)
            rep.direction = direction
            emit(.engine(.gesture(rep)))
        }
        if recognizers[.rotate] == .active {
            set(.rotate, .done, at: t, emit: emit)
            let direction: Direction = m.angle > 0 ? .cw : .ccw
            let firing = r.bestFiring(among: candidates, gesture: .rotate, direction: direction, on: .end)
            var rep = report(.rotate, .ended, at: t, m, firing: firing)
            rep.direction = direction
            emit(.engine(.gesture(rep)))
        }
    }

    /// Cancels running continuous gestures: nothing fires.
    private mutating func cancelRunning(at t: Instant, emit: Emit) {
        let m = frozen
        for gesture in [GestureKind.longPress, .pan, .pinch, .rotate] where recognizers[gesture] == .active {
            set(gesture, .done, at: t, emit: emit)
            emit(.engine(.gesture(report(gesture, .cancelled, at: t, m, firing: nil))))
        }
    }

    // MARK: - Reports

    /// A report of `gesture`; its numbers are finite whatever the input (see ``Point/finite``).
    private func report(_ gesture: GestureKind, _ phase: Phase, at t: Instant, _ m: Measures, firing: Int?) -> GestureReport {
        var rep = GestureReport(
            time: t, gesture: gesture, phase: phase, fingers: fingers, device: device,
            position: m.centroid.finite, monitor: monitor, app: app.name, appClass: app.className, firing: firing)
        switch gesture {
        case .swipe:
            rep.edge = edge
        case .pan:
            rep.edge = edge
            rep.translation = m.translation.finite
            rep.velocity = (phase == .ended || phase == .cancelled ? m.velocity : velocity.velocity(at: t)).finite
        case .pinch:
            rep.scale = m.scale.finiteOrLimited
        case .rotate:
            rep.angle = m.angle.finiteOrLimited
        case .tap, .longPress, .stroke:
            break
        }
        return rep
    }
}
