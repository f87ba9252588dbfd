public import GestureConfig
public import GestureEngine

/// The words the OSD shows (docs/config.md, «Feedback»): what fired and what it did
/// (`circle → key F5`), or why a stroke did nothing (`no shape: best circle 0.74`).
///
/// ```swift
/// FeedbackText.fired(report, binding: binding)            // "3-finger swipe left → workspace next"
/// FeedbackText.missed(miss, strokeMinPx: 60)              // "no shape: best circle 0.74"
/// ```
public enum FeedbackText {
    /// A gesture that fired, and its binding's action as written (cut short as log lines cut
    /// it); a stroke that matched a shape but fired nothing says so.
    public static func fired(_ report: GestureReport, binding: Binding?) -> String {
        guard let binding else { return "\(name(of: report)): nothing bound here" }
        return name(of: report) + separator + binding.actionExcerpt
    }

    /// Why a stroke drawn to its lift fired nothing.
    ///
    /// - Parameter strokeMinMm: the device's `stroke_min_mm` when its rule is in millimetres
    ///   (the path's ``StrokeMiss/minimumDiagonal`` is then that on its monitor), else nil.
    public static func missed(_ miss: StrokeMiss, strokeMinMm: Double?) -> String {
        if let shape = miss.shape, let score = miss.score { return "no shape: best \(shape) \(twoDecimals(score))" }
        if miss.diagonal < miss.minimumDiagonal {
            let across = "too small for a shape: \(Int(miss.diagonal.rounded())) px across"
            guard let strokeMinMm else { return "\(across), stroke_min_px is \(Int(miss.minimumDiagonal.rounded()))" }
            return "\(across), stroke_min_mm is \(MinimumSize.written(strokeMinMm)) (\(Int(miss.minimumDiagonal.rounded())) px here)"
        }
        return "no shape"
    }

    /// A gesture as a person names it: a stroke by its shape, others with their fingers, taps
    /// and direction (`double tap`, `3-finger swipe left`, `pinch out`).
    public static func name(of report: GestureReport) -> String {
        if report.gesture == .stroke, let shape = report.shape { return shape }
        var words: [String] = []
        if report.fingers > 1 { words.append("\(report.fingers)-finger") }
        switch report.gesture {
        case .tap:
            let taps = report.taps ?? 1
            words.append(taps == 2 ? "double tap" : taps == 3 ? "triple tap" : "tap")
        case .longPress:
            words.append("long press")
        case .swipe, .pan, .pinch, .rotate, .stroke:
            words.append(report.gesture.rawValue)
        }
        if let direction = report.direction { words.append(direction.rawValue) }
        if let edge = report.edge { words.append("from the \(edge.rawValue) edge") }
        return words.joined(separator: " ")
    }

    /// Every character an OSD of `config` can show: the fixed words and numbers (printable
    /// ASCII and the arrow), its shapes' names and its bindings' action excerpts; none when no
    /// device names any gesture. The OSD's letters are made ready for these before the first
    /// gesture (``FeedbackCanvas/prepare(characters:)``).
    public static func characters(in config: Config) -> Set<Unicode.Scalar> {
        let devices = [config.feedback.base] + Array(config.feedback.devices.values)
        guard devices.contains(where: { !$0.osd.isEmpty }) else { return [] }
        var characters = Set((0x20...0x7e).compactMap(Unicode.Scalar.init))
        characters.formUnion(separator.unicodeScalars)
        for shape in config.allShapes { characters.formUnion(shape.name.unicodeScalars) }
        for binding in config.bindings { characters.formUnion(binding.actionExcerpt.unicodeScalars) }
        return characters
    }

    /// Between a gesture's name and its action: the one character of the fixed texts beyond
    /// printable ASCII.
    static let separator = " → "

    /// `0.74`: a score as the OSD shows it (two decimals, rounded).
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((min(max(value, 0), 1) * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
