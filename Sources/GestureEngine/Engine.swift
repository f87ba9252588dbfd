/// What every source's recognition reads and none changes: the configuration's thresholds and
/// triggers, the focused app, the screen. A reference, replaced whole on a change (a reload, a
/// focus or screen event): the sources get it with each event, and as a value it was about
/// 1.3 kB copied onto the stack at every call that passed it — several per event, cold
/// cache lines on the way to the key (docs/performance.md, «Latency by drag shape»).
final class EngineEnvironment: Sendable {
    let recognition: Recognition
    let app: FocusedApp
    let screen: ScreenLayout?

    init(recognition: Recognition, app: FocusedApp = FocusedApp(), screen: ScreenLayout?) {
        self.recognition = recognition
        self.app = app
        self.screen = screen
    }
}

/// The recognizer engine: input events in, gesture phases and ownership decisions out.
///
/// A value type with no clock, no timers and no I/O. Feed it events in time order with
/// ``handle(_:emit:)``; when no event comes, call ``advance(to:emit:)`` at ``nextDeadline`` so
/// timer-driven phases (long press, a single tap that waited for a double tap) happen at their
/// own deadline. The same engine serves the live daemon and `replay`.
///
/// Events at the same instant as a deadline are handled before it, so every threshold is
/// inclusive: a lift exactly at `tap_max_ms` is still a tap, a second tap exactly at
/// `multi_tap_interval_ms` still counts.
///
/// Each touchscreen touch, pointer-button press and touchpad sequence receives exactly one
/// ownership decision (``EngineOutput/touch(id:_:)`` …): `claim` when a bound gesture won it,
/// `release` the moment no binding can match it any more.
///
/// ```swift
/// var engine = Engine(EngineConfiguration(triggers: [Trigger(gesture: .swipe, fingers: 3, direction: .left)]))
/// engine.handle(InputEvent(time: Instant(milliseconds: 0), .touchBegin(id: 1, at: Point(x: 500, y: 300)))) { out in
///     print(out)
/// }
/// ```
public struct Engine: Sendable {
    /// The configuration in force.
    public private(set) var configuration: EngineConfiguration
    private var env: EngineEnvironment
    private var touchscreen: TouchscreenSource
    private var pointer: PointerSource
    private var touchpad: TouchpadSource
    private var pointerPosition = Point.zero
    private var now: Instant? = nil

    /// Whether the engine reports gesture-group and recognizer state changes as
    /// ``EngineOutput/transition(_:)``, as they happen (for `--verbose`). Off by default.
    public var tracesTransitions = false {
        didSet { forEachSource(Tracing(transitions: tracesTransitions, paths: tracesPaths), emit: { _ in }) }
    }

    /// Whether the engine reports the path each undecided pointer or touchscreen gesture draws
    /// as ``EngineOutput/path(_:)``, for an observer that draws a trail (see ``PathEvent``). Off
    /// by default: then drawing costs nothing more than the path strokes keep anyway.
    public var tracesPaths = false {
        didSet { forEachSource(Tracing(transitions: tracesTransitions, paths: tracesPaths), emit: { _ in }) }
    }

    /// Creates an engine for a configuration.
    public init(_ configuration: EngineConfiguration) {
        self.configuration = configuration
        env = EngineEnvironment(recognition: Recognition(configuration), screen: nil)
        touchscreen = TouchscreenSource(configuration)
        pointer = PointerSource(configuration)
        touchpad = TouchpadSource(configuration)
    }

    /// The earliest instant at which a timer-driven phase may happen, if any.
    ///
    /// A `mutating` getter, though it changes nothing: it reads the engine where it lies. A
    /// plain getter of an engine stored in a class (the pipeline's) ran on a copy of it — the
    /// whole engine, 5.6 kB, copied onto the stack at every event and every turn of the
    /// daemon's loop (docs/performance.md, «Latency by drag shape»).
    public var nextDeadline: Instant? {
        mutating get {
            var earliest = EarliestDeadline()
            forEachSource(reading: &earliest)
            return earliest.due
        }
    }

    /// What the pointer's next motion fires, said before it comes (``SwipeArm``): while a
    /// press is undecided and only a swipe can win it at a motion. Valid until the engine
    /// handles its next event or lets time run. A `mutating` getter for the reason
    /// ``nextDeadline`` is.
    public var swipeArm: SwipeArm? {
        mutating get {
            // Asked after every event of every device: the deadlines only while a press is on.
            guard let now, pointer.group.isActive else { return nil }
            return pointer.swipeArm(env.recognition, now: now, deadline: nextDeadline)
        }
    }

    // MARK: - The sources

