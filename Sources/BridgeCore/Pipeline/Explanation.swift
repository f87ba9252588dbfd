public import GestureConfig
public import GestureEngine

/// Says, for a person, why a gesture phase fired what it fired, or why it fired nothing.
///
/// Used by the human-readable output of `replay` and `--dry-run`; not on the hot path.
public enum Explanation {
    /// A short note for a phase: `→ key ctrl+alt+Left  (config.toml:12:1)` when a binding
    /// fired, otherwise why none did (`nil` for `changed` phases that fire nothing: they are
    /// the normal case).
    public static func note(for report: GestureReport, binding: Binding?, config: Config) -> String? {
        if let binding {
            return "→ \(binding.actionText)  (\(binding.source))"
        }
        switch silence(of: report, config: config) {
        case .normal: return nil
        case .firesAtTheEnd: return "its binding fires when it ends (on = \"end\")"
        case .noBinding(let reason): return reason
        }
    }

    /// Why no binding fired at a phase that fired nothing, when that is a fault of the
    /// bindings (`no binding matches (bound here: …)`); `nil` when nothing is missing (a
    /// `changed` phase, a `began` whose binding fires at the end).
    public static func noBinding(for report: GestureReport, config: Config) -> String? {
        if case .noBinding(let reason) = silence(of: report, config: config) { return reason }
        return nil
    }

    /// Why a phase fired nothing.
    private enum Silence {
        /// Nothing is missing: a `changed` or `cancelled` phase, the other end of a binding.
        case normal
        /// A `began` whose bindings fire when the gesture ends.
        case firesAtTheEnd
        /// No binding wants it, and why.
        case noBinding(String)
    }

    private static func silence(of report: GestureReport, config: Config) -> Silence {
        if report.phase == .changed || report.phase == .cancelled { return .normal }
        let sameGesture = config.bindings.filter { $0.trigger.gesture == report.gesture }
        if sameGesture.isEmpty { return .noBinding("no binding for \(report.gesture.rawValue)") }
        let app = FocusedApp(name: report.app, className: report.appClass)
        let here = sameGesture.filter {
            $0.trigger.applies(
                to: report.device, app: app, fingers: report.fingers, edge: report.edge, monitor: report.monitor,
                modifiers: report.modifiers, button: report.button ?? 0, defaultButton: config.pointerButton)
        }
        if here.isEmpty {
            // The monitor, the modifiers and the button are part of "here" only when some
            // binding of this gesture names one.
            let monitorBound = sameGesture.contains { $0.trigger.monitor != nil }
            let on = monitorBound ? report.monitor.map { " on monitor \($0)" } ?? " (no screen known)" : ""
            let modifiersBound = sameGesture.contains { $0.trigger.modifiers != nil }
            let held = modifiersBound ? report.modifiers.isEmpty ? " with no modifier" : " with \(report.modifiers)" : ""
            let buttonBound = sameGesture.contains { $0.trigger.button != nil }
            let button = buttonBound ? report.button.map { " button \($0)" } ?? "" : ""
            return .noBinding("no binding: \(report.gesture.rawValue) \(ReportFormatter.hands(report, with: true))"
                + "\(button)\(on)\(held)\(report.app.map { " in \($0)" } ?? "") is not bound")
        }
        let phaseWanted: FiringPoint? = report.phase == .began ? .begin : report.phase == .ended ? .end : nil
        let samePhase = here.filter { phaseWanted == nil || $0.trigger.on == phaseWanted }
        if samePhase.isEmpty {
            // Its bindings fire at the other end of the gesture: nothing is missing here.
            return report.phase == .began ? .firesAtTheEnd : .normal
        }
        let described = samePhase.map(describe).joined(separator: ", ")
        return .noBinding("no binding matches (bound here: \(described))")
    }

    private static func describe(_ b: Binding) -> String {
        let t = b.trigger
        var parts: [String] = [t.gesture.rawValue]
        if t.gesture == .tap { parts.append("\(t.taps)×") }
        if let d = t.direction { parts.append(d.rawValue) }
        if let s = t.shape { parts.append(s) }
        if let e = t.edge { parts.append("from \(e.rawValue) edge") }
        if let m = t.monitor { parts.append("on monitor \(m)") }
        if let b = t.button { parts.append("button \(b)") }
        if let m = t.modifiers { parts.append("with \(m)") }
        return parts.joined(separator: " ") + " at \(b.source.line):\(b.source.column)"
    }
}
