import GestureEngine
import Testing

@testable import GestureConfig

/// What a new user writes first, and what the config answers.
@Suite("Config as a new user writes it")
struct NewUserConfigTests {
    /// The one problem of `toml`, as `LINE:COLUMN: message`.
    private func problem(_ toml: String) -> String? {
        do {
            _ = try Config.parse(toml, file: "c.toml")
            return nil
        } catch {
            let errors = error.errors
            guard errors.count == 1, let e = errors.first else { return errors.map(\.description).joined(separator: "\n") }
            return "\(e.line):\(e.column): \(e.message)"
        }
    }

    @Test("Key names people use get the X name by meaning: enter is Return, altgr is not alt", arguments: [
        ("enter", "Return"), ("Enter", "Return"), ("altgr", "ISO_Level3_Shift"), ("AltGr", "ISO_Level3_Shift"),
        ("esc", "Escape"), ("pgup", "Page_Up"), ("del", "Delete"),
    ])
    func keyAliases(written: String, suggested: String) {
        let message = problem("[[bind]]\ngesture = \"swipe\"\naction = \"key ctrl+\(written)\"\n")
        #expect(message == "3:10: unknown key name '\(written)'; did you mean '\(suggested)'?")
    }

    @Test("Binding keys before any [[bind]] get the hint to add [[bind]]")
    func bindingKeysAtTopLevel() {
        let message = problem("gesture = \"swipe\"\n")
        #expect(message == "1:1: unknown key 'gesture'; 'gesture' is a binding key and is written before any [[bind]]: "
                    + "add a [[bind]] line above the binding's keys")
        let underRecognizer = problem("[recognizer]\naction = \"key a\"\n")
        #expect(underRecognizer?.hasPrefix("2:1: unknown key 'action' in [recognizer]; 'action' is a binding key and is written under [recognizer]") == true,
                "\(underRecognizer ?? "")")
    }

    @Test("A threshold outside [recognizer] and a button outside [pointer] say where they belong")
    func thresholdsOutsideTheirTable() {
        #expect(problem("slop_px = 5\n") == "1:1: unknown key 'slop_px'; 'slop_px' belongs in [recognizer]: add a [recognizer] line above it")
        // In a binding, `button` is that pointer binding's own trigger button.
        let inBind = problem("[[bind]]\ngesture = \"tap\"\naction = \"click left\"\nbutton = 2\n")
        #expect(inBind == "4:10: 'button' is the mouse button that starts a pointer gesture: it needs device = \"pointer\" in the same binding")
        #expect(problem("button = 2\n")?.hasPrefix("1:1: unknown key 'button'; 'button' belongs in [pointer]") == true)
        // A typo still gets its suggestion.
        #expect(problem("[recognizer]\nslop = 10\n") == "2:1: unknown key 'slop' in [recognizer]; did you mean 'slop_px'?")
    }

    @Test("Every threshold has an upper bound, reported at the value", arguments: ConfigReader.thresholds.map(\.key))
    func upperBounds(key: String) throws {
        let threshold = try #require(ConfigReader.thresholds.first { $0.key == key })
        // The maximum itself is fine.
        let atMaximum = "[recognizer]\n\(key) = \(ConfigReader.written(threshold.maximum))\n"
        let loaded = try Config.parse(atMaximum, file: "c.toml")
        #expect(loaded.settings[keyPath: threshold.property] == threshold.maximum)
        // Past it, an error at the value.
        let past = problem("[recognizer]\n\(key) = 1e9\n")
        let column = key.count + 4
        #expect(past == "2:\(column): '\(key)' must be at most \(ConfigReader.written(threshold.maximum)), not 1000000000: \(threshold.why)")
    }

    @Test("The defaults are well inside the bounds")
    func defaultsInsideBounds() {
        let defaults = RecognizerSettings()
        // A score's maximum, 1, is the end of its scale, not a bound of sense.
        for threshold in ConfigReader.thresholds where threshold.key != "stroke_min_score" {
            #expect(defaults[keyPath: threshold.property] * 5 <= threshold.maximum, "\(threshold.key)")
        }
    }

    @Test("A config without bindings is valid, with a warning that names it; one with bindings has none")
    func emptyConfigWarns() throws {
        let empty = try Config.parse("", file: "config.toml")
        let warnings = empty.warnings(source: "config.toml")
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("config.toml has no [[bind]] table, so no gesture does anything") == true)
        let onlyThresholds = try Config.parse("[recognizer]\nslop_px = 5\n", file: "config.toml")
        #expect(onlyThresholds.warnings(source: "config.toml").count == 1)
        let defaults = try Config.load(from: .embedded)
        #expect(defaults.warnings(source: DefaultConfig.fileName).isEmpty)
    }
}
