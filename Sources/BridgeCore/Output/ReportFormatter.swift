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
/// // 1234.5 ms  swipe recognized  3 fingers on the touchpad at (640, 360)  direction left  → key ctrl+alt+Left (config.toml:12)
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
    /// fingers and device (``hands(_:)``), position, then what the gesture kind adds, then `note`.
    ///
    /// - Parameters:
    ///   - report: the gesture phase.
    ///   - note: appended at the end, e.g. `→ key ctrl+alt+Left (config.toml:12)` or
    ///     `no binding: …`.
    public static func human(_ report: GestureReport, note: String? = nil) -> String {
        var parts = [
            time(report.time),
            "\(report.gesture.rawValue) \(report.phase.rawValue)",
            "\(hands(report)) at \(format(report.position))"
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

    /// What made a gesture, for a person: `3 fingers on the touchpad`, `1 finger on the
    /// touchscreen`, `on the mouse` (a pointer gesture is the trigger button held, not a finger).
    ///
    /// - Parameter with: `with 3 fingers on the touchpad`, to follow the gesture's name (`on
    ///   the mouse` is the same).
    public static func hands(_ report: GestureReport, with: Bool = false) -> String {
        switch report.device {
        case .pointer: "on the mouse"
        case .touchscreen, .touchpad:
            "\(with ? "with " : "")\(report.fingers == 1 ? "1 finger" : "\(report.fingers) fingers") on the \(report.device.rawValue)"
        }
    }

    // MARK: - What is not a gesture phase

    /// Input given back to the application as a compact JSON object (no line feed), a line
    /// kind of its own (docs/interface.md, «Output»): `t`, `"event":"passed-on"`, `device`, and
    /// `button` (the pointer's) or `id` (a touch's).
    ///
    /// ```swift
    /// ReportFormatter.json(passedOn: .pointer(button: 3, .release), at: Instant(milliseconds: 1250))
    /// // {"t":1250,"event":"passed-on","device":"pointer","button":3}
    /// ```
    public static func json(passedOn decision: OwnershipDecision, at time: Instant) -> String {
        var out = "{\"t\":\(format(time.milliseconds)),\"event\":\"passed-on\",\"device\":\"\(decision.device.rawValue)\""
        switch decision {
        case .pointer(let button, _): out += ",\"button\":\(button)"
        case .touch(let id, _): out += ",\"id\":\(id)"
        case .touchpad: break
        }
        return out + "}"
    }

    /// Input given back to the application, for a person: `1250 ms  mouse button 3: not a
    /// gesture, passed on to the application`.
    ///
    /// - Parameters:
    ///   - decision: the input.
    ///   - time: when it went back.
    ///   - afterItsGesture: the line before is the recognized gesture no binding wanted that the
    ///     input made, which says why; otherwise the input was not a gesture.
    public static func human(passedOn decision: OwnershipDecision, at time: Instant, afterItsGesture: Bool) -> String {
        let input = switch decision {
        case .pointer(let button, _): "mouse button \(button)"
        case .touch(let id, _): "touch \(id)"
        case .touchpad: "touchpad gesture"
        }
        // A touchpad gesture is one to X; that no binding wants it is what sends it back.
        let why = afterItsGesture ? "" : decision.device == .touchpad ? "no binding wants it, " : "not a gesture, "
        return "\(self.time(time))  \(input): \(why)passed on to the application"
    }

    /// A gesture phase no binding fired at, and why, as a compact JSON object (no line feed),
    /// a line kind of its own that follows the phase's line (docs/interface.md, «Output»):
    /// `t`, `"event":"no-binding"`, `gesture`, `phase`, `fingers`, `device`, then as on the
    /// phase's line `button` (a pointer gesture) and `mods` (modifiers held), and `reason`.
    ///
    /// ```swift
    /// ReportFormatter.json(noBinding: report, reason: "no binding matches (bound here: swipe left at 3:1)")
    /// // {"t":1234,"event":"no-binding","gesture":"swipe","phase":"recognized","fingers":1,"device":"pointer","button":3,"reason":"no binding matches (bound here: swipe left at 3:1)"}
    /// ```
    public static func json(noBinding report: GestureReport, reason: String) -> String {
        var out = "{\"t\":\(format(report.time.milliseconds)),\"event\":\"no-binding\",\"gesture\":\"\(report.gesture.rawValue)\""
        out += ",\"phase\":\"\(report.phase.rawValue)\",\"fingers\":\(report.fingers),\"device\":\"\(report.device.rawValue)\""
        if let button = report.button { out += ",\"button\":\(button)" }
        if !report.modifiers.isEmpty { out += ",\"mods\":" + report.modifiers.jsonArray }
        out += ",\"reason\":"
        JSONLiteral.appendString(reason, to: &out)
        return out + "}"
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
