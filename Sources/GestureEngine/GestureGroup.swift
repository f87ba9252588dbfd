/// One gesture group: the fingers (or pointer press, or touchpad sequence) that form one
/// gesture, and the arena where the bound recognizers compete for it.
///
/// The arena only: it keeps the group's ``GroupPhase`` (idle → settling → open →
/// lifting/finished → idle) and its ``InputDecision`` (who owns the input), each with its
/// transitions in one place (`GroupLifecycle.swift`), and the group's measures. The
/// recognizers (`Recognizers/`, one value per gesture kind) keep their own state, deadline
/// and what they saw, and give verdicts; the arena asks them in its order, rejects the losers
/// (``resolve(inFavorOf:at:emit:)``), lets the winner win (one step for every winner) and
/// reports. A transition a diagram does not allow — the group's or a recognizer's — is
/// reported as an ``EngineBug`` output (and stops a debug build), never silently ignored.
///
/// Sources measure; the group decides. Every decision happens here, in one place: which
/// recognizers exist (the bound ones), which wins, what fires, and who owns the input. The
/// group calls `emit` for gesture phases, ownership decisions and its tap's verdict; it never
/// performs anything itself.
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
    /// The modifier keys held when the group began.
    private(set) var modifiers = Modifiers()
    private(set) var edge: Edge?
    /// The name of the monitor the group started on; `nil` while the screen is unknown.
    private(set) var monitor: String?
    /// The thresholds of the group's device on the monitor it started on, in its pixels
    /// (``Recognition/settings(_:onMonitor:)``): fixed at settle.
    private(set) var settings = RecognizerSettings()
    private(set) var flags = ContextFlags()
    /// The triggers that apply to the group (indices into the configuration's).
    private(set) var candidates: [Int] = []
    /// For each candidate, where its last repeat step fired (``RepeatRatchet``), and how many
    /// steps it fires now.
    private var ratchet: [Double] = []
    private var steps: [Int] = []

    private(set) var measures = Measures()
    /// The values as they were before the first lift (reported by `ended`/`cancelled`).
    private var frozen = Measures()
    private var velocity = VelocityTracker()
    /// The path drawn so far (centroids from the first touch or press), for strokes.
    private var path = StrokePath()
    /// Whether the path is reported as it is drawn (``Engine/tracesPaths``, devices on the
    /// screen only).
    var tracesPath = false
    /// Where the reported path is, and its latest point.
    private var pathTrace = PathTrace.notBegun
    private var lastDrawn = Point.zero
    /// Why the stroke failed at the lift, for the path's end (only while the path is traced).
    private var strokeMiss: StrokeMiss? = nil

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
    }

    /// A group is active from its first finger until its last lift or its release.
    var isActive: Bool { phase != .idle }

    /// The highest tap count this group could still make: 0 when its tap recognizer is out.
    var possibleTaps: Int { recognizers.tap.possibleTaps }

    // MARK: - Lifecycle driven by the source

    /// Starts a group at its first finger, press or touchpad begin, with the modifier keys held
    /// then.
    mutating func begin(at t: Instant, app: FocusedApp, modifiers: Modifiers, emit: Emit) {
        guard move(to: .settling, at: t, "begin", emit: emit) else { return }
        decision = .undecided
        recognizers.reset()
        start = t
        fingers = 0
        self.app = app
        self.modifiers = modifiers
        edge = nil
        monitor = nil
        flags = ContextFlags()
        candidates.removeAll(keepingCapacity: true)
        measures = Measures()
        frozen = Measures()
        velocity.reset()
        undecided.removeAll(keepingCapacity: true)
        path.reset()
        pathTrace = .notBegun
        strokeMiss = nil
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
    /// sooner. Finds the bound triggers that apply and brings their recognizers into play; when
    /// none does, the input is released. A touchpad `sequence` makes only the gestures it
    /// carries.
    mutating func settle(
        at t: Instant, fingers: Int, startCentroid: Point, screen: ScreenLayout?,
        sequence: TouchpadSequence? = nil, evaluateNow: Bool = true, _ r: Recognition, emit: Emit
    ) {
        guard move(to: .open, at: t, "settle", emit: emit) else { return }
        self.fingers = fingers
        // The gesture starts on a monitor (a touchpad's: the one under the pointer); its edges
        // are that monitor's sides. No screen known: no monitor, no edge.
        if let screen {
            let index = screen.monitorIndex(at: startCentroid)
            let on = screen.monitors[index]
            settings = r.settings(device, onMonitor: index)
            monitor = on.name
            edge = device.descriptor.isOnScreen ? Geometry.edge(of: startCentroid, on: on, margin: settings.edgePx) : nil
        } else {
            settings = r.settings(device, onMonitor: -1)
            monitor = nil
            edge = nil
        }
        flags = ContextFlags.collect(
            r, device: device, fingers: fingers, app: app, edge: edge, monitor: monitor, modifiers: modifiers, button: button,
            into: &candidates)
        if let sequence {
            for kind in GestureKind.allCases where kind.descriptor.touchpadSequence != sequence { flags.remove(kind) }
        }
        ratchet.removeAll(keepingCapacity: true)
        steps.removeAll(keepingCapacity: true)
        for _ in candidates { ratchet.append(0); steps.append(0) }
        let s = settings
        recognizers.tap.prepare(start: start, maxTaps: flags.maxTaps, s)
        recognizers.longPress.prepare(start: start, s)
        recognizers.swipe.prepare(start: start, diagonals: flags.swipeDiagonals, s)
        recognizers.pan.prepare(diagonals: flags.panDiagonals)
        recognizers.stroke.prepare(candidates: candidates, r)
        // The recognizers a binding names come into play; the others stay out (failed).
        for kind in GestureKind.allCases where flags.contains(kind) { bringIn(kind, at: t, emit: emit) }
        if evaluateNow { evaluate(at: t, r, emit: emit) }
    }

    /// Measurements taken before the count is fixed (a finger joined, at `t`): stored, not
    /// judged; their translation counts at `sampledAt` for the velocity.
    mutating func store(_ m: Measures, sampledAt: Instant, at t: Instant, emit: Emit) {
        measures = m
        velocity.record(sampledAt, m.translation)
        draw(m.centroid, at: t, emit: emit)
    }

    /// Where the last finger lifted or the button was released: the path's last point.
    mutating func extendPath(to p: Point, at t: Instant, emit: Emit) {
        if isActive && phase != .finished { draw(p, at: t, emit: emit) }
    }

    /// New measurements from the source; judged while the arena is open.
    mutating func update(at t: Instant, _ m: Measures, _ r: Recognition, emit: Emit) {
        guard isActive else { return bug("update", at: t, emit: emit) }
        measures = m
        velocity.record(t, m.translation)
        // The path counts from the first finger: while the fingers settle too.
        if phase == .settling || phase == .open { draw(m.centroid, at: t, emit: emit) }
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
        if recognizers.tap.completes(at: t, measures, settings) {
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

    /// Undecided input can wait no longer (``Engine/replayableTouchUpdates``): it is decided
    /// now, whole. A path where nothing but a stroke can still win (the finger left the slop,
    /// so no tap or long press; a swipe at most pending) is claimed, and matched at the lift as
    /// ever: a stroke is drawn with many events, and given back at its lift it would reach the
    /// application cut short anyway. Anything else undecided goes back now and nothing more is
    /// recognized. Running and claimed gestures are not affected.
    mutating func reachReplayLimit(at t: Instant, emit: Emit) {
        guard decision == .undecided, phase == .open || phase == .lifting else { return }
        if recognizers.onlyAStrokeCanWin {
            decide(.claim, at: t, emit: emit)
            return
        }
        finishRecognizing(at: t, "replay limit", emit: emit)
        decide(.release, at: t, emit: emit)
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

    /// The earliest deadline of this group: only an open arena has timers, its recognizers'.
    @inline(__always) func nextDeadline() -> Instant? {
        guard phase == .open else { return nil }
        return recognizers.tap.timer.earliest(recognizers.swipe.timer).earliest(recognizers.longPress.timer)
    }

    /// Fires whatever is due at `t` (a deadline reported by ``nextDeadline()``), on the way to
    /// `target`, the time the engine is advancing to.
    mutating func fireTimers(at t: Instant, until target: Instant, _ r: Recognition, emit: Emit) {
        guard phase == .open else { return }
        if let rep = recognizers.longPress.takeRepeat(at: t, until: target, cap: Self.maxStepsPerEvent) {
            emit(.engine(.gesture(report(.longPress, .changed, at: rep.time, measures, firing: rep.trigger))))
            return
        }
        var ruledOut = false
        if recognizers.tap.isDue(at: t) {
            fail(.tap, at: t, emit: emit)
            ruledOut = true
        }
        if recognizers.swipe.isDue(at: t) {
            fail(.swipe, at: t, emit: emit)
            ruledOut = true
        }
        if recognizers.longPress.isDue(at: t) {
            // Nothing else can begin once a long press has: no evaluation after it. It begins at
            // its time, or when the fingers settled if that was later (`t`).
            let at = max(recognizers.longPress.begins, t)
            let firing = r.bestFiring(among: candidates, gesture: .longPress, direction: nil, on: .begin)
            win(report(.longPress, .began, at: at, measures, firing: firing), at: at, emit: emit)
            recognizers.longPress.began(at: at, firing: firing, r)
            return
        }
        if ruledOut { evaluate(at: t, r, emit: emit) }
    }

    // MARK: - The arena

    /// Asks the recognizers, in the arena's order, what the current measures make of the group.
    /// Only called while the arena is open.
    private mutating func evaluate(at t: Instant, _ r: Recognition, emit: Emit) {
        guard phase == .open else { return }
        let s = settings
        let m = measures

        if recognizers.tap.evaluate(m, s) == .fail { fail(.tap, at: t, emit: emit) }
        if recognizers.longPress.evaluate(m, s) == .fail { fail(.longPress, at: t, emit: emit) }

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
            if recognizers.pinch.evaluate(m, s) == .win { beginContinuous(.pinch, at: t, r, emit: emit) }
            if recognizers.rotate.evaluate(m, s) == .win { beginContinuous(.rotate, at: t, r, emit: emit) }
            // Pinch and rotate running together share one event's budget of steps.
            var budget = Self.maxStepsPerEvent
            if recognizers[.pinch] == .active { emitChanged(.pinch, at: t, r, budget: &budget, emit: emit) }
            if recognizers[.rotate] == .active { emitChanged(.rotate, at: t, r, budget: &budget, emit: emit) }
            return
        }

        switch recognizers.swipe.evaluate(m, at: t, s) {
        case .win:
            guard recognizers[.stroke] == .possible else {
                recognizeSwipe(direction: recognizers.swipe.direction(m), m, at: t, r, emit: emit)
                return
            }
            // A stroke is bound: the swipe is decided at the lift, as it is now.
            recognizers.swipe.keep(m)
            set(.swipe, .pending, at: t, emit: emit)
            fail(.tap, at: t, emit: emit)
            fail(.longPress, at: t, emit: emit)
            return
        case .fail:
            fail(.swipe, at: t, emit: emit)
        case .undecided:
            break
        }

        let pinch = recognizers.pinch.evaluate(m, s), rotate = recognizers.rotate.evaluate(m, s)
        if pinch == .win || rotate == .win {
            if pinch == .win { beginContinuous(.pinch, at: t, r, emit: emit) }
            if rotate == .win { beginContinuous(.rotate, at: t, r, emit: emit) }
            return
        }
        // Fingers moving together: no pinch or rotation any more (a scroll goes back at once
        // when nothing else is bound). Only the touchscreen measures how its fingers move
        // relative to each other; a touchpad's pinch sequence is one already (libinput told it
        // from a scroll), with only its centre's deltas.
        if device == .touchscreen {
            if pinch == .fail { fail(.pinch, at: t, emit: emit) }
            if rotate == .fail { fail(.rotate, at: t, emit: emit) }
        }

        // A pan waits until no swipe can happen, and yields to a pinch or rotate unless the
        // fingers' common movement outweighs their relative movement.
        if recognizers.pan.evaluate(m, s) == .win && recognizers[.swipe] != .possible
            && (recognizers[.pinch] != .possible && recognizers[.rotate] != .possible || m.translation.length >= m.differential)
        {
            beginContinuous(.pan, at: t, r, emit: emit)
            return
        }

        if decision != .claimed && !recognizers.anyPossible {
            // No bound gesture can win the input any more: it goes back at once.
            finishRecognizing(at: t, "no binding can win", emit: emit)
            decide(.release, at: t, emit: emit)
        }
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

    /// The one win step, for every winner: the losers are rejected, the winner moves on (a
    /// discrete gesture is done, and nothing more can be recognized; a continuous one is
    /// active), the input is decided — claimed, except for a discrete gesture no binding fires,
    /// whose input goes back — and then the phase is reported: whoever performs its action
    /// does so once the input is the bridge's.
    private mutating func win(_ report: GestureReport, at t: Instant, emit: Emit) {
        let kind = report.gesture
        resolve(inFavorOf: kind, at: t, emit: emit)
        if kind.isContinuous {
            set(kind, .active, at: t, emit: emit)
            if !kind.descriptor.followsPath { endPath(at: t, emit: emit) }
            decide(.claim, at: t, emit: emit)
        } else {
            set(kind, .done, at: t, emit: emit)
            finishRecognizing(at: t, kind.rawValue, emit: emit)
            decide(report.firing != nil ? .claim : .release, at: t, emit: emit)
        }
        emit(.engine(.gesture(report)))
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
    private mutating func finishRecognizing(at t: Instant, _ cause: @autoclosure () -> String, emit: Emit) {
        resolve(inFavorOf: nil, at: t, emit: emit)
        if phase != .finished { move(to: .finished, at: t, cause(), emit: emit) }
    }

    // MARK: - Winners

    /// A swipe wins: now, as its thresholds are met, or at the lift with what it was then.
    private mutating func recognizeSwipe(direction: Direction, _ m: Measures, at t: Instant, _ r: Recognition, emit: Emit) {
        let firing = r.bestFiring(among: candidates, gesture: .swipe, direction: direction, on: nil)
        let base = report(.swipe, .recognized, at: t, m, firing: firing)
        win(recognizers.swipe.report(base, direction: direction, edge: edge), at: t, emit: emit)
    }

    /// A continuous gesture measured from where it begins (pan, pinch, rotate) begins with the
    /// current measures.
    private mutating func beginContinuous(_ kind: GestureKind, at t: Instant, _ r: Recognition, emit: Emit) {
        let m = measures
        recognizers.began(kind, m)
        for k in candidates.indices where r.triggers[candidates[k]].gesture == kind { ratchet[k] = 0 }
        let direction = recognizers.direction(of: kind, m)
        let firing = r.bestFiring(among: candidates, gesture: kind, direction: direction, on: .begin)
        win(report(kind, .began, at: t, m, firing: firing), at: t, emit: emit)
    }

    /// At the last lift of a group where a stroke is bound: the path is compared with the bound
    /// shapes, and the best fires if it is good enough; otherwise a swipe that met its
    /// thresholds while moving is recognized now, as it was then.
    private mutating func decideAtLift(at t: Instant, _ r: Recognition, emit: Emit) {
        if recognizers[.stroke] == .possible {
            if let (match, bounds) = recognizers.stroke.match(&path, r, settings) {
                let firing = r.bestFiring(among: candidates, gesture: .stroke, direction: nil, on: nil, shape: match.shape)
                let base = report(.stroke, .recognized, at: t, measures, firing: firing)
                return win(recognizers.stroke.report(base, match, bounds, r), at: t, emit: emit)
            }
            if tracesPath { strokeMiss = recognizers.stroke.miss }
            fail(.stroke, at: t, emit: emit)
        }
        if recognizers[.swipe] == .pending, let pending = recognizers.swipe.pending {
            recognizeSwipe(direction: pending.direction, pending.measures, at: t, r, emit: emit)
        }
    }

    // MARK: - Taps

    /// The group was a tap: its touches go to the multi-tap sequence, which fires it now or
    /// waits for one more when a higher count is bound.
    private mutating func completeTap(at t: Instant, emit: Emit) {
        set(.tap, .done, at: t, emit: emit)
        decision = .handedToTaps
        emit(.tapCompleted(CompletedTap(
            time: t, fingers: fingers, position: measures.centroid - measures.translation, app: app,
            monitor: monitor, multiTapDistancePx: settings.multiTapDistancePx, modifiers: modifiers, touches: undecided,
            maxTaps: recognizers.tap.maxTaps)))
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
            endPath(at: t, emit: emit)
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
        recognizers.set(kind, .possible)
        if tracesTransitions {
            emit(.engine(.transition(Transition(time: t, device: device, gesture: kind, from: "idle", to: "possible", cause: ""))))
        }
    }

    /// Every recognizer state change goes through here, so `--verbose` sees each as it happens;
    /// a move its diagram does not allow is reported as a bug and changes nothing.
    private mutating func set(_ kind: GestureKind, _ state: RecognizerState, at t: Instant, emit: Emit) {
        let old = recognizers[kind]
        guard recognizers.canMove(kind, to: state) else {
            return bug("\(kind.rawValue): \(old) → \(state) is not a transition", at: t, emit: emit)
        }
        recognizers.set(kind, state)
        if tracesTransitions {
            emit(.engine(.transition(Transition(
                time: t, device: device, gesture: kind, from: old.description, to: state.description, cause: ""))))
        }
    }

    /// Moves to `next` if the lifecycle allows it; anything else is reported as a bug and the
    /// group stays where it is.
    @discardableResult
    private mutating func move(to next: GroupPhase, at t: Instant, _ cause: @autoclosure () -> String, emit: Emit) -> Bool {
        guard phase.canMove(to: next) else {
            bug("\(cause()): \(phase) → \(next) is not a transition", at: t, emit: emit)
            return false
        }
        // Nothing more is recognized, or the group is over: the path is no longer drawn.
        if next == .finished || next == .idle { endPath(at: t, emit: emit) }
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

    // MARK: - The path

    /// A point of the path: kept for strokes and, when asked, reported while the gesture is
    /// undecided (or a pan runs).
    @inline(__always)
    private mutating func draw(_ p: Point, at t: Instant, emit: Emit) {
        path.record(p)
        if tracesPath { tracePath(p, at: t, emit: emit) }
    }

    private mutating func tracePath(_ p: Point, at t: Instant, emit: Emit) {
        switch pathTrace {
        case .notBegun:
            pathTrace = .drawn
            emit(.engine(.path(PathEvent(time: t, device: device, kind: .begin, point: p))))
        case .drawn:
            // The same centroid again (the fingers settled, a pinch about its centre) adds nothing.
            if p != lastDrawn { emit(.engine(.path(PathEvent(time: t, device: device, kind: .point, point: p)))) }
        case .over:
            break
        }
        lastDrawn = p
    }

    /// The gesture was decided (or given back, cancelled, or it ended): the reported path ends
    /// here, and nothing more of this group's is drawn.
    private mutating func endPath(at t: Instant, emit: Emit) {
        guard tracesPath, pathTrace != .over else { return }
        if pathTrace == .drawn {
            emit(.engine(.path(PathEvent(time: t, device: device, kind: .end, point: lastDrawn, strokeMiss: strokeMiss))))
        }
        pathTrace = .over
    }

}

extension GestureGroup {
    // MARK: - Continuous gestures: changes, end, cancel

    /// A `changed` phase, firing the repeat steps crossed since the last firing.
    private mutating func emitChanged(_ gesture: GestureKind, at t: Instant, _ r: Recognition, budget: inout Int, emit: Emit) {
        let m = measures
        var bestSpecificity = -1
        for k in candidates.indices {
            steps[k] = 0
            let ti = candidates[k]
            guard r.triggers[ti].gesture == gesture, r.triggers[ti].on == .begin, let every = r.triggers[ti].repeatEvery, every > 0,
                let (progress, twoSided) = recognizers.progress(of: gesture, toward: r.triggers[ti].direction, m)
            else { continue }
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

    /// Ends running continuous gestures normally, with the values from before the first lift,
    /// firing their `on = "end"` bindings.
    private mutating func endRunning(at t: Instant, _ r: Recognition, emit: Emit) {
        let m = frozen
        for kind in GestureKind.allCases where recognizers[kind] == .active {
            set(kind, .done, at: t, emit: emit)
            let direction = recognizers.direction(of: kind, m)
            let firing = r.bestFiring(among: candidates, gesture: kind, direction: direction, on: .end)
            emit(.engine(.gesture(report(kind, .ended, at: t, m, firing: firing))))
        }
    }

    /// Cancels running continuous gestures: nothing fires.
    private mutating func cancelRunning(at t: Instant, emit: Emit) {
        let m = frozen
        for kind in GestureKind.allCases where recognizers[kind] == .active {
            set(kind, .done, at: t, emit: emit)
            emit(.engine(.gesture(report(kind, .cancelled, at: t, m, firing: nil))))
        }
    }

    // MARK: - Reports

    /// A report of `gesture`: what every report says (when, who, where, which trigger fires),
    /// with the fields its recognizer adds; its numbers are finite whatever the input (see
    /// ``Point/finite``).
    private func report(_ gesture: GestureKind, _ phase: Phase, at t: Instant, _ m: Measures, firing: Int?) -> GestureReport {
        let rep = GestureReport(
            time: t, gesture: gesture, phase: phase, fingers: fingers, device: device,
            position: m.centroid.finite, monitor: monitor, app: app.name, appClass: app.className, firing: firing,
            modifiers: modifiers, button: device == .pointer ? button : nil)
        switch gesture {
        case .pan:
            let running = phase != .ended && phase != .cancelled
            return recognizers.pan.report(rep, m, edge: edge, velocity: running ? velocity.velocity(at: t) : m.velocity)
        case .pinch:
            return recognizers.pinch.report(rep, m)
        case .rotate:
            return recognizers.rotate.report(rep, m)
        case .tap, .longPress, .swipe, .stroke:
            // A swipe's and a stroke's fields come with their recognition.
            return rep
        }
    }
}

/// Where a group's reported path is (``Engine/tracesPaths``).
enum PathTrace: UInt8 {
    /// Nothing drawn yet.
    case notBegun
    /// Begun: each new point is reported.
    case drawn
    /// Ended (the gesture was decided), or never to begin.
    case over
}
