public import BridgeCore
public import GestureEngine
public import Logging

/// `record`: writes every input event as a trace line (docs/interface.md, «Trace format»).
///
/// The first failed write of the output (a closed pipe, a full disk) ends the run with exit 1
/// and one message: nothing more could be recorded. An event the writer refuses on its own
/// (its time going backwards) is logged and skipped. The trace is closed when the run ends.
///
/// ```swift
/// let recorder = TraceRecorder(TraceWriter(fileDescriptor: StandardStream.output), logger: logger)
/// ```
public final class TraceRecorder: PipelineObserver {
    private let writer: TraceWriter
    private let logger: Logger
    /// The first failed write of the output: the run ends with it.
    private var failure: TraceError?

    public init(_ writer: TraceWriter, logger: Logger) {
        self.writer = writer
        self.logger = logger
    }

    public var watchesInput: Bool { true }

    public func input(_ event: InputEvent) {
        guard failure == nil else { return }
        do {
            try writer.write(event)
        } catch {
            if writer.outputFailed {
                failure = error
            } else {
                logger.error("\(error)")
            }
        }
    }

    public var outcome: RunOutcome? {
        failure.map { .failed("cannot record: \($0)") }
    }

    public func runEnding(exitCode: Int32) -> Int32 {
        writer.close()
        return exitCode
    }
}
