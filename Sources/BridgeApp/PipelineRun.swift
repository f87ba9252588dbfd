public import BridgeCore
public import GestureConfig
public import GestureEngine

/// One run's path from its input to its observers, shared by the daemon and `replay`: each
/// input event goes to the observers that watch input, then to the ``Pipeline`` (when the run
/// recognizes gestures: not `record` or `learn`), whose events go to every observer.
///
/// ```text
/// InputSource ──InputEvent──▶ observers watching input (trace writer, shape learner)
///                      └────▶ Pipeline ──PipelineEvent──▶ every observer (live log, printer)
/// ```
///
/// ```swift
/// let printer = ReportPrinter(format: .human, config: { config })
/// let run = PipelineRun(recognizing: config, observers: [printer])
/// var reader = try TraceReader(path: "drag.trace.jsonl")
/// try run.play(&reader, runningOn: Interval(milliseconds: 10_000))
/// ```
public final class PipelineRun {
    /// The pipeline, when the run recognizes gestures.
    public let pipeline: Pipeline?
    /// Every observer, in the order given.
    public let observers: [any PipelineObserver]
    /// The observers that want every input event (``PipelineObserver/watchesInput``): most
    /// runs have none, so the live path calls nothing per event.
    private let inputObservers: [any PipelineObserver]

    /// A run that recognizes gestures with `config`.
    ///
    /// - Parameters:
    ///   - config: the config at start.
    ///   - performer: where actions go; nil: nothing is performed (`--dry-run`, `replay`).
    ///   - arbiter: where ownership decisions go; nil: nothing was taken.
    ///   - observers: who watches, in order.
    ///   - tracesTransitions: report each recognizer transition (`--verbose`).
    public init(
        recognizing config: Config, performer: (any ActionPerformer)? = nil, arbiter: (any InputArbiter)? = nil,
        observers: [any PipelineObserver], tracesTransitions: Bool = false
    ) {
        self.observers = observers
        self.inputObservers = observers.filter(\.watchesInput)
        let pipeline = Pipeline(config: config, performer: performer, arbiter: arbiter) { event in
            for observer in observers { observer.observe(event) }
        }
        pipeline.tracesTransitions = tracesTransitions
        pipeline.tracesPaths = observers.contains { $0.watchesPaths }
        self.pipeline = pipeline
    }

    /// A run that only watches its input (`record`, `learn`): no gestures are recognized.
    public init(watching observers: [any PipelineObserver]) {
        self.observers = observers
        self.inputObservers = observers.filter(\.watchesInput)
        self.pipeline = nil
    }

    /// Asks the observers again whether they watch paths (``PipelineObserver/watchesPaths``),
    /// after a reload changed what they show.
    public func refreshPathTracing() {
        guard let pipeline else { return }
        let watched = observers.contains { $0.watchesPaths }
        if pipeline.tracesPaths != watched { pipeline.tracesPaths = watched }
    }

    /// Feeds one input event: to the observers that watch input, then to the pipeline.
    public func feed(_ event: InputEvent) {
        for observer in inputObservers { observer.input(event) }
        pipeline?.handle(event)
    }

    /// Plays a source that ends (a trace) to its end, then lets time run on `runOn` past its
    /// last event, so that every timer still pending (a long press, a single tap waiting for a
    /// double) fires.
    public func play<Source: InputSource>(_ source: inout Source, runningOn runOn: Interval) throws(Source.Failure) {
        var last: Instant? = nil
        while try source.read(into: { event in
            feed(event)
            last = event.time
        }) {}
        if let last { pipeline?.advance(to: last + runOn) }
    }

    /// Lets time run on to `now` on the input clock: the timers due fire.
    public func advance(to now: Instant) {
        pipeline?.advance(to: now)
    }

    /// When the pipeline next needs time to pass, if ever.
    public var nextDeadline: Instant? { pipeline?.nextDeadline }

    /// When an observer next needs a turn of the loop without input (local clock), if ever.
    public var observersDeadline: ContinuousClock.Instant? {
        var earliest: ContinuousClock.Instant? = nil
        for observer in observers {
            if let due = observer.nextDeadline, earliest.map({ due < $0 }) ?? true { earliest = due }
        }
        return earliest
    }

    /// Tells every observer that the turn's requests went out (see ``PipelineObserver/turnEnded()``).
    public func turnEnded() {
        for observer in observers { observer.turnEnded() }
    }

    /// Tells every observer that the run is ready.
    public func started() {
        for observer in observers { observer.runStarted() }
    }

    /// The first observer's outcome, once one has ended the run.
    public var outcome: RunOutcome? {
        for observer in observers { if let outcome = observer.outcome { return outcome } }
        return nil
    }

    /// Lets every observer close what it has open; returns the exit code to end with.
    public func ending(exitCode: Int32) -> Int32 {
        observers.reduce(exitCode) { code, observer in observer.runEnding(exitCode: code) }
    }
}
