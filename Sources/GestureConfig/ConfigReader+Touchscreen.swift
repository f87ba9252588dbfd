import TOML

// `[touchscreen]` (docs/config.md): when touches are taken from applications, and which
// output the touchscreen is mapped onto.

extension ConfigReader {
    static let touchscreenKeys = ["claim_on_second_finger", "output"]

    /// The longest output name taken: RandR names are short (`eDP-1`, `DP-3-1`); a longer one
    /// is a mistake, reported rather than looked for on every screen change.
    static let longestOutputName = 64

    /// Reads `[touchscreen]` into `config`.
    mutating func readTouchscreen(_ table: TOMLTableView, at path: TOMLPath, into config: inout Config) {
        for (key, value) in table {
            let keyPath = path.appending(key)
            switch key {
            case "claim_on_second_finger":
                if let flag = boolean(value, key: key, at: keyPath) { config.claimOnSecondFinger = flag }
            case "output":
                if let output = touchscreenOutput(value, at: keyPath) { config.touchscreenOutput = output }
            default:
                reportUnknownKey(key, in: "[touchscreen]", among: Self.touchscreenKeys, at: keyPath)
            }
        }
    }

    private mutating func touchscreenOutput(_ value: TOMLNode, at path: TOMLPath) -> TouchscreenOutput? {
        guard let name = value.string else {
            report("'output' must be a string (an output's name as xrandr lists it, such as \"eDP-1\", or \"auto\"), not \(Self.noun(value.kind))",
                   at: path)
            return nil
        }
        if name.isEmpty || name.allSatisfy(\.isWhitespace) {
            report("'output' is empty: write an output's name as xrandr lists it (\"eDP-1\"), or \"auto\"", at: path)
            return nil
        }
        if name.unicodeScalars.count > Self.longestOutputName {
            report("'output' is not an output's name: RandR names are short (\"eDP-1\", \"HDMI-1\"), not \(name.unicodeScalars.count) characters",
                   at: path)
            return nil
        }
        return TouchscreenOutput(written: name)
    }
}
