import GestureEngine
import Testing

@testable import GestureConfig

/// `modifiers` and a pointer binding's `button` in `[[bind]]` (docs/config.md, «Modifier keys and
/// trigger buttons»).
@Suite struct ModifierConfigTests {
    /// A binding with `lines` after a swipe right's gesture and action.
    private static func swipe(_ lines: String...) -> String {
        "[[bind]]\ngesture = \"swipe\"\ndirection = \"right\"\naction = \"key ctrl+c\"\n" + lines.map { $0 + "\n" }.joined()
    }

    static let written: [(String, Modifiers)] = [
        (#"modifiers = "super""#, .super), (#"modifiers = ["ctrl", "shift"]"#, [.ctrl, .shift]),
        (#"modifiers = ["super", "alt", "ctrl", "shift"]"#, [.shift, .ctrl, .alt, .super]), (#"modifiers = ["alt"]"#, .alt),
    ]

    @Test(arguments: written)
    func modifiersAreReadAsASet(_ line: String, _ expected: Modifiers) throws {
        let config = try Config.parse(Self.swipe(line), file: "c.toml")
        #expect(config.bindings.first?.trigger.modifiers == expected)
    }

    @Test func aBindingWithoutModifiersMatchesWhateverIsHeld() throws {
        let config = try Config.parse(Self.swipe(), file: "c.toml")
        #expect(config.bindings.first?.trigger.modifiers == nil)
    }

    @Test func aPointerBindingNamesItsButton() throws {
        let config = try Config.parse(Self.swipe(#"device = "pointer""#, "button = 1", #"modifiers = "super""#), file: "c.toml")
        let trigger = try #require(config.bindings.first?.trigger)
        #expect(trigger.button == 1)
        #expect(trigger.pointerButton(default: config.pointerButton) == 1)
        #expect(PointerPresses(triggers: [trigger], defaultButton: 3).buttons.map(\.button) == [1])
    }

    static let badBindings: [BadConfig] = [
        BadConfig("an unknown modifier", swipe(#"modifiers = "win""#), at: "5:13",
                  "unknown modifier key 'win' (allowed: shift, ctrl, alt, super)"),
        BadConfig("a misspelt modifier gets a suggestion", swipe(#"modifiers = "control""#), at: "5:13",
                  "unknown modifier key 'control'; did you mean 'ctrl'?"),
        BadConfig("an unknown modifier in an array, at that name", swipe(#"modifiers = ["ctrl", "meta"]"#), at: "5:22",
                  "unknown modifier key 'meta'"),
        BadConfig("a repeated modifier", swipe(#"modifiers = ["ctrl", "shift", "ctrl"]"#), at: "5:31",
                  "'ctrl' is named twice in 'modifiers'"),
        BadConfig("an empty array of modifiers", swipe("modifiers = []"), at: "5:13",
                  "'modifiers' must name at least one key"),
        BadConfig("modifiers that are not names", swipe("modifiers = 4"), at: "5:13",
                  "'modifiers' must be a modifier key name or an array of them"),
        BadConfig("a modifier that is not a string", swipe("modifiers = [true]"), at: "5:14",
                  "each of 'modifiers' must be a modifier key name"),
        BadConfig("a button on a binding of any device", swipe("button = 1"), at: "5:10",
                  "'button' is the mouse button that starts a pointer gesture: it needs device = \"pointer\""),
        BadConfig("a button on a touchscreen binding", swipe(#"device = "touchscreen""#, "button = 1"), at: "6:10",
                  "it needs device = \"pointer\""),
        BadConfig("a wheel button", swipe(#"device = "pointer""#, "button = 4"), at: "6:10",
                  "'button' must be 1, 2, 3, 8 or 9, not 4: 4 to 7 are the wheel's steps, which cannot be held"),
        BadConfig("a button beyond the mouse's", swipe(#"device = "pointer""#, "button = 12"), at: "6:10",
                  "'button' must be 1, 2, 3, 8 or 9, not 12"),
        BadConfig("a button that is not a number", swipe(#"device = "pointer""#, #"button = "left""#), at: "6:10",
                  "'button' must be an integer (1, 2, 3, 8 or 9), not a string"),
    ]

    @Test("Each mistake is one error at its value", arguments: badBindings)
    func mistakesAreReportedAtTheValue(_ bad: BadConfig) throws {
        try bad.expectOneProblemAtItsPosition()
    }

    @Test func bindingsThatDifferOnlyInModifiersAreNotDuplicates() throws {
        let config = try Config.parse(
            Self.swipe() + Self.swipe(#"modifiers = "ctrl""#) + Self.swipe(#"modifiers = ["ctrl", "shift"]"#), file: "c.toml")
        #expect(config.bindings.count == 3)
        let again = Self.swipe(#"modifiers = ["shift", "ctrl"]"#) + Self.swipe(#"modifiers = ["ctrl", "shift"]"#)
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(again, file: "c.toml") }
        #expect(thrown.errors.map(\.description) == ["c.toml:6:1: duplicate binding: same as the one at 1:1"])
    }

    @Test func pointerBindingsOfDifferentButtonsAreNotDuplicates() throws {
        let config = try Config.parse(
            Self.swipe(#"device = "pointer""#) + Self.swipe(#"device = "pointer""#, "button = 1"), file: "c.toml")
        #expect(config.bindings.count == 2)
    }

    @Test func theTriggerButtonNamedOrNotIsOneBindingTwiceWhereverPointerIsWritten() throws {
        let toml = Self.swipe(#"device = "pointer""#, "button = 2") + Self.swipe(#"device = "pointer""#) + "[pointer]\nbutton = 2\n"
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "c.toml") }
        #expect(thrown.errors.map(\.description) == ["c.toml:7:1: duplicate binding: same as the one at 1:1"])
    }

    @Test func pointerButtonZeroKeepsTheBindingsThatNameTheirButton() throws {
        let config = try Config.parse(
            "[pointer]\nbutton = 0\n" + Self.swipe() + Self.swipe(#"device = "pointer""#, "button = 8", #"modifiers = "alt""#),
            file: "c.toml")
        let presses = PointerPresses(triggers: config.bindings.map(\.trigger), defaultButton: config.pointerButton)
        #expect(presses.buttons.map(\.button) == [8])
        #expect(presses.starts(button: 8, modifiers: .alt) && !presses.starts(button: 8, modifiers: []))
    }

    @Test func aStrokeAndAPanAreApartWithDifferentModifiersOrButtons() throws {
        let stroke = "[[bind]]\ngesture = \"stroke\"\nshape = \"v\"\ndevice = \"pointer\"\naction = \"key a\"\n"
        let pan = "[[bind]]\ngesture = \"pan\"\ndevice = \"pointer\"\naction = \"key b\"\n"
        _ = try Config.parse(stroke + "modifiers = \"super\"\n" + pan + "modifiers = \"ctrl\"\n", file: "c.toml")
        _ = try Config.parse(stroke + "button = 1\n" + pan, file: "c.toml")
        // A pan that names no modifiers matches a Super drag too: the stroke could never fire.
        let thrown = try #require(throws: ConfigErrors.self) {
            try Config.parse(stroke + "modifiers = \"super\"\n" + pan, file: "c.toml")
        }
        #expect(thrown.errors.first?.message.contains("competes with the stroke at 1:1") == true, "\(thrown)")
    }

    @Test func buttonOutsideABindingOrThePointerTableSaysWhereItBelongs() throws {
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse("button = 2\n", file: "c.toml") }
        #expect(thrown.errors.first?.message
            == "unknown key 'button'; 'button' belongs in [pointer] (the trigger button of every pointer binding) or in a pointer "
                + "[[bind]] (that binding's own): add a [pointer] or [[bind]] line above it")
    }

    @Test func theDefaultConfigsCommentedExampleLoadsWhenUncommented() throws {
        let lines = DefaultConfig.text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("# Modifier keys:") })
        let block = lines[start...].prefix { !$0.isEmpty }
        let toml = block.filter { $0 == "# [[bind]]" || $0.hasPrefix("# ") && $0.contains(" = ") }
            .map { $0.dropFirst(2) }.joined(separator: "\n")
        let config = try Config.parse(toml, file: "example.toml")
        #expect(config.bindings.map(\.trigger.modifiers) == [.super, .ctrl])
        #expect(config.bindings.first?.trigger.button == 1)
    }
}
