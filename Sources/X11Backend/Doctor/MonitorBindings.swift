public import GestureConfig
public import GestureEngine

/// Bindings that name a monitor the session does not have now: the daemon warns at start
/// (``StartupWarnings``) and `doctor` says it on its monitors line. A warning, not an error:
/// the monitor may appear later (a screen plugged in, an `xrandr --setmonitor`).
public enum MonitorBindings {
    /// The names of `monitors` as gestures see them: `screen` when the list is empty.
    public static func names(_ monitors: [Monitor]) -> [String] {
        ScreenLayout(width: 1, height: 1, monitors: monitors).monitors.map(\.name)
    }

    /// The bindings of `config` whose `monitor` is none of `monitors` (the built list).
    public static func unknown(in config: Config, monitors: [Monitor]) -> [Binding] {
        let present = names(monitors)
        return config.bindings.filter { binding in binding.trigger.monitor.map { !present.contains($0) } ?? false }
    }

    /// One warning line for those bindings, or `nil` when every named monitor is present.
    public static func warning(for config: Config, monitors: [Monitor]) -> String? {
        let unknown = unknown(in: config, monitors: monitors)
        guard !unknown.isEmpty else { return nil }
        let n = unknown.count
        let named = unknown.map(StartupWarnings.describe).joined(separator: "; ")
        return "\(n) binding\(n == 1 ? " names a monitor" : "s name monitors") this screen does not have now "
            + "(monitors: \(names(monitors).joined(separator: ", "))), so \(n == 1 ? "it fires" : "they fire") only once "
            + "such a monitor appears: \(named)"
    }
}
