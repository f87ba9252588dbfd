public import BridgeCore
public import GestureConfig
public import GestureEngine
public import Logging

/// `learn NAME --samples N`: follows the input for the next `N` strokes (``ShapeLearner``),
/// asks again for one too unlike the others (``ShapeSamples``), says how alike they are,
/// writes their `[[shape]]` block and ends the run (exit 0). A stroke too small or drawn with
/// more than one finger is refused with a line saying why, and the next one awaited; a run
/// stopped before the shape is learned ends with exit 1 (a script appending the output must not
/// take silence for a shape).
///
/// ```swift
/// let learning = ShapeLearnerObserver(name: "L", samples: 3, config: config, logger: logger) { print($0) }
/// ```
public final class ShapeLearnerObserver: PipelineObserver {
    private let name: String
    private let config: Config
    private let logger: Logger
    private let write: (String) -> Void
    /// The path being followed, from the moment the run is ready.
    private var learner: ShapeLearner? = nil
    /// The drawings so far.
    private var samples: ShapeSamples
    /// The shape was written.
    private var learned = false

    /// - Parameters:
    ///   - name: the shape's name, as bindings will name it.
    ///   - samples: how many drawings make the shape (1 to ``ShapeSamples/maximumCount``).
    ///   - config: the config at start (the trigger button, `stroke_min_px` or `stroke_min_mm`,
    ///     `stroke_min_score`).
    ///   - logger: where the instructions, refusals and the drawings' likeness go.
    ///   - write: where the `[[shape]]` block goes.
    public init(name: String, samples: Int = 1, config: Config, logger: Logger, write: @escaping (String) -> Void) {
        self.name = name
        self.samples = ShapeSamples(name: name, count: samples)
        self.config = config
        self.logger = logger
        self.write = write
    }

    public var watchesInput: Bool { true }

    public func runStarted() {
        let config = self.config
        let engine = config.engineConfiguration
        learner = ShapeLearner(pointerButton: config.pointerButton) { engine.settings(for: $0) }
        let pointer = config.pointerButton == 0 ? "" : ", or the pointer with button \(config.pointerButton) held"
        let times = samples.count == 1 ? "" : ", \(samples.count) times"
        logger.notice("draw the shape \(name) now\(times): one finger on the touchscreen\(pointer) (nothing is taken from applications)")
    }

    /// One event for the path; a finished stroke is written and ends the run.
    public func input(_ event: InputEvent) {
        guard !learned else { return }
        // In place: the path is not copied at every event. Nil until the run is ready.
        switch learner?.handle(event) {
        case .learned(let points, let device)?:
            let verdict = samples.add(points, minimumScore: config.engineConfiguration.settings(for: device).strokeMinScore)
            if case .alike(let similarity) = verdict {
                if samples.count > 1 { logger.notice("\(samples.message(verdict))") }
                write(samples.block(similarity))
                learned = true
            } else {
                logger.notice("\(samples.message(verdict))")
            }
        case .tooSmall(let diagonal, let minimum, let device)?:
            logger.notice("\(minimum.refusal(diagonal: diagonal, device: device))")
        case .moreThanOneFinger?:
            logger.notice("that was more than one finger: draw the shape with one finger")
        case .cancelled?:
            logger.notice("that touch was cancelled: draw the shape again")
        case nil:
            break
        }
    }

    public var outcome: RunOutcome? { learned ? .done : nil }

    public func runEnding(exitCode: Int32) -> Int32 {
        guard exitCode == 0, !learned else { return exitCode }
        let taken = samples.drawings.count
        logger.notice(taken == 0 ? "stopped before a stroke was drawn: nothing learned"
            : "stopped after \(taken) of \(samples.count) drawings: nothing learned")
        return 1
    }
}
