public import GestureConfig
import GestureEngine

/// Prints pipeline events as lines on standard output, flushed as they happen: JSON Lines
/// (docs/interface.md, «Output») or text for a person.
///
/// Each gesture phase is a line; so is input given back to the application (`passed-on`),
/// after the phase it came with, and, in JSON, why no binding fired at a phase
/// (`no-binding`, after the phase's line). Every line starts with its time on the input's clock.
///
/// ```text
/// 18793747 ms  swipe recognized  on the mouse at (480, 400) on monitor screen  direction right  → key alt+Right  (config.toml:12:1)
/// 18794120 ms  mouse button 3: not a gesture, passed on to the application
/// ```
public final class ReportPrinter {
    /// The output format.
    public enum Format: Sendable { case json, human }

    private let format: Format
    private let config: () -> Config
    private let write: (String) -> Void
    /// The last phase printed, when no binding fired at it: the input given back with it
    /// (same device, same time) follows it, and its line says why.
    private var unboundPhase: (time: Instant, device: DeviceKind)?

    /// - Parameters:
    ///   - format: JSON Lines or human-readable.
    ///   - config: the config in force (for binding positions and explanations).
    ///   - write: where a finished line goes; standard output (flushed) by default.
    public init(format: Format, config: @escaping () -> Config, write: ((String) -> Void)? = nil) {
        self.format = format
        self.config = config
        self.write = write ?? { StandardStream.writeLine($0) }
    }

    /// Prints one pipeline event: phases, input passed on, and in human form also transitions
    /// and engine bugs (`--verbose` asks for them) and failed actions.
    public func print(_ event: PipelineEvent) {
        let unbound = unboundPhase
        unboundPhase = nil
        switch (format, event) {
        case (.json, .phase(let report, let binding, let release)):
            write(ReportFormatter.json(
                report, action: binding?.actionIsList == false ? binding?.actionText : nil,
                actionList: binding?.actionIsList == true ? binding?.actionTexts : nil, hold: binding?.holdText, release: release))
            if binding == nil, let reason = Explanation.noBinding(for: report, config: config()) {
                write(ReportFormatter.json(noBinding: report, reason: reason))
            }
            if binding == nil { unboundPhase = (report.time, report.device) }
        case (.human, .phase(let report, let binding, let release)):
            let note = Explanation.note(for: report, binding: binding, config: config())
            write(ReportFormatter.human(report, note: Explanation.holding(note, binding: binding, release: release)))
            if binding == nil { unboundPhase = (report.time, report.device) }
        case (_, .passedOn(let decision, let time)):
            let afterItsGesture = unbound.map { $0.time == time && $0.device == decision.device } ?? false
            write(format == .json
                ? ReportFormatter.json(passedOn: decision, at: time)
                : ReportFormatter.human(passedOn: decision, at: time, afterItsGesture: afterItsGesture))
            // The other touches given back with it follow the same gesture.
            if afterItsGesture { unboundPhase = unbound }
        case (.json, .skipped(let report, let binding, let lock)):
            write(ReportFormatter.json(report, skipped: (binding.actionText, "screen locked: \(lock)")))
        case (.human, .skipped(let report, let binding, let lock)):
            write(ReportFormatter.human(report, note: "→ skipped: \(binding.actionText)  (\(binding.source)): the screen is locked (\(lock))"))
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
