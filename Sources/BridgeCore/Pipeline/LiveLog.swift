public import GestureConfig
public import GestureEngine

/// The daemon's log lines for gesture phases: quiet at the default level, and saying why when
/// a gesture did nothing.
///
/// At the default level (info) a gesture gives at most one line per binding it performs, and a
/// gesture that performed nothing gives one line with the reason — the same reason `replay`
/// and `--dry-run` print (``Explanation``). A binding that repeats within one gesture
/// (`repeat_every`) is said at its first firing; when the gesture ends, one line counts the
/// firings:
///
/// ```text
/// info  pan began → key Tab                                    (binding=config.toml:12:1)
/// info  pan ended: key Tab ×16                                 (binding=config.toml:12:1)
/// info  swipe with 3 fingers on the touchpad did nothing: no binding matches (bound here: swipe left at 3:1)
/// debug pan changed → key Tab (again)                          (--verbose only)
/// ```
///
/// Gestures are told apart by device and kind: one device runs one gesture group at a time,
/// and the continuous gestures of a group (a pinch and a rotate together) are of different kinds.
public struct LiveLog: Sendable {
    /// How important a line is; the daemon maps it onto its logger's levels.
    public enum Level: Sendable, Hashable {
        case debug, info
    }

    /// One log line: its level, its message, and the metadata that goes with it.
    public struct Line: Sendable, Hashable {
        public var level: Level
        public var message: String
        public var metadata: [String: String]
    }

    /// A continuous gesture in progress: what fired in it and the last reason it gave for firing
    /// nothing.
    private struct Running: Sendable {
        /// The bindings that fired, in order of their first firing, with how often each fired.
        var fired: [(binding: Binding, count: Int)] = []
        var silentReason: String?
    }

    private struct Key: Hashable, Sendable {
        var device: DeviceKind
        var gesture: GestureKind
    }

    private var running: [Key: Running] = [:]

    public init() {}

    /// The lines for one gesture phase.
    ///
    /// - Parameters:
    ///   - report: the phase.
    ///   - binding: the binding that fired at it, if any.
    ///   - config: the config in force (for the reason nothing fired).
    public mutating func lines(for report: GestureReport, binding: Binding?, config: Config) -> [Line] {
        var metadata = ["fingers": "\(report.fingers)", "device": report.device.rawValue]
        if !report.modifiers.isEmpty { metadata["mods"] = "\(report.modifiers)" }
        let name = "\(report.gesture.rawValue) \(report.phase.rawValue)"
        var lines: [Line] = []

        guard report.gesture.isContinuous else {
            // Discrete: one phase, one line at most.
            if let binding {
                lines.append(Self.fired(name, binding, metadata))
            } else if let reason = Explanation.note(for: report, binding: nil, config: config) {
                lines.append(Line(level: .info, message: Self.didNothing(report, reason), metadata: [:]))
            } else {
                lines.append(Line(level: .debug, message: name, metadata: metadata))
            }
            return lines
        }

        let key = Key(device: report.device, gesture: report.gesture)
        if report.phase == .began, let stale = running.removeValue(forKey: key) {
            // Its end never came (it should); say what it did before starting over.
            lines += Self.summary(of: stale, report: report, name: name)
        }
        var gesture = running[key] ?? Running()
        if let binding {
            if let index = gesture.fired.firstIndex(where: { $0.binding == binding }) {
                gesture.fired[index].count += 1
                lines.append(Line(level: .debug, message: "\(name) → \(binding.actionExcerpt) (again)",
                                  metadata: metadata.merging(["binding": "\(binding.source)"]) { a, _ in a }))
            } else {
                gesture.fired.append((binding, 1))
                lines.append(Self.fired(name, binding, metadata))
            }
        } else {
            if let reason = Explanation.note(for: report, binding: nil, config: config) { gesture.silentReason = reason }
            if report.phase != .changed { lines.append(Line(level: .debug, message: name, metadata: metadata)) }
        }

        if report.phase == .ended || report.phase == .cancelled {
            running[key] = nil
            if gesture.fired.isEmpty {
                if let reason = gesture.silentReason {
                    lines.append(Line(level: .info, message: Self.didNothing(report, reason), metadata: [:]))
                }
            } else {
                lines += Self.summary(of: gesture, report: report, name: name)
            }
        } else {
            running[key] = gesture
        }
        return lines
    }

    /// Forgets every gesture in progress (the config was replaced: what ran was cancelled).
    public mutating func reset() { running = [:] }

    private static func fired(_ name: String, _ binding: Binding, _ metadata: [String: String]) -> Line {
        Line(level: .info, message: "\(name) → \(binding.actionExcerpt)",
             metadata: metadata.merging(["binding": "\(binding.source)"]) { a, _ in a })
    }

    /// `pan ended: key Tab ×16` for each binding that fired more than once.
    private static func summary(of gesture: Running, report: GestureReport, name: String) -> [Line] {
        gesture.fired.filter { $0.count > 1 }.map { entry in
            Line(level: .info, message: "\(report.gesture.rawValue) \(report.phase.rawValue): \(entry.binding.actionExcerpt) ×\(entry.count)",
                 metadata: ["binding": "\(entry.binding.source)"])
        }
    }

    /// `swipe with 3 fingers on the touchpad did nothing: REASON`, `swipe on the mouse did nothing: …`.
    private static func didNothing(_ report: GestureReport, _ reason: String) -> String {
        let app = report.app.map { " in \($0)" } ?? ""
        return "\(report.gesture.rawValue) \(ReportFormatter.hands(report, with: true))\(app) did nothing: \(reason)"
    }
}

extension OwnershipDecision: CustomStringConvertible {
    /// The kind of device the input came from.
    public var device: DeviceKind {
        switch self {
        case .touch: .touchscreen
        case .pointer: .pointer
        case .touchpad: .touchpad
        }
    }

    /// The input in words, without the decision: `touch 311`, `button 3 press`, `touchpad gesture`.
    public var input: String {
        switch self {
        case .touch(let id, _): "touch \(id)"
        case .pointer(let button, _): "button \(button) press"
        case .touchpad: "touchpad gesture"
        }
    }

    /// `touch 311 taken by a gesture`, `button 3 press given back to the application`.
    public var description: String {
        let ownership: Ownership
        switch self {
        case .touch(_, let o), .pointer(_, let o), .touchpad(let o): ownership = o
        }
        return "\(input) \(ownership == .claim ? "taken by a gesture" : "given back to the application")"
    }
}
