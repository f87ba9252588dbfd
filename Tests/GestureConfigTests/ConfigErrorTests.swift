import Testing

@testable import GestureConfig

/// A config with exactly one problem, where it must be reported, and a telling part of the message.
struct BadConfig: Sendable, CustomTestStringConvertible {
    var name: String
    var toml: String
    /// `LINE:COLUMN`.
    var position: String
    var message: String

    var testDescription: String { name }

    init(_ name: String, _ toml: String, at position: String, _ message: String) {
        self.name = name
        self.toml = toml
        self.position = position
        self.message = message
    }

    /// The config gives exactly this one problem, at its position, as `FILE:LINE:COLUMN: message`.
    func expectOneProblemAtItsPosition() throws {
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "bad.toml") }
        #expect(thrown.errors.count == 1, "\(thrown)")
        let error = try #require(thrown.errors.first)
        #expect("\(error.line):\(error.column)" == position, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description == "bad.toml:\(position): \(error.message)")
    }
}

/// A `[[bind]]` table with the given lines: line 1 is the header, the first given line is line 2.
private func bind(_ lines: String...) -> String {
    "[[bind]]\n" + lines.map { $0 + "\n" }.joined()
}

private let swipe = #"gesture = "swipe""#
private let pan = #"gesture = "pan""#
private let tap = #"gesture = "tap""#
private let pinch = #"gesture = "pinch""#
private let nextWorkspace = #"action = "workspace next""#

