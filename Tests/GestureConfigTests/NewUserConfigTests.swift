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

    @Test("Binding keys outside a [[bind]] say that a binding starts with its [[bind]] line")
    func bindingKeysAtTopLevel() {
        let message = problem("gesture = \"swipe\"\n")
        #expect(message == "1:1: 'gesture' is a binding key, but no [[bind]] line comes before it: "
                    + "a binding starts with [[bind]] on a line of its own, and its keys follow it")
        let underRecognizer = problem("[recognizer]\naction = \"key a\"\n")
        #expect(underRecognizer == "2:1: 'action' is a binding key, but it is under [recognizer], not under a [[bind]] line: "
                    + "a binding starts with [[bind]] on a line of its own, and its keys follow it")
    }

    /// The slips of a first config, each with what it says and where: the place to look first.
    @Test("A newcomer's TOML slips are told in words, at the place to look", arguments: [
        // A string without its closing quote: at its opening quote, not where the parser noticed.
        ("[[bind]]\ngesture = \"swipe\naction = \"key a\"\n",
         "2:11: TOML syntax error while parsing string: the string that starts here has no closing \" on its line: add the \" where the string ends"),
        ("[[bind]]\ngesture = \"swipe\"\naction = 'key a",
         "3:10: TOML syntax error while parsing string: the string that starts here has no closing ' on its line: add the ' where the string ends"),
        ("[[bind]]\ngesture = \"swipe\"\naction = \"\"\"key a\n\n",
         "3:10: TOML syntax error while parsing string: the string that starts here is not closed: the text ends before its closing \"\"\""),
        // [bind] after [[bind]] is told as a lone [bind] is.
        ("[[bind]]\ngesture = \"swipe\"\naction = \"key a\"\n[bind]\ngesture = \"tap\"\n",
         "4:2: bindings are an array of tables: write [[bind]], not [bind]"),
        ("[bind]\ngesture = \"tap\"\n", "1:2: bindings are an array of tables: write [[bind]], not [bind]"),
        ("[[shape]]\nname = \"L\"\npoints = [[0, 0], [0, 1], [1, 1]]\n[shape]\n", "4:2: shapes are an array of tables: write [[shape]], not [shape]"),
        // The second binding without its [[bind]] line.
        ("[[bind]]\ngesture = \"swipe\"\naction = \"key a\"\n\ngesture = \"tap\"\naction = \"key b\"\n",
         "5:1: 'gesture' is set twice in this binding (first at 2:1): a binding starts with [[bind]] on a line of its own, and its keys follow it"),
        // Key, =, value.
        ("[[bind]]\ngesture \"swipe\"\n",
         "2:9: TOML syntax error while parsing key-value pair: expected '=' after the key 'gesture', saw '\"': put = between the key and its value"),
        ("[[bind]]\ngesture: \"swipe\"\n",
         "2:8: TOML syntax error while parsing key-value pair: expected '=' after the key 'gesture', saw ':': TOML writes gesture = value, not gesture: value"),
        ("[[bind]]\nrepeat every = 100\n",
         "2:8: TOML syntax error while parsing key-value pair: expected '=' after the key 'repeat', saw 'e': a key without quotes has no spaces"),
        ("[[bind]]\ngesture == \"swipe\"\n",
         "2:10: TOML syntax error while parsing key-value pair: expected a value, saw '=': one = joins a key and its value"),
        ("[[bind]]\ngesture =\n", "2:10: TOML syntax error while parsing key-value pair: expected a value, saw '\\n': write the value after the ="),
        // Headers.
        ("[[bind]\ngesture = \"tap\"\n", "1:8: TOML syntax error while parsing table header: expected ']', saw '\\n': write the header as [[bind]]"),
        ("[recognizer\n", "1:12: TOML syntax error while parsing table header: expected ']', saw '\\n': write the header as [recognizer]"),
        // Values without their quotes, or written as elsewhere.
        ("[[bind]]\ngesture = swipe\n",
         "2:11: TOML syntax error while parsing key-value pair: expected a value (a string, number, boolean, date, array or inline table), saw 'swipe': text is written in quotes: \"swipe\""),
        ("[[bind]]\ngesture = \"swipe\"\naction = key ctrl+c # copy\n",
         "3:10: TOML syntax error while parsing key-value pair: expected a value (a string, number, boolean, date, array or inline table), saw 'key': text is written in quotes: \"key ctrl+c\""),
        ("[[bind]]\ngesture = \"swipe\"\naction = [\"key a\", key b]\n",
         "3:20: TOML syntax error while parsing array: expected a value (a string, number, boolean, date, array or inline table), saw 'key': text is written in quotes: \"key b\""),
        ("[touchscreen]\nclaim_on_second_finger = yes\n",
         "2:26: TOML syntax error while parsing key-value pair: expected a value (a string, number, boolean, date, array or inline table), saw 'yes': a boolean is written true or false"),
        ("[[bind]]\ngesture = \u{201C}swipe\u{201D}\n",
         "2:11: TOML syntax error while parsing key-value pair: expected a value, saw '\u{201C}': TOML's quotes are the straight \" and ', not curly ones"),
        ("[recognizer]\nslop_px = 10px\n",
         "2:13: TOML syntax error while parsing number: '10px' is not a TOML integer or float (such as 42, -17, 1_000, 0x1F, 3.14, -2e-3): 'p' is not expected there; a number is written without a unit"),
        // More on the line than one value.
        ("[[bind]]\ngesture = \"swipe\"\naction = \"exec notify-send \"hi\"\"\n",
         "3:29: TOML syntax error while parsing key-value pair: expected a new line or a comment after the value, saw 'h': the string ended at the \" before it; write a \" inside a string as \\\" (or put the string in '…')"),
        ("[[bind]]\ngesture = \"swipe\",\n",
         "2:18: TOML syntax error while parsing key-value pair: expected a new line or a comment after the value, saw ',': nothing but a comment follows a value on its line (no ',' or ';')"),
        ("[[bind]]\ngesture = \"swipe\" fingers = 3\n",
         "2:19: TOML syntax error while parsing key-value pair: expected a new line or a comment after the value, saw 'f': each key = value is on a line of its own"),
        // Arrays and inline tables left open.
        ("[[bind]]\ngesture = \"swipe\"\naction = [\"key a\", \"key b\"\ndirection = \"left\"\n",
         "4:1: TOML syntax error while parsing array: expected ',' or ']', saw 'd': the array that starts at 3:10 is not closed"),
        ("[[bind]]\ngesture = \"swipe\"\naction = [\"key a\" \"key b\"]\n",
         "3:19: TOML syntax error while parsing array: expected ',' or ']', saw '\"': the values of an array are separated by ','"),
        // Saved as UTF-16 without a byte-order mark.
        ("[\0[\0b\0", "1:2: a config may not contain NUL characters; the file looks like UTF-16: save it as UTF-8"),
    ])
    func tomlSlips(text: String, expected: String) {
        #expect(problem(text) == expected)
    }

    @Test("What editors write besides: tabs, a byte-order mark, Windows line ends")
    func editorHabits() throws {
        for text in [
            "[[bind]]\n\tgesture\t=\t\"swipe\"\n\taction = \"key a\"\n",
            "\u{FEFF}[[bind]]\ngesture = \"swipe\"\naction = \"key a\"\n",
            "[[bind]]\r\ngesture = \"swipe\"\r\naction = \"key a\" # a comment\r\n",
        ] {
            let config = try Config.parse(text, file: "c.toml")
            #expect(config.bindings.count == 1, "\(text.debugDescription)")
        }
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
