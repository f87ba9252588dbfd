public import BridgeCore
public import GestureConfig
public import GestureEngine
public import Logging

/// `learn NAME`: follows the input for the next stroke (``ShapeLearner``), writes its
/// `[[shape]]` block and ends the run (exit 0). A stroke too small or drawn with more than one
/// finger is refused with a line saying why, and the next one awaited; a run stopped before a
/// stroke ends with exit 1 (a script appending the output must not take silence for a shape).
///
/// ```swift
/// let learning = ShapeLearnerObserver(name: "L", config: config, logger: logger) { print($0) }
/// ```
public final class ShapeLearnerObserver: PipelineObserver {
    private let name: String
    private let config: Config
    private let logger: Logger
    private let write: (String) -> Void
    /// The path being followed, from the moment the run is ready.
    private var learner: ShapeLearner? = nil
    /// The shape was written.
    private var learned = false

    /// - Parameters:
    ///   - name: the shape's name, as bindings will name it.
    ///   - config: the config at start (the trigger button, `stroke_min_px`).
    ///   - logger: where the instructions and refusals go.
    ///   - write: where the `[[shape]]` block goes.
    public init(name: String, config: Config, logger: Logger, write: @escaping (String) -> Void) {
        self.name = name
        self.config = config
        self.logger = logger
        self.write = write
    }

    public var watchesInput: Bool { true }

    public func runStarted() {
        let config = self.config
        learner = ShapeLearner(pointerButton: config.pointerButton) { config.engineConfiguration.settings(for: $0).strokeMinPx }
        let pointer = config.pointerButton == 0 ? "" : ", or the pointer with button \(config.pointerButton) held"
        logger.notice("draw the shape \(name) now: one finger on the touchscreen\(pointer) (nothing is taken from applications)")
    }

    /// One event for the path; a finished stroke is written and ends the run.
    public func input(_ event: InputEvent) {
        guard !learned else { return }
        // In place: the path is not copied at every event. Nil until the run is ready.
        switch learner?.handle(event) {
        case .learned(let points)?:
            write(ShapeLearner.block(name: name, points: points))
            learned = true
        case .tooSmall(let diagonal, let minimum, let device)?:
            logger.notice(
                "that stroke was \(Int(diagonal.rounded())) px across, smaller than stroke_min_px (\(Int(minimum.rounded())) px for the \(device.rawValue)): draw it larger")
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
        logger.notice("stopped before a stroke was drawn: nothing learned")
        return 1
    }
}
