public import GestureEngine

/// Formats gesture phases for `replay` and `--dry-run` (docs/interface.md, «Output»): one compact JSON
/// object per phase with `--json`, one readable line otherwise.
///
/// Numbers are rounded to 3 decimals and printed without trailing zeros or a decimal point when
/// whole (`640`, `0.5`, `-12.345`), never as `-0`. Optional fields appear when the report
/// carries them (the engine sets `taps` on taps, `translation` and `velocity` on pans, `scale` on
/// pinches, `angle` on rotations, `shape` and `score` on strokes).
///
/// ```swift
/// ReportFormatter.json(report, action: "key ctrl+alt+Left")
/// // {"t":1234.5,"gesture":"swipe","phase":"recognized","fingers":3,"device":"touchpad","x":640,"y":360,"direction":"left","action":"key ctrl+alt+Left"}
/// ReportFormatter.human(report, note: "→ key ctrl+alt+Left (config.toml:12)")
/// // 1234.5 ms  swipe recognized  3 fingers on touchpad at (640, 360)  direction left  → key ctrl+alt+Left (config.toml:12)
/// ```
public enum ReportFormatter {
    /// Decimal places kept in printed numbers: sub-pixel positions and scale steps matter, more
    /// is noise.
    static let decimals = 3

    /// One gesture phase as a compact JSON object (no line feed), keys in the documented order (docs/interface.md, «Output»):
    /// `t, gesture, phase, fingers, device`, then `button` (pointer) and `mods` (a gesture that
    /// had modifiers), `x, y`, then `taps, direction, edge, monitor, dx, dy, vx, vy, scale, angle,
    /// shape, score` when present, then `action`, or `skipped` and `reason`.
    ///
    /// - Parameters:
    ///   - report: the gesture phase.
    ///   - action: the fired binding's `action` string as written in the config, if one fires.
    ///   - skipped: the `action` of a binding that would fire but does not, and why (the screen
    ///     is locked). Such a line has no `action`: that field means what is performed.
    ///   - actionList: the fired binding's `action` array, as written, when it was written as an
    ///     array (printed as a JSON array in `action`; pass `action: nil` then).
    ///   - hold: the fired binding's `hold` string as written.
    ///   - release: the keys an ending gesture lets go of, joined by `+` (docs/config.md).
    public static func json(
        _ report: GestureReport, action: String? = nil, skipped: (action: String, reason: String)? = nil,
        actionList: [String]? = nil, hold: String? = nil, release: String? = nil
    ) -> String {
        var out = "{"
        var separator = ""
        func key(_ name: String) {
            out += separator + "\"" + name + "\":"
            separator = ","
        }
        func number(_ name: String, _ value: Double) {
            key(name)
            out += format(value)
        }
        func string(_ name: String, _ value: String) {
            key(name)
            JSONLiteral.appendString(value, to: &out)
        }

        number("t", report.time.milliseconds)
        string("gesture", report.gesture.rawValue)
        string("phase", report.phase.rawValue)
        number("fingers", Double(report.fingers))
        string("device", report.device.rawValue)
        if let button = report.button { number("button", Double(button)) }
        if !report.modifiers.isEmpty {
            key("mods")
            out += report.modifiers.jsonArray
        }
        number("x", report.position.x)
        number("y", report.position.y)
        if let taps = report.taps { number("taps", Double(taps)) }
        if let direction = report.direction { string("direction", direction.rawValue) }
        if let edge = report.edge { string("edge", edge.rawValue) }
        if let monitor = report.monitor { string("monitor", monitor) }
        if let translation = report.translation {
            number("dx", translation.x)
            number("dy", translation.y)
        }
        if let velocity = report.velocity {
            number("vx", velocity.x)
            number("vy", velocity.y)
        }
        if let scale = report.scale { number("scale", scale) }
        if let angle = report.angle { number("angle", angle) }
        if let shape = report.shape { string("shape", shape) }
        if let score = report.score { number("score", score) }
        if let action { string("action", action) }
        if let actionList {
            key("action")
            out += "["
            for (index, text) in actionList.enumerated() {
                if index > 0 { out += "," }
                JSONLiteral.appendString(text, to: &out)
            }
            out += "]"
        }
        if let hold { string("hold", hold) }
        if let release { string("release", release) }
        if let skipped {
            string("skipped", skipped.action)
            string("reason", skipped.reason)
        }
        return out + "}"
    }

    /// One gesture phase as a line for a person (no line feed): time, gesture and phase,
    /// fingers, device, position, then what the gesture kind adds, then `note`.
    ///
    /// - Parameters:
    ///   - report: the gesture phase.
    ///   - note: appended at the end, e.g. `→ key ctrl+alt+Left (config.toml:12)` or
    ///     `no binding: …`.
    public static func human(_ report: GestureReport, note: String? = nil) -> String {
        let fingers = report.fingers == 1 ? "1 finger" : "\(report.fingers) fingers"
        var parts = [
            time(report.time),
            "\(report.gesture.rawValue) \(report.phase.rawValue)",
            "\(fingers) on \(report.device.rawValue) at \(format(report.position))"
                + (report.monitor.map { " on monitor \($0)" } ?? ""),
        ]
        if let button = report.button { parts.append("button \(button)") }
        if !report.modifiers.isEmpty { parts.append("with \(report.modifiers)") }
        if let taps = report.taps { parts.append(taps == 1 ? "1 tap" : "\(taps) taps") }
        if let direction = report.direction { parts.append("direction \(direction.rawValue)") }
        if let edge = report.edge { parts.append("from the \(edge.rawValue) edge") }
        if let translation = report.translation { parts.append("moved \(format(translation)) px") }
        if let velocity = report.velocity { parts.append("velocity \(format(velocity)) px/s") }
        if let scale = report.scale { parts.append("scale \(format(scale))") }
        if let angle = report.angle { parts.append("angle \(format(angle))°") }
        if let shape = report.shape { parts.append("shape \(shape)") }
        if let score = report.score { parts.append("score \(format(score))") }
        if let note, !note.isEmpty { parts.append(note) }
        return parts.joined(separator: "  ")
    }

    /// An instant as the human lines print it: milliseconds rounded to 3 decimals, `1491318.667 ms`.
    public static func time(_ instant: Instant) -> String {
        "\(format(instant.milliseconds)) ms"
    }

    private static func format(_ value: Double) -> String {
        JSONLiteral.number(value, decimals: decimals)
    }

    private static func format(_ point: Point) -> String {
        "(\(format(point.x)), \(format(point.y)))"
    }
}
