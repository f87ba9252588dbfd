/// One kind of input the engine measures: the touchscreen's touches, the pointer's trigger
/// button, the touchpad's XI 2.4 sequences. A source turns its events into the measures of its
/// one gesture group and drives that group through ``GroupStep``s; the group decides.
///
/// The engine keeps one source per device kind and goes over them with a ``SourceVisitor``
/// (``Engine``'s deadlines, timers, abandon and reload), so adding a source is adding it
/// there and routing its events to it.
protocol GestureSource {
    /// The device whose input this is.
    static var device: DeviceKind { get }
    /// Whether input the group released stays the group's until it ends (a touchpad
    /// sequence's updates go to the application, but its end still ends the group), instead of
    /// being forgotten at once.
    static var keepsReleasedInput: Bool { get }

    /// A source for a configuration, with nothing in progress.
    init(_ configuration: EngineConfiguration)

    /// Its gesture group.
    var group: GestureGroup { get set }

    /// The earliest timer of this source, if any.
    func deadline(_ s: RecognizerSettings) -> Instant?

    /// Fires what is due at `t` (a deadline it reported), on the way to `target`.
    mutating func fireTimers(at t: Instant, until target: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void)

    /// Ends everything in progress at `t` (shutdown, reload).
    mutating func abandon(at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void)

    /// Runs one step of the group, its outputs going to `emit` (and, on the touchscreen, its
    /// taps to the multi-tap sequence).
    mutating func run(_ step: GroupStep, at t: Instant, _ r: Recognition, _ emit: (EngineOutput) -> Void)

    /// Forgets what the source tracks of input the group released (see ``dropReleased(at:_:emit:)``).
    mutating func forgetReleasedInput()
}

extension GestureSource {
    static var keepsReleasedInput: Bool { false }

    @inline(__always) func deadline(_ s: RecognizerSettings) -> Instant? { group.nextDeadline() }

    mutating func fireTimers(at t: Instant, until target: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        run(.timers(until: target), at: t, env.recognition, emit)
        dropReleased(at: t, env.recognition, emit: emit)
    }

    mutating func abandon(at t: Instant, _ env: EngineEnvironment, emit: (EngineOutput) -> Void) {
        run(.abandon, at: t, env.recognition, emit)
    }

    /// The output adapter of a source whose group never taps: its engine outputs go on, and
    /// nothing else comes.
    @inline(__always)
    mutating func run(_ step: GroupStep, at t: Instant, _ r: Recognition, _ emit: (EngineOutput) -> Void) {
        group.run(step, at: t, r) { output in
            if case .engine(let e) = output { emit(e) }
        }
    }

    mutating func forgetReleasedInput() {}

    /// Drops the group once it released its input: the application owns that input now, and
    /// its later events are not ours (which keeps replay and live identical). Returns whether it
    /// did.
    @discardableResult
    mutating func dropReleased(at t: Instant, _ r: Recognition, emit: (EngineOutput) -> Void) -> Bool {
        guard !Self.keepsReleasedInput, group.decision == .released, group.isActive else { return false }
        forgetReleasedInput()
        run(.drop, at: t, r, emit)
        return true
    }
}

/// Something the engine does with each of its sources in turn (``Engine``'s `forEachSource`).
protocol SourceVisitor {
    mutating func visit<S: GestureSource>(_ source: inout S, _ env: EngineEnvironment, emit: (EngineOutput) -> Void)
}

/// Something the engine reads from each of its sources in turn, changing none.
protocol SourceReader {
    mutating func read<S: GestureSource>(_ source: S, _ env: EngineEnvironment)
}
