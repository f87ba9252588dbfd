import Testing

@testable import GestureConfig

@Suite("Window and desktop action parsing (issue 11)")
struct WindowActionParsingTests {
    static let goodActions: [(String, Action)] = [
        ("window toggle-maximize", .window(.toggleMaximize)),
        ("window restore", .window(.restore)),
        ("window tile left", .tile(.left)),
        ("window tile right", .tile(.right)),
        ("window tile top", .tile(.top)),
        ("window  tile\tbottom ", .tile(.bottom)),
        ("window move-to-workspace next", .moveWindowToWorkspace(.next)),
        ("window move-to-workspace prev", .moveWindowToWorkspace(.previous)),
        ("window move-to-workspace 3", .moveWindowToWorkspace(.number(3))),
        ("show-desktop", .showDesktop),
        ("  show-desktop  ", .showDesktop),
    ]

    @Test("Good spellings parse into typed values", arguments: goodActions)
    func goodAction(_ text: String, _ expected: Action) throws {
        #expect(try Action(parsing: text) == expected)
    }

    @Test("Each renders once, in config spelling, and parses back", arguments: goodActions)
    func description(_ text: String, _ action: Action) throws {
        let spelled = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        #expect(action.description == spelled)
        #expect(try Action(parsing: action.description) == action)
    }

    static let badActions: [(String, String)] = [
        ("window", "window takes one operation: maximize, minimize, fullscreen, close, toggle-maximize, restore, tile, move-to-workspace"),
        ("window toggle-maximise", "unknown window operation 'toggle-maximise'; did you mean 'toggle-maximize'?"),
        ("window restor", "unknown window operation 'restor'; did you mean 'restore'?"),
        ("window tlie left", "unknown window operation 'tlie'; did you mean 'tile'?"),
        ("window move-to-workspce next", "did you mean 'move-to-workspace'?"),
        ("window restore now", "window restore takes no argument"),
        ("window maximize 2", "window maximize takes no argument"),
        ("window tile", "window tile takes one side: left, right, top or bottom"),
        ("window tile left right", "window tile takes one side"),
        ("window tile lfet", "unknown tile side 'lfet'; did you mean 'left'? (expected one of: left, right, top, bottom)"),
        ("window tile up", "unknown tile side 'up' (expected one of: left, right, top, bottom)"),
        ("window move-to-workspace", "window move-to-workspace takes one target: next, prev or a desktop number counted from 1"),
        ("window move-to-workspace 0", "workspace numbers count from 1, not 0"),
        ("window move-to-workspace nxt", "unknown workspace target 'nxt'; did you mean 'next'?"),
        ("window move-to-workspace 1 2", "window move-to-workspace takes one target"),
        ("show-desktop now", "show-desktop takes no argument"),
        ("show-dekstop", "unknown action 'show-dekstop'; did you mean 'show-desktop'?"),
        ("showdesktop", "did you mean 'show-desktop'?"),
        ("", "expected one of: key, click, scroll, workspace, window, exec, show-desktop"),
    ]

    @Test("Bad spellings say what is wrong", arguments: badActions)
    func badAction(_ text: String, _ message: String) throws {
        let error = try #require(throws: ActionParseError.self) { try Action(parsing: text) }
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("In a config, a bad window action is reported at its value with line and column")
    func configPosition() throws {
        let toml = """
            [[bind]]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            action = "window tile lft"

            [[bind]]
            gesture = "tap"
            fingers = 4
            action = "show-desktp"

            """
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "tiles.toml") }
        #expect(thrown.errors.map(\.description) == [
            "tiles.toml:5:10: unknown tile side 'lft'; did you mean 'left'? (expected one of: left, right, top, bottom)",
            "tiles.toml:10:10: unknown action 'show-desktp'; did you mean 'show-desktop'? (expected one of: key, click, scroll, workspace, window, exec, show-desktop)",
        ])
    }

    @Test("A config with every new action loads")
    func configLoads() throws {
        let toml = """
            [[bind]]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            action = "window tile left"

            [[bind]]
            gesture = "swipe"
            fingers = 3
            direction = "up"
            action = "window toggle-maximize"

            [[bind]]
            gesture = "swipe"
            fingers = 4
            direction = "right"
            action = "window move-to-workspace next"

            [[bind]]
            gesture = "swipe"
            fingers = 4
            direction = "down"
            action = "show-desktop"

            """
        let config = try Config.parse(toml, file: "c.toml")
        #expect(config.bindings.map(\.actions) == [[.tile(.left)], [.window(.toggleMaximize)], [.moveWindowToWorkspace(.next)], [.showDesktop]])
    }
}
