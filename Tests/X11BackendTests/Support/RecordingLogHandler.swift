import Logging
import Synchronization

/// A log handler that keeps every message, for tests that check what a person would read.
struct RecordingLogHandler: LogHandler {
    /// The messages logged through every handler made from one recording, in order.
    final class Recording: Sendable {
        private let lines = Mutex<[(Logger.Level, String)]>([])
        func append(_ level: Logger.Level, _ message: String) { lines.withLock { $0.append((level, message)) } }
        var messages: [(level: Logger.Level, message: String)] { lines.withLock { $0.map { ($0.0, $0.1) } } }
    }

    let recording: Recording
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recording.append(event.level, "\(event.message)")
    }

    /// A logger whose messages go to `recording`.
    static func logger(_ recording: Recording) -> Logger {
        Logger(label: "recording") { _ in RecordingLogHandler(recording: recording) }
    }
}
