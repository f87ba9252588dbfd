public import GestureEngine

/// What watches a run of the bridge: the input as it arrives, and what the ``Pipeline`` makes
/// of it. The app composes a list of observers for each command instead of a mode the loop
/// switches on: the daemon's live log, `--dry-run`'s and `replay`'s ``ReportPrinter``,
/// `record`'s trace writer, `learn`'s shape learner — and whatever comes next (an on-screen
/// trail) is one more observer in one new file.
///
/// Every requirement has a default that does nothing, so an observer implements what it uses.
/// Observers run on the loop's thread, in the order given; the pipeline's events reach them
/// when they happen, after the actions of the phase went out (``Pipeline``).
///
/// **Keep the live path short.** ``observe(_:)`` is called between a gesture's actions and the
/// next input (a phase's actions go out before it is observed, but its claim's thaw and the
/// flush come after); work that costs a clock read, a write or an allocation belongs in
/// ``turnEnded()``, called once the turn's requests went out. Only observers that say so
/// (``watchesInput``) are called for every input event.
///
/// ```swift
/// final class Counter: PipelineObserver {
///     var phases = 0
///     func observe(_ event: PipelineEvent) { if case .phase = event { phases += 1 } }
/// }
/// ```
public protocol PipelineObserver: AnyObject {
    /// Whether ``input(_:)`` wants every input event (a recorder, a learner, a trail); false
    /// for observers of the pipeline's events only, which are then not called per event.
    var watchesInput: Bool { get }
    /// One input event, before the pipeline (if the run has one) handles it.
    func input(_ event: InputEvent)
    /// One event of the pipeline: a phase, a decision, a failed action, a transition.
    func observe(_ event: PipelineEvent)
    /// Whether ``observe(_:)`` wants the path of each undecided gesture
    /// (``PipelineEvent/path(_:)``, ``Pipeline/tracesPaths``): the on-screen trail. False: the
    /// engine reports no paths unless another observer asks. Read when the run starts and after
    /// each reload (``PipelineRun/refreshPathTracing()``).
    var watchesPaths: Bool { get }
    /// When the observer next needs a turn of the loop without input (a frame to draw, an OSD
    /// to take off the screen), on the local clock; nil: never. The loop's `poll` waits no
    /// longer, and ``turnEnded()`` is called when it wakes.
    var nextDeadline: ContinuousClock.Instant? { get }
    /// The loop turn's actions and requests went out (also: before a reload, at shutdown):
    /// time for what would have delayed them, such as log lines.
    func turnEnded()
    /// The run is ready (its `ready` line is out) and waits for input.
    func runStarted()
    /// Set once the observer has ended the run: what it came for is done, or it cannot go on.
    /// The loop looks after each turn's input.
    var outcome: RunOutcome? { get }
    /// The run ends with `exitCode`: close what is open. Returns the exit code to end with.
    func runEnding(exitCode: Int32) -> Int32
}

extension PipelineObserver {
    public var watchesInput: Bool { false }
    public func input(_ event: InputEvent) {}
    public func observe(_ event: PipelineEvent) {}
    public var watchesPaths: Bool { false }
    public var nextDeadline: ContinuousClock.Instant? { nil }
    public func turnEnded() {}
    public func runStarted() {}
    public var outcome: RunOutcome? { nil }
    public func runEnding(exitCode: Int32) -> Int32 { exitCode }
}

/// How an observer ends a run (``PipelineObserver/outcome``).
public enum RunOutcome: Hashable, Sendable {
    /// What the run was for is done (`learn` wrote its shape): exit 0.
    case done
    /// The run cannot go on (`record` can no longer write its trace): the message is logged
    /// as critical, exit 1.
    case failed(String)
}

extension ReportPrinter: PipelineObserver {
    public func observe(_ event: PipelineEvent) { print(event) }
}
