import GestureEngine
import TOML

// `[recognizer.touchscreen]`, `[recognizer.touchpad]`, `[recognizer.pointer]` (docs/config.md):
// the same keys as `[recognizer]`, overriding it for that device's gestures.

extension ConfigReader {
    /// Every key `[recognizer]` takes: the thresholds, then the device tables.
    static let recognizerKeys = thresholdKeys + DeviceKind.allCases.map(\.rawValue)

    /// Whether a `[recognizer]` key names a device's own table (checked to be a table when read).
    static func isDeviceTable(_ key: String, _ value: TOMLNode) -> Bool {
        // A device key that is no table is read too, to say it must be one.
        DeviceKind(rawValue: key) != nil
    }

    /// The thresholds a device never uses (``DeviceDescriptor/reads(_:)``), with why: a key
    /// there is valid (the same bounds are checked) but has no effect, which ``Config/notes`` says.
    static func unusedThresholds(for device: DeviceKind) -> (keys: Set<String>, why: String) {
        let keys = Set(thresholds.filter { !device.descriptor.reads($0.property) }.map(\.key))
        switch device {
        case .touchscreen:
            return (keys, "")
        case .touchpad:
            return (keys, "a touchpad makes swipes, pans, pinches and rotates, with the finger count the X server reports, and no edge gestures or strokes")
        case .pointer:
            return (keys, "a pointer gesture is a 1-finger long-press, swipe, pan or stroke")
        }
    }

    /// `[recognizer.mouse]`: the device tables there are, and the closest one.
    mutating func reportUnknownDeviceTable(_ key: String, at path: TOMLPath) {
        let devices = DeviceKind.allCases.map(\.rawValue)
        report("unknown table '\(Excerpt.of(key))' in [recognizer]\(Suggestion.clause(for: key, among: devices)) "
                   + "(device tables: \(devices.map { "[recognizer.\($0)]" }.joined(separator: ", ")))",
               at: path, .key)
    }

    /// Reads each device table of `[recognizer]` over `base` (the `[recognizer]` values).
    mutating func readDeviceRecognizers(
        _ table: TOMLTableView, at path: TOMLPath, base: RecognizerSettings
    ) -> [DeviceKind: RecognizerSettings] {
        var result: [DeviceKind: RecognizerSettings] = [:]
        for (key, value) in table {
            guard Self.isDeviceTable(key, value), let device = DeviceKind(rawValue: key) else { continue }
            let devicePath = path.appending(key)
            guard let deviceTable = self.table(value, at: devicePath) else { continue }
            let name = "[recognizer.\(key)]"
            result[device] = readRecognizer(deviceTable, at: devicePath, over: base, tableName: name)
            let unused = Self.unusedThresholds(for: device)
            for (threshold, _) in deviceTable where unused.keys.contains(threshold) {
                notes.append(ConfigError(
                    at: position(of: devicePath.appending(threshold), .key),
                    message: "'\(threshold)' in \(name) has no effect: \(unused.why)"))
            }
            noteUnusedMillimetres(deviceTable, of: device, at: devicePath)
        }
        return result
    }
}
