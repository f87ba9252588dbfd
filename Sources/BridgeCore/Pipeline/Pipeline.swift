public import GestureConfig
public import GestureEngine

/// What the pipeline tells its observer: each gesture phase with the binding that fired, an
/// input passed on to the application, or an action that failed.
public enum PipelineEvent: Sendable {
    /// A gesture phase. `binding` is the binding that fired at it (and was performed, unless
    /// the pipeline has no performer: dry-run and replay). `release`: on the `ended` or
    /// `cancelled` phase of a gesture that held keys, their names joined by `+` in the order
    /// they went down (docs/config.md).
    case phase(GestureReport, binding: Binding?, release: String?)
    /// Input the bridge gave back to the application (a click that was not a gesture, touches
    /// no binding could use), and when. Observed after the phase it came with, when it came
    /// with one: a recognized gesture no binding wanted is reported, then its input goes back
    /// (the arbiter had it first).
    case passedOn(OwnershipDecision, at: Instant)
    /// Input a bound gesture took (it no longer reaches the application), and when.
    case claimed(OwnershipDecision, at: Instant)
    /// The performer failed to perform one of a binding's actions (or to press a key of its
    /// `hold`, as a `key` action): the binding's later actions were not performed.
    case actionFailed(Binding, Action, ActionError)
    /// A gesture phase whose binding would have fired, skipped because the screen is locked
    /// (see ``ScreenLockGate``): nothing was performed.
    case skipped(GestureReport, binding: Binding, ScreenLock)
    /// A recognizer changed state (only with ``Pipeline/tracesTransitions``).
    case transition(Transition)
    /// The engine hit an impossible transition (a bug in gesture-bridge), for `--verbose`.
    case engineBug(EngineBug)
    /// A step of the path an undecided pointer or touchscreen gesture draws (only with
    /// ``Pipeline/tracesPaths``), for an observer that draws a trail (see ``PathEvent``).
    case path(PathEvent)
}

/// The one path from input to actions, shared by the live daemon, `--dry-run` and `replay`:
/// input events → ``Engine`` → bindings → performer, with ownership decisions to the arbiter.
///
/// Dry-run and replay pass no performer and no arbiter: the same recognition and the same
/// binding choice happen, only nothing is injected or taken.
///
/// ```swift
/// let pipeline = Pipeline(config: config, performer: nil, arbiter: nil) { event in print(event) }
/// pipeline.handle(event)
/// ```
public final class Pipeline {
    /// The configuration in force.
    public private(set) var config: Config
    private var engine: Engine
    let performer: (any ActionPerformer)?
    private let arbiter: (any InputArbiter)?
    /// Where observations go (``observe(_:)`` adds the claims held back).
    private let observer: (PipelineEvent) -> Void
    private var lockGate = ScreenLockGate()
    /// The keys held down for running gestures (`hold`).
    var heldKeys = HeldKeys()
    /// Input given back in this call to the engine, not observed yet: it is told after the
    /// phase that comes with it (see ``dispatch(_:at:)``).
    private var passedOn: [(OwnershipDecision, Instant)] = []
    /// Input claimed in this call to the engine, not observed yet: told before the next
    /// observation, which for a gesture that fires comes after its actions went out
    /// (``Pipeline/fire(_:at:)``), so that observers' copies of the claim are not time the
    /// user waits for the action. Observers see the same order: the claim, then the phase.
    private var claims: [(OwnershipDecision, Instant)] = []
    /// Who is told the arm of the next motion (``KeyArm``); nil: nobody (no key is typed ahead).
    public weak var keyArming: (any KeyArming)? {
        didSet { noteArmableKeys() }
    }
    /// Each binding's first key, when armable (``Binding/armableKey``), for ``keyArming``.
    private var armableKeys: [KeyCombo?] = []
    /// Whether an arm was told last (so that a `nil` is told once).
    private var armed = false

    public init(
        config: Config, performer: (any ActionPerformer)?, arbiter: (any InputArbiter)?,
        observe: @escaping (PipelineEvent) -> Void
    ) {
        self.config = config
        self.engine = Engine(config.engineConfiguration)
        self.performer = performer
        self.arbiter = arbiter
        self.observer = observe
        passedOn.reserveCapacity(16)
        claims.reserveCapacity(4)
    }

    /// Whether recognizer state changes are reported (for `--verbose`).
    public var tracesTransitions: Bool {
        get { engine.tracesTransitions }
        set { engine.tracesTransitions = newValue }
    }

    /// Whether the path of each undecided pointer or touchscreen gesture is reported as it is
    /// drawn (``PipelineEvent/path(_:)``).
    public var tracesPaths: Bool {
        get { engine.tracesPaths }
        set { engine.tracesPaths = newValue }
    }

    /// When the engine next needs time to pass (a long press, a waiting single tap).
    public var nextDeadline: Instant? { engine.nextDeadline }

    /// Feeds one input event.
    public func handle(_ event: InputEvent) {
        lockGate.note(event, engineIdle: engine.nextDeadline == nil)
        engine.handle(event, emitTimed: dispatch)
        observePassedOn()
        if let keyArming { rearm(keyArming) }
    }

    /// The screen lock that keeps gestures from performing now, if any (see ``ScreenLockGate``).
    public var screenLock: ScreenLock? { lockGate.blocking }

