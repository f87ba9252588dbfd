/// One thing a source asks of its gesture group. Every source drives its group through
/// ``GestureGroup/run(_:at:_:emit:)``, so what each step does to the group is written once,
/// whichever device's input it is.
enum GroupStep {
    /// The first finger landed, the button was pressed, a touchpad sequence began: with the
    /// focused application and the modifier keys held.
    case begin(FocusedApp, Modifiers)
    /// Measurements from before the finger count is fixed (a finger joined, the press itself):
    /// stored and drawn into the path, not judged. `sampledAt`: the time its translation counts
    /// at for the velocity.
    case store(Measures, sampledAt: Instant)
    /// The finger count is fixed (see ``GestureGroup/settle(at:fingers:startCentroid:screen:sequence:evaluateNow:_:emit:)``).
    case settle(fingers: Int, landing: Point, screen: ScreenLayout?, sequence: TouchpadSequence?, evaluateNow: Bool)
    /// `claim_on_second_finger`: the input is claimed before any gesture won it.
    case claimEarly
    /// New measurements.
    case update(Measures)
    /// A finger lifted or the button was released: `wander`, how far from where it landed;
    /// `last`, whether it was the group's last; `pathEnd`, where the path ends when the group
    /// has one finger.
    case lift(wander: Double, last: Bool, pathEnd: Point?)
    /// The touchpad sequence ended (or was cancelled), or a new one began without an end.
    case end(cancelled: Bool)
    /// A finger landed after the count was fixed.
    case spoil
    /// The X server would keep no more of an undecided touch for the application
    /// (``Engine/replayableTouchUpdates``): the input is decided now.
    case replayLimit
    /// The server cancelled a touch; `last`: it was the group's last.
    case cancel(last: Bool)
    /// Timers due now, on the way to `until`.
    case timers(until: Instant)
    /// The group's input was released and forgotten.
    case drop
    /// Shutdown or reload.
    case abandon
}

extension GestureGroup {
    /// Runs one step of the group; its outputs go to `emit`.
    @inline(__always)
    mutating func run(_ step: GroupStep, at t: Instant, _ r: Recognition, emit: Emit) {
        switch step {
        case .begin(let app, let modifiers):
            begin(at: t, app: app, modifiers: modifiers, emit: emit)
        case .store(let m, let sampledAt):
            store(m, sampledAt: sampledAt, at: t, emit: emit)
        case .settle(let fingers, let landing, let screen, let sequence, let evaluateNow):
            settle(at: t, fingers: fingers, startCentroid: landing, screen: screen, sequence: sequence,
                   evaluateNow: evaluateNow, r, emit: emit)
        case .claimEarly:
            claimEarly(at: t, emit: emit)
        case .update(let m):
            update(at: t, m, r, emit: emit)
        case .lift(let wander, let last, let pathEnd):
            if let pathEnd { extendPath(to: pathEnd, at: t, emit: emit) }
            beginLifting(at: t, emit: emit)
            noteWander(wander)
            if last { end(at: t, cancelled: false, r, emit: emit) }
        case .end(let cancelled):
            end(at: t, cancelled: cancelled, r, emit: emit)
        case .spoil:
            spoil(at: t, r, emit: emit)
        case .replayLimit:
            reachReplayLimit(at: t, emit: emit)
        case .cancel(let last):
            cancel(at: t, emit: emit)
            if last && isActive { deactivate(at: t, emit: emit) }
        case .timers(let target):
            fireTimers(at: t, until: target, r, emit: emit)
        case .drop:
            deactivate(at: t, emit: emit)
        case .abandon:
            abandon(at: t, emit: emit)
        }
    }
}