    /// Goes over the sources in turn: the one place that names them all, besides the routing
    /// of events to them. Their order breaks ties between equal deadlines.
    @inline(__always)
    private mutating func forEachSource<V: SourceVisitor>(_ visitor: V, emit: (EngineOutput) -> Void) {
        var v = visitor
        v.visit(&touchscreen, env, emit: emit)
        v.visit(&pointer, env, emit: emit)
        v.visit(&touchpad, env, emit: emit)
    }

    /// ``forEachSource(_:emit:)`` for what only reads them.
    @inline(__always)
    private func forEachSource<V: SourceReader>(reading visitor: inout V) {
        visitor.read(touchscreen, env)
        visitor.read(pointer, env)
        visitor.read(touchpad, env)
    }

    /// The earliest deadline of the sources and the first source (in ``forEachSource(_:emit:)``'s
    /// order) that has it.
    private struct EarliestDeadline: SourceReader {
        var due: Instant? = nil
        var source = 0
        private var index = 0

        @inline(__always)
        mutating func read<S: GestureSource>(_ s: S, _ env: EngineEnvironment) {
            // A tie keeps the first (as ``Optional/earliest(_:)`` does).
            if let d = s.deadline(env.recognition.settings(S.device)), due.map({ d < $0 }) ?? true {
                due = d
                source = index
            }
            index += 1
        }
    }

    /// Fires the timer of the source ``EarliestDeadline`` found.
    private struct FireTimer: SourceVisitor {
        let source: Int, at: Instant, until: Instant
        private var index = 0

        init(source: Int, at: Instant, until: Instant) { (self.source, self.at, self.until) = (source, at, until) }

        mutating func visit<S: GestureSource>(_ s: inout S, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
            if index == source { s.fireTimers(at: at, until: until, env, emit: emit) }
            index += 1
        }
    }

    private struct Abandon: SourceVisitor {
        let at: Instant

        mutating func visit<S: GestureSource>(_ s: inout S, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
            s.abandon(at: at, env, emit: emit)
        }
    }

    /// New sources for a configuration, with nothing in progress.
    private struct Rebuild: SourceVisitor {
        let configuration: EngineConfiguration

        mutating func visit<S: GestureSource>(_ s: inout S, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
            s = S(configuration)
        }
    }

    /// What the groups report besides their gestures: transitions, and paths where a device
    /// has them.
    private struct Tracing: SourceVisitor {
        let transitions: Bool, paths: Bool

        mutating func visit<S: GestureSource>(_ s: inout S, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
            s.group.tracesTransitions = transitions
            s.group.tracesPath = paths && S.device.descriptor.isOnScreen
        }
    }

    /// Processes one event. Timers due before the event's time fire first. An event older than
    /// the previous one is treated as happening at the previous one's time.
    public mutating func handle(_ event: InputEvent, emit: (EngineOutput) -> Void) {
        handle(event, emitTimed: { output, _ in emit(output) })
    }

    /// ``handle(_:emit:)``, saying when each output happened: the event's time, or for what a
    /// timer fired, the timer's. A gesture phase carries its time; an ownership decision does
    /// not, and an observer that tells it in order with the phases needs it.
    public mutating func handle(_ event: InputEvent, emitTimed emit: (EngineOutput, Instant) -> Void) {
        var t = event.time
        if let now, t < now { t = now }
        fireTimers(before: t, inclusive: false, emit: emit)
        now = t
        if tracesTransitions {
            let cause = event.kind.typeName.rawValue
            dispatch(event.kind, at: t) { emit($0.causedBy(cause), t) }
        } else {
            dispatch(event.kind, at: t) { emit($0, t) }
        }
    }

