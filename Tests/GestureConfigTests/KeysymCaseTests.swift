@testable import GestureConfig
import Testing

/// Capital letters in `key` combinations: a keyboard types them with Shift, so `ctrl+T` sends
/// Ctrl+Shift+T; the config stays valid and a note says so, with the two ways to write it.
@Suite("capital letters in key combinations")
struct KeysymCaseTests {
    @Test("the small letter of a capital letter's keysym, from the headers' characters", arguments: [
        ("T", "t"), ("Agrave", "agrave"), ("Aogonek", "aogonek"), ("Cyrillic_A", "Cyrillic_a"), ("Greek_OMEGA", "Greek_omega"),
        ("THORN", "thorn"), ("U0416", "Cyrillic_zhe"),
    ])
    func smallLetter(capital: String, small: String) throws {
        let keysym = try #require(Keysym.value(named: capital))
        let lowered = try #require(Keysym.smallLetter(of: keysym))
        #expect(Keysym.name(of: lowered) == small)
    }

    @Test("keysyms that are no capital letter have none", arguments: ["t", "ssharp", "plus", "Left", "F5", "Return", "Control_L", "XF86AudioMute", "5"])
    func noSmallLetter(name: String) throws {
        let keysym = try #require(Keysym.value(named: name))
        #expect(Keysym.smallLetter(of: keysym) == nil)
    }

    @Test("each table character maps back to its keysym, a current name before a deprecated one")
    func charactersRoundTrip() throws {
        #expect(Keysym.character(of: 0x54) == "T")
        #expect(Keysym.character(of: 0xFF0D) == nil)  // Return types no character
        #expect(Keysym.keysym(typing: "А") == Keysym.value(named: "Cyrillic_A"))
        #expect(Keysym.keysym(typing: "\u{2603}") == 0x0100_2603)  // no name: its Unicode keysym
        var checked = 0
        for entry in Keysym.table where !entry.deprecated {
            guard let character = entry.character else { continue }
            #expect(Keysym.character(of: Keysym.keysym(typing: character)) == character, "\(entry.name)")
            checked += 1
        }
        #expect(checked > 1000)
    }

    @Test("a capital letter with a modifier and no shift: a note naming what is sent and the two spellings", arguments: [
        ("key ctrl+T", "'key ctrl+T' sends ctrl+shift+t (T is typed with Shift); write ctrl+shift+t to say so, or ctrl+t"),
        ("key ctrl+alt+Cyrillic_A", "'key ctrl+alt+Cyrillic_A' sends ctrl+alt+shift+Cyrillic_a (Cyrillic_A is typed with Shift); "
            + "write ctrl+alt+shift+Cyrillic_a to say so, or ctrl+alt+Cyrillic_a"),
        ("key Super_L+Q", "'key Super_L+Q' sends Super_L+shift+q (Q is typed with Shift); write Super_L+shift+q to say so, or Super_L+q"),
        ("key CTRL+Left+T", "'key CTRL+Left+T' sends CTRL+shift+Left+t (T is typed with Shift); write CTRL+shift+Left+t to say so, or CTRL+Left+t"),
    ])
    func note(action: String, expected: String) {
        #expect(Action.shiftedLetterNote(action) == expected)
    }

    @Test("no note: shift written, no modifier, no capital letter, not a key action", arguments: [
        "key ctrl+shift+T", "key ctrl+Shift_L+T", "key T", "key ctrl+t", "key ctrl+plus", "key alt+Left", "key ctrl+F5",
        "exec notify-send ctrl+T", "workspace next",
    ])
    func noNote(action: String) {
        #expect(Action.shiftedLetterNote(action) == nil)
    }

    @Test("check-config's warning: the config is valid, the note is at the action's value")
    func configNote() throws {
        let text = """
            [[bind]]
            gesture = "tap"
            action = "key ctrl+T"

            [[bind]]
            gesture = "tap"
            fingers = 2
            action = ["key ctrl+c", "key alt+F"]
            """
        let config = try Config.parse(text, file: "c.toml")
        #expect(config.bindings.count == 2)
        #expect(config.warnings(source: "c.toml") == [
            "c.toml:3:10: 'key ctrl+T' sends ctrl+shift+t (T is typed with Shift); write ctrl+shift+t to say so, or ctrl+t",
            "c.toml:8:25: 'key alt+F' sends alt+shift+f (F is typed with Shift); write alt+shift+f to say so, or alt+f",
        ])
        #expect(try Config.parse(DefaultConfig.text, file: "default").warnings(source: "default").isEmpty)
    }
}