private let badConfigs: [BadConfig] = [
    // Syntax
    BadConfig("TOML syntax error", "[[bind]\ngesture = \"tap\"\n", at: "1:8", "TOML syntax error"),
    BadConfig("NUL character", "[recognizer]\nslop_px = 1\u{0}\n", at: "2:12", "NUL"),

    // Unknown tables and keys
    BadConfig("unknown recognizer key", "[recognizer]\nslop = 10\n", at: "2:1",
              "unknown key 'slop' in [recognizer]; did you mean 'slop_px'?"),
    BadConfig("unknown table", "[recognizr]\nslop_px = 3\n", at: "1:2",
              "unknown table 'recognizr'; did you mean 'recognizer'?"),
    BadConfig("unknown top-level key", "colour = \"red\"\n", at: "1:1", "unknown key 'colour'"),
    BadConfig("unknown key through a dotted key", "recognizer.slop = 3\n", at: "1:12",
              "unknown key 'slop' in [recognizer]"),
    BadConfig("unknown quoted key", "[recognizer]\n\"edge-px\" = 3\n", at: "2:1",
              "unknown key 'edge-px' in [recognizer]; did you mean 'edge_px'?"),
    BadConfig("unknown pointer key", "[pointer]\nbuton = 2\n", at: "2:1",
              "unknown key 'buton' in [pointer]; did you mean 'button'?"),
    BadConfig("unknown touchscreen key", "[touchscreen]\nclaim_on_second = true\n", at: "2:1",
              "unknown key 'claim_on_second' in [touchscreen]; did you mean 'claim_on_second_finger'?"),
    BadConfig("misspelt touchscreen table", "[touchscren]\nclaim_on_second_finger = true\n", at: "1:2",
              "unknown table 'touchscren'; did you mean 'touchscreen'?"),
    BadConfig("unknown binding key", bind(swipe, "fingrs = 3", nextWorkspace), at: "3:1",
              "unknown key 'fingrs' in [[bind]]; did you mean 'fingers'?"),
    BadConfig("sub-table of a binding", bind(tap, #"action = "click left""#) + "[bind.extra]\nx = 1\n", at: "4:7",
              "unknown key 'extra' in [[bind]]"),

    // Wrong types
    BadConfig("string for a number", "[recognizer]\ntap_max_ms = \"300\"\n", at: "2:14",
              "'tap_max_ms' must be a number, not a string"),
    BadConfig("boolean for a number", "[recognizer]\nedge_px = true\n", at: "2:11", "'edge_px' must be a number, not a boolean"),
    BadConfig("date for a number", "[recognizer]\nedge_px = 1979-05-27\n", at: "2:11", "not a date"),
    BadConfig("recognizer is not a table", "recognizer = 5\n", at: "1:14", "'recognizer' must be a table, not an integer"),
    BadConfig("float for an integer", "[pointer]\nbutton = 2.5\n", at: "2:10", "'button' must be an integer, not a float"),
    BadConfig("string for fingers", bind(swipe, #"fingers = "3""#, nextWorkspace), at: "3:11",
              "'fingers' must be an integer, not a string"),
    BadConfig("integer for a boolean", "[touchscreen]\nclaim_on_second_finger = 1\n", at: "2:26",
              "'claim_on_second_finger' must be true or false, not an integer"),
    BadConfig("string for a boolean", "[touchscreen]\nclaim_on_second_finger = \"yes\"\n", at: "2:26",
              "'claim_on_second_finger' must be true or false, not a string"),
    BadConfig("touchscreen is not a table", "touchscreen = true\n", at: "1:15", "'touchscreen' must be a table, not a boolean"),
    BadConfig("bind is a plain table", "[bind]\ngesture = \"tap\"\naction = \"click left\"\n", at: "1:2",
              "write [[bind]], not [bind]"),
    BadConfig("bind is a number", "bind = 3\n", at: "1:8", "'bind' must be an array of tables"),
    BadConfig("bind holds a number", "bind = [1]\n", at: "1:9", "each binding must be a table, not an integer"),
    BadConfig("action is a number", bind(swipe, "action = 5"), at: "3:10", "'action' must be a string or an array of strings, not an integer"),

    // Out of range
    BadConfig("negative threshold", "[recognizer]\nslop_px = -0.5\n", at: "2:11", "'slop_px' must be 0 or more, not -0.5"),
    BadConfig("zero threshold", "[recognizer]\nswipe_min_px = 0\n", at: "2:16", "'swipe_min_px' must be more than 0, not 0"),
    BadConfig("negative time", "[recognizer]\nlong_press_ms = -5\n", at: "2:17", "'long_press_ms' must be more than 0, not -5"),
    BadConfig("not a number", "[recognizer]\npinch_min_scale = nan\n", at: "2:19", "'pinch_min_scale' must be a finite number"),
    BadConfig("pointer button too high", "[pointer]\nbutton = 300\n", at: "2:10", "'button' must be from 0 (off) to 255, not 300"),
    BadConfig("six fingers", bind(swipe, "fingers = 6", nextWorkspace), at: "3:11", "'fingers' must be from 1 to 5, not 6"),
    BadConfig("four taps", bind(tap, "taps = 4", #"action = "click left""#), at: "3:8", "'taps' must be 1, 2 or 3, not 4"),
    BadConfig("repeat every 0", bind(pan, "repeat_every = 0", nextWorkspace), at: "3:16",
              "'repeat_every' must be more than 0, not 0"),
    BadConfig("empty app", bind(swipe, #"app = """#, nextWorkspace), at: "3:7", "'app' must not be empty"),

    // Unknown values
    BadConfig("unknown gesture", bind(#"gesture = "swype""#, nextWorkspace), at: "2:11",
              "unknown gesture 'swype'; did you mean 'swipe'? (allowed: tap, long-press, swipe, pan, pinch, rotate, stroke)"),
    BadConfig("unknown direction", bind(swipe, #"direction = "lft""#, nextWorkspace), at: "3:13",
              "unknown direction 'lft'; did you mean 'left'?"),
    BadConfig("unknown direction of a rotate", bind(#"gesture = "rotate""#, #"direction = "clockwise""#, nextWorkspace),
              at: "3:13", "unknown direction 'clockwise' (allowed: cw, ccw)"),
    BadConfig("unknown edge", bind(swipe, #"edge = "middle""#, nextWorkspace), at: "3:8",
              "unknown edge 'middle' (allowed: left, right, top, bottom)"),
    BadConfig("unknown device", bind(swipe, #"device = "mouse""#, nextWorkspace), at: "3:10",
              "unknown device 'mouse' (allowed: touchscreen, touchpad, pointer, any)"),
    BadConfig("unknown on", bind(pan, #"on = "start""#, nextWorkspace), at: "3:6",
              "unknown 'on' value 'start' (allowed: begin, end)"),

    // Keys and values that do not fit the gesture
    BadConfig("taps on a swipe", bind(swipe, "taps = 2", nextWorkspace), at: "3:1", "'taps' does not apply to swipe"),
    BadConfig("planar direction on a pinch", bind(pinch, #"direction = "left""#, #"action = "key ctrl+minus""#), at: "3:13",
              "direction 'left' does not fit pinch (allowed: in, out)"),
    BadConfig("pinch direction on a swipe", bind(swipe, #"direction = "in""#, nextWorkspace), at: "3:13",
              "direction 'in' does not fit swipe (allowed: left, right, up, down, up-left, up-right, down-left, down-right)"),
    BadConfig("planar direction on a rotate", bind(#"gesture = "rotate""#, #"direction = "up""#, nextWorkspace), at: "3:13",
              "direction 'up' does not fit rotate (allowed: cw, ccw)"),
    BadConfig("direction on a long press", bind(#"gesture = "long-press""#, #"direction = "left""#, nextWorkspace),
              at: "3:1", "'direction' does not apply to long-press"),
    BadConfig("edge on a pinch", bind(pinch, #"edge = "left""#, nextWorkspace), at: "3:1", "'edge' does not apply to pinch"),
    BadConfig("on for a tap", bind(tap, #"on = "end""#, #"action = "click left""#), at: "3:1", "'on' does not apply to tap"),
    BadConfig("repeat_every on a swipe", bind(swipe, "repeat_every = 10", nextWorkspace), at: "3:1",
              "'repeat_every' does not apply to swipe"),
    BadConfig("repeat_every with on = end", bind(pan, #"on = "end""#, "repeat_every = 50", nextWorkspace), at: "4:1",
              #"'repeat_every' cannot be combined with on = "end""#),
    BadConfig("pointer taps", bind(tap, #"device = "pointer""#, #"action = "click left""#), at: "3:10",
              "a pointer never taps"),
    BadConfig("touchpad long press", bind(#"gesture = "long-press""#, #"device = "touchpad""#, nextWorkspace), at: "3:10",
              "a touchpad gesture is a swipe, pan, pinch or rotate"),
    BadConfig("pointer with two fingers", bind(swipe, "fingers = 2", #"device = "pointer""#, nextWorkspace), at: "3:11",
              "a pointer gesture has 1 finger, not 2"),
    BadConfig("one-finger pinch", bind(pinch, "fingers = 1", #"action = "key ctrl+minus""#), at: "3:11",
              "a pinch needs at least 2 fingers"),

    // Missing keys and duplicates, reported at the binding
    BadConfig("missing gesture", bind("fingers = 3", nextWorkspace), at: "1:1", "missing 'gesture' in [[bind]]"),
    BadConfig("missing action", bind(tap), at: "1:1", "missing 'action' in [[bind]]"),
    BadConfig("duplicate binding",
              bind(swipe, "fingers = 3", #"direction = "left""#, nextWorkspace) + "\n"
                  + bind(swipe, "fingers = 3", #"direction = "left""#, #"action = "workspace prev""#),
              at: "7:1", "duplicate binding: same as the one at 1:1"),
    BadConfig("duplicate with device any",
              bind(tap, #"device = "any""#, #"action = "click left""#) + bind(tap, #"action = "click right""#),
              at: "5:1", "duplicate binding: same as the one at 1:1"),

    // Actions, reported at the action value
    BadConfig("unknown keysym", bind(swipe, #"action = "key ctrl+Rigth""#), at: "3:10",
              "unknown key name 'Rigth'; did you mean 'Right'?"),
    BadConfig("unknown action", bind(swipe, #"action = "launch firefox""#), at: "3:10", "unknown action 'launch'"),
    BadConfig("workspace 0", bind(swipe, #"action = "workspace 0""#), at: "3:10", "workspace numbers count from 1"),
    BadConfig("unterminated quote in a multi-line action", bind(tap, #"action = """"#, #"exec foo 'bar""""#), at: "3:10",
              "unterminated single quote"),
    BadConfig("action of the second [[bind]]",
              bind(tap, #"action = "click left""#) + bind(tap, "taps = 2", #"action = "window maximise""#), at: "7:10",
              "unknown window operation 'maximise'; did you mean 'maximize'?"),
    BadConfig("action in an inline table",
              """
              bind = [
                { gesture = "tap", action = "click left" },
                { gesture = "tap", taps = 2, action = "clik left" },
              ]

              """, at: "3:41", "unknown action 'clik'; did you mean 'click'?"),
    BadConfig("comments that look like keys",
              "# [[bind]] gesture = x\n[[bind]] # the first\ngesture = \"tap\" # a [tap]\naction = \"scroll sideways\" # =\n",
              at: "4:10", "unknown scroll direction 'sideways'"),
]

@Suite("Config errors")
struct ConfigErrorTests {
    @Test("A bad config is reported at the exact line and column", arguments: badConfigs)
    func reportsOneProblemAtItsPosition(_ bad: BadConfig) throws {
        try bad.expectOneProblemAtItsPosition()
    }

    @Test("The table of bad configs is big enough to mean something")
    func tableSize() {
        #expect(badConfigs.count >= 30)
    }

    @Test("Every problem of a file comes out at once, sorted by position")
    func severalErrorsAtOnce() throws {
        let toml = """
            [[bind]]
            gesture = "swipe"
            fingers = 9
            action = "key ctrl+Lft"

            [recognizer]
            slop_px = -1
            tap_max = 300

            [[bind]]
            action = "click left"

            [pointer]
            button = "right"
            """
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "many.toml") }
        #expect(thrown.errors.map { "\($0.line):\($0.column)" } == ["3:11", "4:10", "7:11", "8:1", "10:1", "14:10"])
        #expect(thrown.errors.map(\.file).allSatisfy { $0 == "many.toml" })
        #expect(thrown.errors[3].message == "unknown key 'tap_max' in [recognizer]; did you mean 'tap_max_ms'?")
        #expect(thrown.description.split(separator: "\n").count == 6)
        #expect(thrown.description.hasPrefix("many.toml:3:11: 'fingers' must be from 1 to 5, not 9\n"))
    }

    @Test("A wrong value gives one error, not a cascade")
    func noCascade() throws {
        // A bad gesture skips the gesture-dependent checks; a bad device skips the pointer checks.
        let toml = bind(#"gesture = "wave""#, #"direction = "in""#, "taps = 2", nextWorkspace)
            + bind(tap, #"device = "mouse""#, "fingers = 2", #"action = "click left""#)
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "c.toml") }
        #expect(thrown.errors.map(\.message) == [
            "unknown gesture 'wave' (allowed: tap, long-press, swipe, pan, pinch, rotate, stroke)",
            "unknown device 'mouse' (allowed: touchscreen, touchpad, pointer, any)",
        ])
    }

    @Test("A file that cannot be read names the file")
    func unreadableFile() throws {
        let thrown = try #require(throws: ConfigErrors.self) {
            try Config.load(contentsOf: "/nonexistent/gesture-bridge.toml")
        }
        #expect(thrown.description == "/nonexistent/gesture-bridge.toml:1:1: cannot read the config: no such file")
    }

    @Test("A file that is not UTF-8 is reported where the bad byte is")
    func notUTF8() throws {
        let path = try TemporaryDirectory().write("bad.toml", bytes: Array("[recognizer]\nslop_px = 1 # caf".utf8) + [0xE9, 0x0A])
        let thrown = try #require(throws: ConfigErrors.self) { try Config.load(contentsOf: path) }
        #expect(thrown.description == "\(path):2:18: the config is not valid UTF-8")
    }

    @Test("A directory is not a config")
    func directory() throws {
        let directory = try TemporaryDirectory()
        let thrown = try #require(throws: ConfigErrors.self) { try Config.load(contentsOf: directory.path) }
        #expect(thrown.errors.first?.message == "cannot read the config: it is a directory")
    }
}
