import GestureEngine
import TOML

// `[feedback]` and `[feedback.pointer]`, `[feedback.touchscreen]`, `[feedback.touchpad]`
// (docs/config.md, «Feedback»): the same keys, a device's table over `[feedback]`.

extension ConfigReader {
    /// Every key of `[feedback]` and its device tables, in docs/config.md's order.
    static let feedbackKeys = ["trail", "trail_color", "trail_width", "osd", "osd_duration_ms"]
    /// The keys that have no effect for a device that draws no path (a touchpad).
    static let trailKeys: Set<String> = ["trail", "trail_color", "trail_width"]

    /// Reads `[feedback]`, then each device table over it.
    mutating func readFeedback(_ table: TOMLTableView, at path: TOMLPath) -> Feedback {
        var feedback = Feedback()
        feedback.base = readFeedbackSettings(table, at: path, over: Feedback.Settings(), tableName: "[feedback]")
        for (key, value) in table {
            guard let device = DeviceKind(rawValue: key) else { continue }
            let devicePath = path.appending(key)
            guard let deviceTable = self.table(value, at: devicePath) else { continue }
            let name = "[feedback.\(key)]"
            feedback.devices[device] = readFeedbackSettings(deviceTable, at: devicePath, over: feedback.base, tableName: name)
            if !device.descriptor.isOnScreen {
                for (unused, _) in deviceTable where Self.trailKeys.contains(unused) {
                    notes.append(ConfigError(
                        at: position(of: devicePath.appending(unused), .key),
                        message: "'\(unused)' in \(name) has no effect: a \(key)'s gestures are not drawn on the screen, so they leave no trail"))
                }
            }
        }
        return feedback
    }

    private mutating func readFeedbackSettings(
        _ table: TOMLTableView, at path: TOMLPath, over start: Feedback.Settings, tableName: String
    ) -> Feedback.Settings {
        var settings = start
        for (key, value) in table {
            let keyPath = path.appending(key)
            if tableName == "[feedback]", DeviceKind(rawValue: key) != nil { continue }
            switch key {
            case "trail":
                if let flag = boolean(value, key: key, at: keyPath) { settings.trail = flag }
            case "trail_color":
                guard let text = string(value, key: key, at: keyPath) else { continue }
                guard let color = RGBAColor(hex: text) else {
                    report("'trail_color' must be a colour written \"#RRGGBB\" or \"#RRGGBBAA\" (AA: opacity, ff is opaque), not \"\(Excerpt.of(text))\"",
                           at: keyPath)
                    continue
                }
                settings.trailColor = color
            case "trail_width":
                guard let width = number(value, key: key, at: keyPath, zeroAllowed: false) else { continue }
                guard width <= Feedback.maximumTrailWidth else {
                    report("'trail_width' must be at most \(Self.written(Feedback.maximumTrailWidth)), not \(Self.written(width)): a wider line hides what it is drawn over",
                           at: keyPath)
                    continue
                }
                settings.trailWidth = width
            case "osd":
                if let gestures = readOSD(value, at: keyPath) { settings.osd = gestures }
            case "osd_duration_ms":
                guard let ms = number(value, key: key, at: keyPath, zeroAllowed: false) else { continue }
                let range = Feedback.osdDurationRange
                guard range.contains(ms) else {
                    report("'osd_duration_ms' must be from \(Self.written(range.lowerBound)) to \(Self.written(range.upperBound)), not \(Self.written(ms)): shorter cannot be read, longer is in the way",
                           at: keyPath)
                    continue
                }
                settings.osdDurationMs = ms
            default:
                if tableName == "[feedback]", value.kind == .table {
                    let devices = DeviceKind.allCases.map(\.rawValue)
                    report("unknown table '\(Excerpt.of(key))' in [feedback]\(Suggestion.clause(for: key, among: devices)) "
                               + "(device tables: \(devices.map { "[feedback.\($0)]" }.joined(separator: ", ")))",
                           at: keyPath, .key)
                    continue
                }
                let known = tableName == "[feedback]" ? Self.feedbackKeys + DeviceKind.allCases.map(\.rawValue) : Self.feedbackKeys
                reportUnknownKey(key, in: tableName, among: known, at: keyPath)
            }
        }
        return settings
    }

    /// `osd`: true (every gesture), false (none), or an array of gesture names.
    private mutating func readOSD(_ value: TOMLNode, at path: TOMLPath) -> Set<GestureKind>? {
        if let flag = value.bool { return flag ? Set(GestureKind.allCases) : [] }
        guard let items = value.array else {
            report("'osd' must be true, false or an array of gestures (such as [\"stroke\", \"swipe\"]), not \(Self.noun(value.kind))", at: path)
            return nil
        }
        var gestures: Set<GestureKind> = []
        var valid = true
        for (index, item) in items.enumerated() {
            let itemPath = path.appending(index: index)
            guard let text = string(item, key: "osd", at: itemPath) else {
                valid = false
                continue
            }
            guard let gesture = GestureKind(rawValue: text) else {
                reportUnknownValue(text, noun: "gesture", allowed: GestureKind.allCases.map(\.rawValue), at: itemPath)
                valid = false
                continue
            }
            gestures.insert(gesture)
        }
        return valid ? gestures : nil
    }
}
