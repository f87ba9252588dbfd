import GestureEngine
import Testing

@testable import GestureConfig

private let pan = #"gesture = "pan""#

/// A `[[bind]]` table with the given lines: line 1 is the header, the first given line is line 2.
private func bind(_ lines: String...) -> String {
    "[[bind]]\n" + lines.map { $0 + "\n" }.joined()
}

/// Action lists and held keys, each wrong in one way, with where it must be reported.
private let badLists: [BadConfig] = [
    BadConfig("an empty action list", bind(pan, "action = []"), at: "3:10", "'action' lists no action"),
    BadConfig("nine actions", bind(pan, "action = [\n" + (1...9).map { #"  "scroll down \#($0)","# }.joined(separator: "\n") + "\n]"),
              at: "12:3", "at most 8"),
    BadConfig("a number in the list", bind(pan, #"action = ["key ctrl+c", 5, "workspace 2"]"#), at: "3:25",
              "each action in the 'action' array must be a string, not an integer"),
    BadConfig("a nested list", bind(pan, #"action = ["key ctrl+c", ["workspace 2"]]"#), at: "3:25",
              "must be a string, not an array"),
    BadConfig("a bad action in the list, on its own line",
              bind(pan, "action = [", #"    "key ctrl+c","#, #"    "workspace next","#, #"    "scroll sideways","#, "]"),
              at: "6:5", "unknown scroll direction 'sideways'"),
    BadConfig("a misspelt key in the list", bind(pan, #"action = ["key ctrl+c",   "key Rigth"]"#), at: "3:27",
              "unknown key name 'Rigth'"),
    BadConfig("a table for action", bind(pan, "action = { key = 1 }"), at: "3:10",
              "'action' must be a string or an array of strings, not a table"),
    BadConfig("hold on a tap", bind(#"gesture = "tap""#, #"hold = "alt""#, #"action = "key Tab""#), at: "3:1",
              "'hold' does not apply to tap"),
    BadConfig("hold on a swipe", bind(#"gesture = "swipe""#, #"hold = "alt""#, #"action = "key Tab""#), at: "3:1",
              "'hold' does not apply to swipe"),
    BadConfig("hold with on = end", bind(pan, #"on = "end""#, #"hold = "alt""#, #"action = "key Tab""#), at: "4:1",
              #"'hold' cannot be combined with on = "end""#),
    BadConfig("hold with a misspelt key", bind(pan, #"hold = "alt+shfit""#, #"action = "key Tab""#), at: "3:8",
              "unknown key name 'shfit'; did you mean 'shift'?"),
    BadConfig("an empty hold", bind(pan, #"hold = """#, #"action = "key Tab""#), at: "3:8", "'hold' needs the keys to hold down"),
    BadConfig("a hold with blanks", bind(pan, #"hold = "alt shift""#, #"action = "key Tab""#), at: "3:8",
              "'hold' takes one combination without blanks"),
    BadConfig("a hold that is not a string", bind(pan, "hold = true", #"action = "key Tab""#), at: "3:8",
              "'hold' must be a string of key names joined by '+', not a boolean"),
    BadConfig("a key twice in a hold", bind(pan, #"hold = "alt+alt""#, #"action = "key Tab""#), at: "3:8", "appears twice"),
]

@Suite("Action lists and held keys in the config")
struct ActionListConfigTests {
    @Test("A bad action list or hold is reported at the element or value", arguments: badLists)
    func reportsAtTheElement(_ bad: BadConfig) throws {
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(bad.toml, file: "bad.toml") }
        #expect(thrown.errors.count == 1, "\(thrown)")
        let error = try #require(thrown.errors.first)
        #expect("\(error.line):\(error.column)" == bad.position, "\(error)")
        #expect(error.message.contains(bad.message), "\(error)")
    }

    @Test("Every bad element of a list is reported, each where it is")
    func everyBadElement() throws {
        let toml = bind(pan, #"action = ["key Rigth", 5, "workspace 2", "click sideways"]"#)
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "c.toml") }
        #expect(thrown.errors.map { "\($0.line):\($0.column)" } == ["3:11", "3:24", "3:42"])
    }

    @Test("An action list keeps its actions in order and its strings as written")
    func listParses() throws {
        let config = try Config.parse(bind(pan, #"action = ["key ctrl+c", 'workspace 2', "exec notify-send \"a b\""]"#), file: "c.toml")
        let binding = try #require(config.bindings.first)
        let copy = Action.key(KeyCombo(keys: [.init(name: "Control_L", keysym: 0xFFE3), .init(name: "c", keysym: 0x63)]))
        #expect(binding.actions == [copy, .workspace(.number(2)), .exec(argv: ["notify-send", "a b"])])
        #expect(binding.actionTexts == ["key ctrl+c", "workspace 2", #"exec notify-send "a b""#])
        #expect(binding.actionIsList)
        #expect(binding.actionText == #"["key ctrl+c", "workspace 2", "exec notify-send \"a b\""]"#)
    }

    @Test("A one-element list is still a list; a string is not")
    func oneElement() throws {
        let config = try Config.parse(bind(pan, #"action = ["key Tab"]"#) + bind(pan, #"direction = "up""#, #"action = "key Tab""#), file: "c.toml")
        #expect(config.bindings.map(\.actionIsList) == [true, false])
        #expect(config.bindings.map(\.actionText) == [#"["key Tab"]"#, "key Tab"])
        #expect(config.bindings[0].actions == config.bindings[1].actions)
    }

    @Test("Eight actions are allowed")
    func eight() throws {
        let list = (1...8).map { #""scroll down \#($0)""# }.joined(separator: ", ")
        let config = try Config.parse(bind(pan, "action = [\(list)]"), file: "c.toml")
        #expect(config.bindings.first?.actions.count == 8)
    }

    @Test("hold takes key names as key does, and keeps their spelling", arguments: [
        ("alt", ["Alt_L"], ["alt"]),
        ("ctrl+Shift_L", ["Control_L", "Shift_L"], ["ctrl", "Shift_L"]),
        ("super+U+00E9", ["Super_L", "eacute"], ["super", "U+00E9"]),
    ])
    func holdParses(_ text: String, _ names: [String], _ spellings: [String]) throws {
        let config = try Config.parse(bind(#"gesture = "long-press""#, "hold = \"\(text)\"", #"action = "click left""#), file: "c.toml")
        let binding = try #require(config.bindings.first)
        #expect(binding.hold?.keys.map(\.name) == names)
        #expect(binding.holdText == text)
        #expect(binding.holdSpellings == spellings)
    }

    @Test("hold is allowed on every continuous gesture with on = begin, written or not", arguments: ["long-press", "pan", "pinch", "rotate"])
    func holdOnContinuous(_ gesture: String) throws {
        let config = try Config.parse(
            bind("gesture = \"\(gesture)\"", #"hold = "alt""#, #"action = "key Tab""#)
                + bind("gesture = \"\(gesture)\"", "fingers = 3", #"on = "begin""#, #"hold = "ctrl""#, #"action = "key Tab""#),
            file: "c.toml")
        #expect(config.bindings.map(\.holdText) == ["alt", "ctrl"])
    }
}

@Suite("The default config's window-switching pair")
struct DefaultWindowSwitchingTests {
    @Test("is commented out, and uncommented it is valid and holds Alt")
    func uncommented() throws {
        #expect(try Config.parse(DefaultConfig.text, file: "default.toml").bindings.allSatisfy { $0.hold == nil })
        let lines = DefaultConfig.text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("# Window switching") })
        let block = lines[start...]
            .drop { !$0.hasPrefix("# [[bind]]") }
            .map { $0.hasPrefix("# ") ? String($0.dropFirst(2)) : String($0.drop { $0 == "#" }) }
            .joined(separator: "\n")
        let config = try Config.parse(DefaultConfig.text + "\n" + block, file: "default.toml")
        let pans = config.bindings.filter { $0.trigger.gesture == .pan }
        #expect(pans.map(\.holdText) == ["alt", "alt"])
        #expect(pans.map(\.actionText) == ["key Tab", "key shift+Tab"])
        #expect(pans.map(\.trigger.repeatEvery) == [100, 100])
    }
}
