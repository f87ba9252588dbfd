import Testing

@testable import GestureConfig

private func key(_ name: String, _ keysym: UInt32) -> KeyCombo.Key { KeyCombo.Key(name: name, keysym: keysym) }

@Suite("Action parsing")
struct ActionParsingTests {
    static let goodActions: [(String, Action)] = [
        ("key ctrl+alt+Right", .key(KeyCombo(keys: [key("Control_L", 0xFFE3), key("Alt_L", 0xFFE9), key("Right", 0xFF53)]))),
        ("key super", .key(KeyCombo(keys: [key("Super_L", 0xFFEB)]))),
        ("key shift+meta+a", .key(KeyCombo(keys: [key("Shift_L", 0xFFE1), key("Meta_L", 0xFFE7), key("a", 0x61)]))),
        ("key Ctrl+A", .key(KeyCombo(keys: [key("Control_L", 0xFFE3), key("A", 0x41)]))),
        ("key XF86AudioRaiseVolume", .key(KeyCombo(keys: [key("XF86AudioRaiseVolume", 0x1008FF13)]))),
        ("key ctrl+plus", .key(KeyCombo(keys: [key("Control_L", 0xFFE3), key("plus", 0x2B)]))),
        ("key U+20AC", .key(KeyCombo(keys: [key("U20AC", 0x0100_20AC)]))),
        ("key U+00E9", .key(KeyCombo(keys: [key("eacute", 0xE9)]))),
        ("key U1F600", .key(KeyCombo(keys: [key("U1F600", 0x0101_F600)]))),
        ("key ctrl+U+20AC", .key(KeyCombo(keys: [key("Control_L", 0xFFE3), key("U20AC", 0x0100_20AC)]))),
        ("key shift+U", .key(KeyCombo(keys: [key("Shift_L", 0xFFE1), key("U", 0x55)]))),
        ("key U+F1", .key(KeyCombo(keys: [key("U", 0x55), key("F1", 0xFFBE)]))),
        ("  key   alt+Tab  ", .key(KeyCombo(keys: [key("Alt_L", 0xFFE9), key("Tab", 0xFF09)]))),
        ("click left", .click(button: 1)),
        ("click middle", .click(button: 2)),
        ("click right", .click(button: 3)),
        ("click 8", .click(button: 8)),
        ("scroll up", .scroll(.up, steps: 1)),
        ("scroll down 3", .scroll(.down, steps: 3)),
        ("scroll left 1", .scroll(.left, steps: 1)),
        ("scroll right 100", .scroll(.right, steps: 100)),
        ("workspace next", .workspace(.next)),
        ("workspace prev", .workspace(.previous)),
        ("workspace 4", .workspace(.number(4))),
        ("window maximize", .window(.maximize)),
        ("window minimize", .window(.minimize)),
        ("window fullscreen", .window(.fullscreen)),
        ("window close", .window(.close)),
        ("exec firefox", .exec(argv: ["firefox"])),
        (#"exec notify-send "Hello, world" it\'s"#, .exec(argv: ["notify-send", "Hello, world", "it's"])),
        ("exec sh -c 'xdotool key ctrl+c; echo $HOME'", .exec(argv: ["sh", "-c", "xdotool key ctrl+c; echo $HOME"])),
        ("exec\tprog\targ", .exec(argv: ["prog", "arg"])),
    ]

    @Test("Good actions parse into typed values", arguments: goodActions)
    func goodAction(_ text: String, _ expected: Action) throws {
        #expect(try Action(parsing: text) == expected)
    }

    @Test("An action's description parses back to the same action", arguments: goodActions.map(\.1))
    func descriptionRoundTrips(_ action: Action) throws {
        #expect(try Action(parsing: action.description) == action)
    }

    static let badActions: [(String, String)] = [
        ("", "empty action; expected one of: key, click, scroll, workspace, window, exec"),
        ("   ", "empty action"),
        ("press ctrl+c", "unknown action 'press'"),
        ("Key ctrl+c", "unknown action 'Key'; did you mean 'key'?"),
        ("clik left", "unknown action 'clik'; did you mean 'click'?"),
        ("key", "key needs a combination"),
        ("key ctrl + c", "key takes one combination without blanks"),
        ("key ctrl+", "empty key name in 'ctrl+'; write the plus key as 'plus'"),
        ("key ctrl++", "empty key name"),
        ("key ctrl+Rigth", "unknown key name 'Rigth'; did you mean 'Right'?"),
        ("key ctrl+right", "unknown key name 'right'; did you mean 'Right'?"),
        ("key ctl+c", "unknown key name 'ctl'; did you mean 'ctrl'?"),
        ("key win+d", "unknown key name 'win'; did you mean 'super'?"),
        ("key Control+c", "unknown key name 'Control'; did you mean 'ctrl'?"),
        ("key ctrl+Esc", "unknown key name 'Esc'; did you mean 'Escape'?"),
        ("key XF86AudioRaiseVol", "did you mean 'XF86AudioRaiseVolume'?"),
        ("key ctrl+ctrl+c", "'ctrl' appears twice in 'ctrl+ctrl+c'"),
        ("key U+0007", "unknown key name 'U+0007'"),
        ("key 0x0", "unknown key name '0x0'"),
        ("click", "click takes one button"),
        ("click leftt", "unknown button 'leftt'; did you mean 'left'?"),
        ("click 0", "button 0 is out of range; X buttons are 1 to 255"),
        ("click 256", "button 256 is out of range"),
        ("click left right", "click takes one button"),
        ("scroll", "scroll takes a direction and an optional count"),
        ("scroll sideways", "unknown scroll direction 'sideways' (expected one of: up, down, left, right)"),
        ("scroll dwn", "did you mean 'down'?"),
        ("scroll down 0", "scroll count must be a whole number from 1 to 100, not '0'"),
        ("scroll down -2", "not '-2'"),
        ("scroll down 1.5", "not '1.5'"),
        ("scroll down 101", "not '101'"),
        ("scroll down 2 3", "scroll takes a direction and an optional count"),
        ("workspace", "workspace takes one target"),
        ("workspace 0", "workspace numbers count from 1, not 0"),
        ("workspace previous", "unknown workspace target 'previous'; did you mean 'prev'?"),
        ("window", "window takes one operation: maximize, minimize, fullscreen, close"),
        ("window maximise", "unknown window operation 'maximise'; did you mean 'maximize'?"),
        ("window shade", "unknown window operation 'shade'"),
        ("exec", "exec needs a program"),
        ("exec ''", "exec needs a program"),
        ("exec echo 'unterminated", "unterminated single quote"),
        (#"exec echo "unterminated"#, "unterminated double quote"),
        (#"exec echo trailing\"#, "a backslash at the end"),
    ]

    @Test("Bad actions say what is wrong", arguments: badActions)
    func badAction(_ text: String, _ message: String) throws {
        let error = try #require(throws: ActionParseError.self) { try Action(parsing: text) }
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("Key combinations describe themselves with keysym names")
    func comboDescription() throws {
        let action = try Action(parsing: "key ctrl+alt+Right")
        #expect(action.description == "key Control_L+Alt_L+Right")
        guard case .key(let combo) = action else { Issue.record("not a key action"); return }
        #expect(combo.description == "Control_L+Alt_L+Right")
    }

    @Test("Exec descriptions quote what needs quoting")
    func execDescription() {
        #expect(Action.exec(argv: ["notify-send", "it's done", "", "a=b"]).description == #"exec notify-send 'it'\''s done' '' a=b"#)
    }
}
