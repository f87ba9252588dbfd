public import GestureConfig
import GestureEngine

/// Prints pipeline events as lines on standard output, flushed as they happen: JSON Lines
/// (docs/interface.md, «Output») or text for a person.
public final class ReportPrinter {
    /// The output format.
    public enum Format: Sendable { case json, human }

    private let format: Format
    private let config: () -> Config
    private let write: (String) -> Void

    /// - Parameters:
    ///   - format: JSON Lines or human-readable.
    ///   - config: the config in force (for binding positions and explanations).
    ///   - write: where a finished line goes; standard output (flushed) by default.
    public init(format: Format, config: @escaping () -> Config, write: ((String) -> Void)? = nil) {
        self.format = format
        self.config = config
        self.write = write ?? { StandardStream.writeLine($0) }
    }

    /// Prints one pipeline event (phases always; in human form also what was passed on).
    public func print(_ event: PipelineEvent) {
        switch (format, event) {
        case (.json, .phase(let report, let binding, let release)):
            write(ReportFormatter.json(
                report, action: binding?.actionIsList == false ? binding?.actionText : nil,
                actionList: binding?.actionIsList == true ? binding?.actionTexts : nil, hold: binding?.holdText, release: release))
        case (.human, .phase(let report, let binding, let release)):
            let note = Explanation.note(for: report, binding: binding, config: config())
            write(ReportFormatter.human(report, note: Explanation.holding(note, binding: binding, release: release)))
        case (.json, .skipped(let report, let binding, let lock)):
            write(ReportFormatter.json(report, skipped: (binding.actionText, "screen locked: \(lock)")))
        case (.human, .skipped(let report, let binding, let lock)):
            write(ReportFormatter.human(report, note: "→ skipped: \(binding.actionText)  (\(binding.source)): the screen is locked (\(lock))"))
        case (.human, .passedOn(.pointer(let button, _))):
            write("pointer button \(button): not a gesture, passed on to the application")
        case (.human, .transition(let transition)):
            write("  \(ReportFormatter.time(transition.time))  \(transition)")
        case (.human, .engineBug(let bug)):
            write("  \(ReportFormatter.time(bug.time))  \(bug)")
        case (.human, .actionFailed(let binding, _, let error)):
            write("action failed: \(binding.actionText) (\(binding.source)): \(error)")
        case (.json, _), (.human, _):
            break
        }
    }
}
