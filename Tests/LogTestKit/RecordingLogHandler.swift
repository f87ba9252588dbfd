public import Logging
import Synchronization

/// A log handler that keeps every message, for tests that check what a person would read.
///
/// ```swift
/// let recording = RecordingLogHandler.Recording()
/// let logger = RecordingLogHandler.logger(recording)
/// logger.info("ready")
/// #expect(recording.messages.map(\.message) == ["ready"])
/// ```
public struct RecordingLogHandler: LogHandler {
    /// The messages logged through every handler made from one recording, in order.
    public final class Recording: Sendable {
        private let lines = Mutex<[(Logger.Level, String)]>([])
        public init() {}
        func append(_ level: Logger.Level, _ message: String) { lines.withLock { $0.append((level, message)) } }
        public var messages: [(level: Logger.Level, message: String)] { lines.withLock { $0.map { ($0.0, $0.1) } } }
    }

    let recording: Recording
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        recording.append(event.level, "\(event.message)")
    }

    /// A logger whose messages go to `recording`.
    public static func logger(_ recording: Recording) -> Logger {
        Logger(label: "recording") { _ in RecordingLogHandler(recording: recording) }
    }
}