    private mutating func dispatch(_ kind: InputEvent.Kind, at t: Instant, emit: (EngineOutput) -> Void) {
        switch kind {
        case .touchBegin(let id, let p, let modifiers):
            touchscreen.begin(id: id, at: p, modifiers: modifiers, time: t, env, emit: emit)
        case .touchUpdate(let id, let p):
            touchscreen.update(id: id, at: p, time: t, env, emit: emit)
        case .touchEnd(let id, let p):
            touchscreen.end(id: id, at: p, time: t, env, emit: emit)
        case .touchCancel(let id, _):
            touchscreen.cancel(id: id, time: t, env, emit: emit)
        case .buttonPress(let button, let p, let modifiers):
            pointerPosition = p
            pointer.press(button: button, at: p, modifiers: modifiers, time: t, env, emit: emit)
        case .buttonRelease(let button, let p):
            pointerPosition = p
            pointer.release(button: button, at: p, time: t, env, emit: emit)
        case .motion(let p):
            pointerPosition = p
            pointer.motion(to: p, time: t, env, emit: emit)
        case .touchpadSwipeBegin(let fingers, let p, let modifiers):
            touchpad.begin(.swipe, fingers: fingers, at: p ?? pointerPosition, modifiers: modifiers, time: t, env, emit: emit)
        case .touchpadSwipeUpdate(_, let delta):
            touchpad.swipe(by: delta, time: t, env, emit: emit)
        case .touchpadSwipeEnd(_, let cancelled):
            touchpad.end(.swipe, cancelled: cancelled, time: t, env, emit: emit)
        case .touchpadPinchBegin(let fingers, let p, let modifiers):
            touchpad.begin(.pinch, fingers: fingers, at: p ?? pointerPosition, modifiers: modifiers, time: t, env, emit: emit)
        case .touchpadPinchUpdate(_, _, let scale, let angle):
            touchpad.pinch(scale: scale, angle: angle, time: t, env, emit: emit)
        case .touchpadPinchEnd(_, let cancelled):
            touchpad.end(.pinch, cancelled: cancelled, time: t, env, emit: emit)
        case .screen(let width, let height, let monitors):
            // Monitors change rarely: the layout is built here, once, not per gesture.
            let screen = ScreenLayout(width: width, height: height, monitors: monitors)
            env = EngineEnvironment(recognition: env.recognition.laid(on: screen), app: env.app, screen: screen)
        case .focus(let app, let appClass):
            let focused = FocusedApp(name: app.isEmpty ? nil : app, className: appClass.flatMap { $0.isEmpty ? nil : $0 })
            env = EngineEnvironment(recognition: env.recognition, app: focused, screen: env.screen)
        }
    }

    /// Lets time run on to `instant`, firing every timer due at or before it.
    public mutating func advance(to instant: Instant, emit: (EngineOutput) -> Void) {
        advance(to: instant, emitTimed: { output, _ in emit(output) })
    }

    /// ``advance(to:emit:)``, saying when each output happened (each timer's own time).
    public mutating func advance(to instant: Instant, emitTimed emit: (EngineOutput, Instant) -> Void) {
        if let now, instant < now { return }
        fireTimers(before: instant, inclusive: true, emit: emit)
        now = instant
    }

    /// Ends everything in progress at `instant`: running gestures are cancelled, a pending
    /// multi-tap is dropped unreported, and all undecided input is released. For shutdown and
    /// for a configuration change.
    public mutating func abandonAll(at instant: Instant, emit: (EngineOutput) -> Void) {
        abandonAll(at: instant, emitTimed: { output, _ in emit(output) })
    }

    /// ``abandonAll(at:emit:)``, saying when each output happened.
    public mutating func abandonAll(at instant: Instant, emitTimed emit: (EngineOutput, Instant) -> Void) {
        let at = max(instant, now ?? instant)
        forEachSource(Abandon(at: at)) { emit($0, at) }
    }

    /// Replaces the configuration (a reload). What is in progress is abandoned first, at
    /// `instant`; the focused app and screen size are kept.
    public mutating func reconfigure(_ configuration: EngineConfiguration, at instant: Instant, emit: (EngineOutput) -> Void) {
        reconfigure(configuration, at: instant, emitTimed: { output, _ in emit(output) })
    }

    /// ``reconfigure(_:at:emit:)``, saying when each output happened.
    public mutating func reconfigure(_ configuration: EngineConfiguration, at instant: Instant, emitTimed emit: (EngineOutput, Instant) -> Void) {
        abandonAll(at: instant, emitTimed: emit)
        self.configuration = configuration
        env = EngineEnvironment(recognition: Recognition(configuration, screen: env.screen), app: env.app, screen: env.screen)
        // Neither emits: they replace the sources, then set what the groups trace.
        forEachSource(Rebuild(configuration: configuration)) { emit($0, instant) }
        forEachSource(Tracing(transitions: tracesTransitions, paths: tracesPaths)) { emit($0, instant) }
    }

    private mutating func fireTimers(before t: Instant, inclusive: Bool, emit: (EngineOutput, Instant) -> Void) {
        // Each round fires the earliest deadline; every firing retires or moves its timer, and
        // the bound only guards against a mistake turning into a hang.
        var rounds = 0
        while rounds < 100_000 {
            rounds += 1
            var earliest = EarliestDeadline()
            forEachSource(reading: &earliest)
            guard let due = earliest.due, inclusive ? due <= t : due < t else { return }
            // A deadline can lie before now: one counted from the first finger (a long press
            // shorter than the settle window) is only known once the fingers settled. It fires
            // now: time never runs backwards, neither here nor in what is reported.
            let at = max(due, now ?? due)
            let fire = FireTimer(source: earliest.source, at: at, until: t)
            if tracesTransitions {
                forEachSource(fire) { emit($0.causedBy("timer"), at) }
            } else {
                forEachSource(fire) { emit($0, at) }
            }
            now = at
        }
        assertionFailure("engine timers did not settle")
    }
}
