import Testing

@testable import GestureConfig

@Suite("Keysyms")
struct KeysymTests {
    static let names: [(String, UInt32)] = [
        ("BackSpace", 0xFF08),
        ("Return", 0xFF0D),
        ("Right", 0xFF53),
        ("Control_L", 0xFFE3),
        ("Super_L", 0xFFEB),
        ("a", 0x61),
        ("A", 0x41),
        ("1", 0x31),
        ("plus", 0x2B),
        ("minus", 0x2D),
        ("F12", 0xFFC9),
        ("EuroSign", 0x20AC),
        ("XF86AudioRaiseVolume", 0x1008_FF13),
        ("XF86MonBrightnessUp", 0x1008_FF02),
        ("XF86BrightnessAuto", 0x1008_10F4),  // an _EVDEVK(0x0F4) keysym
        ("U", 0x55),  // a name beats the U+XXXX spelling
    ]

    @Test("Names from keysymdef.h and XF86keysym.h resolve to their values", arguments: names)
    func lookupByName(_ name: String, _ value: UInt32) {
        #expect(Keysym.value(named: name) == value)
        #expect(Keysym.isName(name))
    }

    static let numericSpellings: [(String, UInt32?)] = [
        ("0x1008ff13", 0x1008_FF13),
        ("0XFF53", 0xFF53),
        ("0x0", nil),
        ("0x20000000", nil),  // keysyms are 29-bit
        ("0x", nil),
        ("0xfg", nil),
        ("U20AC", 0x0100_20AC),
        ("U+20AC", 0x0100_20AC),
        ("U+00E9", 0xE9),  // Latin-1 code points are their own keysyms
        ("U0041", 0x41),
        ("U+0007", nil),  // C0 control
        ("U+0085", nil),  // C1 control
        ("U+110000", nil),  // beyond Unicode
        ("U+", nil),
        ("u20AC", nil),  // like XStringToKeysym, only a capital U
    ]

    @Test("Numeric and Unicode spellings work like XStringToKeysym", arguments: numericSpellings)
    func numericSpelling(_ text: String, _ value: UInt32?) {
        #expect(Keysym.value(named: text) == value)
    }

    @Test("Unknown and differently cased names are not keysyms", arguments: ["right", "control_l", "Ctrl", "", "XF86Nope"])
    func unknownNames(_ name: String) {
        #expect(Keysym.value(named: name) == nil)
    }

    @Test("Reverse lookup gives the current name, or U+hex for unnamed Unicode keysyms")
    func reverseLookup() {
        #expect(Keysym.name(of: 0xFF53) == "Right")
        #expect(Keysym.name(of: 0x1008_FF13) == "XF86AudioRaiseVolume")
        // 0x27 is both `apostrophe` and the deprecated `quoteright`.
        #expect(Keysym.name(of: 0x27) == "apostrophe")
        #expect(Keysym.value(named: "quoteright") == 0x27)
        #expect(Keysym.name(of: 0x0101_F600) == "U1F600")
        #expect(Keysym.name(of: 0x0100_20AC) == "U20AC")
        #expect(Keysym.name(of: 0x1234_5678) == nil)
    }

    @Test("The generated table is complete")
    func tableSize() {
        // keysymdef.h and XF86keysym.h define about 2,400 names.
        #expect(Keysym.table.count > 2000)
        #expect(Set(Keysym.table.map(\.name)).count == Keysym.table.count)
        #expect(Keysym.table.allSatisfy { $0.value != 0 && $0.value <= Keysym.maximumValue })
    }
}

@Suite("Shell words")
struct ShellWordsTests {
    static let splits: [(String, [String])] = [
        ("", []),
        ("   ", []),
        ("firefox", ["firefox"]),
        ("  a   b\tc\nd  ", ["a", "b", "c", "d"]),
        ("'a b' c", ["a b", "c"]),
        (#""a b" c"#, ["a b", "c"]),
        (#"'it'\''s'"#, ["it's"]),
        (#"a"b c"'d e'f"#, ["ab cd ef"]),
        ("'' \"\"", ["", ""]),
        (#"'$HOME \n' "\$HOME""#, [#"$HOME \n"#, "$HOME"]),
        (#""say \"hi\" \\ \a""#, [#"say "hi" \ \a"#]),
        (#"a\ b c\\d \'e"#, ["a b", #"c\d"#, "'e"]),
        ("a\\\nb", ["ab"]),
        ("\"line\\\ncontinued\"", ["linecontinued"]),
        ("~ * $HOME `x`", ["~", "*", "$HOME", "`x`"]),
        ("héllo wörld", ["héllo", "wörld"]),
    ]

    @Test("Words split like a POSIX shell's, with no expansion", arguments: splits)
    func split(_ text: String, _ words: [String]) throws {
        #expect(try ShellWords.split(text) == words)
    }

    @Test("Unterminated quotes and trailing backslashes are errors", arguments: ["'a", #""a"#, #""a\""#, #"a\"#, #"a 'b"c"#])
    func unterminated(_ text: String) {
        #expect(throws: ActionParseError.self) { try ShellWords.split(text) }
    }

    @Test("Quoting survives a split", arguments: [["a"], ["a b"], ["it's", "$HOME"], [""], ["x\ny", "\\"], ["héllo"]])
    func quoteRoundTrip(_ words: [String]) throws {
        #expect(try ShellWords.split(words.map(ShellWords.quote).joined(separator: " ")) == words)
    }
}

@Suite("Suggestions")
struct SuggestionTests {
    @Test("Close misspellings get a suggestion; unrelated words do not")
    func suggestions() {
        #expect(Suggestion.closest(to: "slop", among: ConfigReader.thresholds.map(\.key)) == "slop_px")
        #expect(Suggestion.closest(to: "fingrs", among: ConfigReader.bindingKeys) == "fingers")
        #expect(Suggestion.closest(to: "Rigth", among: ["Left", "Right"]) == "Right")  // a swap is one edit
        #expect(Suggestion.closest(to: "GESTURE", among: ConfigReader.bindingKeys) == "gesture")
        #expect(Suggestion.closest(to: "colour", among: ConfigReader.topLevelKeys) == nil)
        #expect(Suggestion.closest(to: "", among: ["a"]) == nil)
        #expect(Suggestion.closest(to: "previous", among: ["next", "prev"]) == "prev")
        #expect(Suggestion.closest(to: "esc", among: ["less", "Escape"]) == "Escape")  // a prefix beats 2 edits
        #expect(Suggestion.closest(to: "win", among: ["Find"]) == nil)  // 2 edits are too many for 3 letters
        #expect(Suggestion.clause(for: "x", among: ["recognizer"]) == "")
    }
}