    /// Takes the screen's lock state at `instant`, in order with the input (nil: unlocked).
    ///
    /// While locked, and for input that began while it was, bindings are not performed: each
    /// is reported as ``PipelineEvent/skipped(_:binding:_:)`` instead. When the screen locks,
    /// what is in progress is abandoned, as on a reload: undecided input goes back to the
    /// application (a locker that grabs the pointer meanwhile must not find it frozen) and
    /// running gestures are cancelled.
    ///
    /// - Parameter endedByInput: the lock ended because input woke the screen saver (see
    ///   ``ScreenLockGate/saverWakeSlack``).
    public func setScreenLock(_ lock: ScreenLock?, at instant: Instant, endedByInput: Bool = false) {
        let wasLocked = lockGate.lock != nil
        lockGate.set(lock, at: instant, endedByInput: endedByInput)
        if !wasLocked, lock != nil {
            disarm()
            engine.reconfigure(config.engineConfiguration, at: instant, emitTimed: dispatch)
            observePassedOn()
            releaseAllHeldKeys()
        }
    }

    /// Lets time run on to `instant` (timer-driven phases fire at their deadlines).
    public func advance(to instant: Instant) {
        engine.advance(to: instant, emitTimed: dispatch)
        observePassedOn()
        if let keyArming { rearm(keyArming) }
    }

    /// Switches to a new configuration at `instant`: gestures in progress are cancelled and
    /// undecided input is given back first.
    public func reload(_ config: Config, at instant: Instant) {
        disarm()
        engine.reconfigure(config.engineConfiguration, at: instant, emitTimed: dispatch)
        observePassedOn()
        releaseAllHeldKeys()
        self.config = config
        noteArmableKeys()
    }

    /// Ends everything in progress (shutdown): running gestures are cancelled, undecided
    /// input is given back, and the performer releases whatever it holds.
    public func shutdown(at instant: Instant) {
        disarm()
        engine.abandonAll(at: instant, emitTimed: dispatch)
        observePassedOn()
        releaseAllHeldKeys()
        performer?.releaseEverything()
    }

    /// Keeps each binding's armable key, for ``keyArming`` (none to keep without it).
    private func noteArmableKeys() {
        armableKeys = keyArming == nil ? [] : config.bindings.map(\.armableKey)
    }

    /// Tells ``keyArming`` the arm of the next motion, after the engine's step (``KeyArm``).
    private func rearm(_ arming: any KeyArming) {
        guard performer != nil, lockGate.blocking == nil, heldKeys.down.isEmpty, let swipe = engine.swipeArm,
            let kept = swipe.keeping({ armableKeys[$0] != nil })
        else { return disarm() }
        armed = true
        arming.arm(KeyArm(swipe: kept, keys: armableKeys))
    }

    private func disarm() {
        guard armed else { return }
        armed = false
        keyArming?.arm(nil)
    }

    /// One output of the engine, which happened at `time`.
    ///
    /// The engine gives back the input of a recognized gesture that no binding wants before it
    /// reports the gesture: the arbiter hears it at once, observers after the phase, in the
    /// order a person tells it (the swipe, then the press going back). Input given back is
    /// held until the next output that is not a transition or a path step, or the end of the
    /// call; a phase of the same device at the same time goes first.
    private func dispatch(_ output: EngineOutput, at time: Instant) {
        switch output {
        case .gesture(let report):
            if !passedOn.allSatisfy({ $0.1 == time && $0.0.device == report.device }) { observePassedOn() }
            phase(report)
            observePassedOn()
        case .touch(let id, let ownership):
            decide(.touch(id: id, ownership), ownership, at: time)
        case .pointer(let button, let ownership):
            decide(.pointer(button: button, ownership), ownership, at: time)
        case .touchpad(let ownership):
            decide(.touchpad(ownership), ownership, at: time)
        case .transition(let transition):
            observe(.transition(transition))
        case .bug(let bug):
            observePassedOn()
            observe(.engineBug(bug))
        case .path(let step):
            observe(.path(step))
        }
    }

    private func phase(_ report: GestureReport) {
        let binding = report.firing.map { config.bindings[$0] }
        if let binding, let lock = lockGate.blocking {
            observe(.skipped(report, binding: binding, lock))
            if report.phase == .ended || report.phase == .cancelled { releaseHeldKeys(of: report) }
            return
        }
        fire(binding, at: report)
    }

    private func decide(_ decision: OwnershipDecision, _ ownership: Ownership, at time: Instant) {
        if ownership == .release { lockGate.passedOn(decision) }
        arbiter?.apply(decision)
        guard ownership == .claim else { return passedOn.append((decision, time)) }
        observePassedOn()
        claims.append((decision, time))
    }

    /// Tells the observers of `event`, after the claims held back (see ``claims``).
    func observe(_ event: PipelineEvent) {
        if !claims.isEmpty { observeClaims() }
        observer(event)
    }

    private func observeClaims() {
        for (decision, time) in claims { observer(.claimed(decision, at: time)) }
        claims.removeAll(keepingCapacity: true)
    }

    /// Tells the observers of the input claimed or given back and not told yet.
    private func observePassedOn() {
        if !claims.isEmpty { observeClaims() }
        guard !passedOn.isEmpty else { return }
        for (decision, time) in passedOn { observe(.passedOn(decision, at: time)) }
        passedOn.removeAll(keepingCapacity: true)
    }
}
