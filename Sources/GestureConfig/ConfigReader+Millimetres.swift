import GestureEngine
import TOML

// `slop_mm`, `swipe_min_mm` … (docs/config.md, «Distances in millimetres»): each distance of
// `[recognizer]` (and of its device tables) in millimetres on the screen, beside its `_px` key.
//
// Decided: a table that gives one distance both ways is an error (which one was meant cannot
// be known); a device table's key replaces `[recognizer]`'s, whichever unit either is written
// in. A touchpad keeps pixels: an `_mm` key in `[recognizer.touchpad]` has no effect (a note
// says so), and the touchpad takes `[recognizer]`'s `_px` values where `[recognizer]` gives mm.

extension ConfigReader {
    /// A distance in millimetres: its key, the settings property it sets, its pixel
    /// counterpart (which it replaces), and its bounds.
    struct MillimetreThreshold: Sendable {
        var key: String
        var property: any WritableKeyPath<RecognizerSettings, Double?> & Sendable
        /// The `_px` key (or `swipe_min_velocity`) of the same threshold.
        var pixelKey: String
        var zeroAllowed: Bool
        var maximum: Double
        /// Why more than ``maximum`` makes no sense, for the error message.
        var why: String
    }

    /// Every distance that may be given in millimetres, in docs/config.md's order. The maxima
    /// are the pixel ones' at 96 dpi, rounded: the longest distances a little over the width of
    /// an 85" TV, the tap's wander and the edge zone a quarter of a metre.
    static let millimetreThresholds: [MillimetreThreshold] = [
        MillimetreThreshold(key: "slop_mm", property: \.slopMm, pixelKey: "slop_px", zeroAllowed: true, maximum: 250,
                            why: "more would let every touch count as a tap"),
        MillimetreThreshold(key: "multi_tap_distance_mm", property: \.multiTapDistanceMm, pixelKey: "multi_tap_distance_px",
                            zeroAllowed: true, maximum: 2_500, why: "that is wider than any screen"),
        MillimetreThreshold(key: "swipe_min_mm", property: \.swipeMinMm, pixelKey: "swipe_min_px", zeroAllowed: false,
                            maximum: 2_500, why: "that is wider than any screen"),
        MillimetreThreshold(key: "swipe_min_velocity_mm", property: \.swipeMinVelocityMm, pixelKey: "swipe_min_velocity",
                            zeroAllowed: false, maximum: 25, why: "no hand moves faster than 25 mm per ms"),
        MillimetreThreshold(key: "edge_mm", property: \.edgeMm, pixelKey: "edge_px", zeroAllowed: true, maximum: 250,
                            why: "more would make most gestures edge gestures"),
        MillimetreThreshold(key: "stroke_min_mm", property: \.strokeMinMm, pixelKey: "stroke_min_px", zeroAllowed: false,
                            maximum: 2_500, why: "that is wider than any screen"),
    ]

    /// Every threshold key a `[recognizer]` table takes: pixels, times and the rest, then the
    /// millimetres.
    static let thresholdKeys = thresholds.map(\.key) + millimetreThresholds.map(\.key)

    /// Reads an `_mm` key of `table` into `settings`, if `key` is one; returns whether it was.
    /// Its pixel counterpart given in the same table is an error (at the later of the two).
    mutating func readMillimetres(
        _ key: String, _ value: TOMLNode, in table: TOMLTableView, at keyPath: TOMLPath, into settings: inout RecognizerSettings
    ) -> Bool {
        guard let threshold = Self.millimetreThresholds.first(where: { $0.key == key }) else { return false }
        guard let number = number(value, key: key, at: keyPath, zeroAllowed: threshold.zeroAllowed) else { return true }
        guard number <= threshold.maximum else {
            report("'\(key)' must be at most \(Self.written(threshold.maximum)), not \(Self.written(number)): \(threshold.why)",
                   at: keyPath)
            return true
        }
        settings[keyPath: threshold.property] = number
        reportBothUnits(threshold, in: table, at: keyPath)
        return true
    }

    /// A `_px` key (or `swipe_min_velocity`) was read into `settings`: a distance in
    /// millimetres that a table below gave for it no longer counts.
    static func pixelsGiven(_ key: String, in settings: inout RecognizerSettings) {
        guard let threshold = millimetreThresholds.first(where: { $0.pixelKey == key }) else { return }
        settings[keyPath: threshold.property] = nil
    }

    /// The error for a table that gives one distance in pixels and in millimetres, at the one
    /// written later.
    private mutating func reportBothUnits(_ threshold: MillimetreThreshold, in table: TOMLTableView, at keyPath: TOMLPath) {
        guard table[threshold.pixelKey] != nil, let parent = keyPath.parent else { return }
        let pixelPath = parent.appending(threshold.pixelKey)
        let later = position(of: pixelPath, .key) > position(of: keyPath, .key) ? pixelPath : keyPath
        report("'\(threshold.pixelKey)' and '\(threshold.key)' are the same threshold in two units: keep one of them",
               at: later, .key)
    }

    /// The notes for `_mm` keys of `[recognizer.DEVICE]` that have no effect: all of the
    /// touchpad's (its distances are pointer motion), and those whose pixel key the device
    /// never reads either.
    mutating func noteUnusedMillimetres(_ deviceTable: TOMLTableView, of device: DeviceKind, at devicePath: TOMLPath) {
        let name = "[recognizer.\(device.rawValue)]"
        for (key, _) in deviceTable {
            guard let threshold = Self.millimetreThresholds.first(where: { $0.key == key }) else { continue }
            let why: String
            if !device.descriptor.isOnScreen {
                why = "a touchpad's distances are pointer motion, not lengths on the screen; write '\(threshold.pixelKey)'"
            } else if Self.unusedThresholds(for: device).keys.contains(threshold.pixelKey) {
                why = Self.unusedThresholds(for: device).why
            } else {
                continue
            }
            notes.append(ConfigError(at: position(of: devicePath.appending(key), .key), message: "'\(key)' in \(name) has no effect: \(why)"))
        }
    }
}
