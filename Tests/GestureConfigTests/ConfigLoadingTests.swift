import Foundation
import GestureEngine
import GestureTestKit
import Testing

@testable import GestureConfig

@Suite("Config loading")
struct ConfigLoadingTests {
    @Test("An empty config has the documented defaults and no bindings")
    func emptyConfig() throws {
        let config = try Config.parse("", file: "empty.toml")
        #expect(config.settings == RecognizerSettings())
        #expect(config.pointerButton == 3)
        #expect(config.bindings.isEmpty)
        #expect(!config.claimOnSecondFinger)
    }

    @Test("[touchscreen] claim_on_second_finger is off by default and reaches the engine when on")
    func claimOnSecondFinger() throws {
        let off = try Config.parse("[touchscreen]\n", file: "off.toml")
        #expect(!off.claimOnSecondFinger && !off.engineConfiguration.claimOnSecondFinger)
        let explicitOff = try Config.parse("[touchscreen]\nclaim_on_second_finger = false\n", file: "off.toml")
        #expect(!explicitOff.claimOnSecondFinger)
        let on = try Config.parse("[touchscreen]\nclaim_on_second_finger = true\n", file: "on.toml")
        #expect(on.claimOnSecondFinger && on.engineConfiguration.claimOnSecondFinger)
        // Part of the config, so a reload that changes only this is a change.
        #expect(on != off)
    }

    @Test("Every recognizer key sets its setting; integers are fine for floats")
    func recognizerSettings() throws {
        let config = try Config.parse(
            """
            [recognizer]
            slop_px = 12
            tap_max_ms = 250.5
            multi_tap_interval_ms = 400
            multi_tap_distance_px = 0
            long_press_ms = 600
            swipe_min_px = 100
            swipe_min_velocity = 1
            finger_settle_ms = 0
            pinch_min_scale = 0.2
            rotate_min_degrees = 20
            edge_px = 0
            stroke_min_score = 0.9
            stroke_min_px = 70

            [pointer]
            button = 0
            """, file: "settings.toml")
        var expected = RecognizerSettings()
        expected.slopPx = 12
        expected.tapMaxMs = 250.5
        expected.multiTapIntervalMs = 400
        expected.multiTapDistancePx = 0
        expected.longPressMs = 600
        expected.swipeMinPx = 100
        expected.swipeMinVelocity = 1
        expected.fingerSettleMs = 0
        expected.pinchMinScale = 0.2
        expected.rotateMinDegrees = 20
        expected.edgePx = 0
        expected.strokeMinScore = 0.9
        expected.strokeMinPx = 70
        #expect(config.settings == expected)
        #expect(config.pointerButton == 0)
        #expect(ConfigReader.thresholds.count == 13)
    }

    @Test("A binding with every key becomes a trigger, its action and its text")
    func fullBinding() throws {
        let config = try Config.parse(
            """
            # gestures
            [[bind]]
            gesture = "pan"
            fingers = 2
            direction = "up-left"
            edge = "bottom"
            device = "touchpad"
            app = "FireFox"
            on = "end"
            action = "exec notify-send 'panned up' \\"to the left\\""
            """, file: "full.toml")
        let binding = try #require(config.bindings.first)
        #expect(binding.trigger == Trigger(
            gesture: .pan, fingers: 2, direction: .upLeft, edge: .bottom, device: .touchpad, app: "firefox", on: .end))
        #expect(binding.trigger.app == "firefox")
        #expect(binding.actions == [.exec(argv: ["notify-send", "panned up", "to the left"])])
        #expect(binding.actionText == #"exec notify-send 'panned up' "to the left""#)
        #expect(binding.source == SourcePosition(file: "full.toml", line: 2, column: 1))
    }

    @Test("Defaults: one finger, two for pinch and rotate, one tap, any device, fire at begin")
    func bindingDefaults() throws {
        let config = try Config.parse(
            """
            [[bind]]
            gesture = "tap"
            action = "click left"
            [[bind]]
            gesture = "pinch"
            direction = "out"
            repeat_every = 0.25
            action = "key ctrl+plus"
            [[bind]]
            gesture = "rotate"
            device = "any"
            action = "key XF86RotateWindows"
            [[bind]]
            gesture = "long-press"
            repeat_every = 500
            action = "key 0x1008ff13"
            """, file: "defaults.toml")
        let triggers = config.bindings.map(\.trigger)
        #expect(triggers == [
            Trigger(gesture: .tap, fingers: 1, taps: 1),
            Trigger(gesture: .pinch, fingers: 2, direction: .out, repeatEvery: 0.25),
            Trigger(gesture: .rotate, fingers: 2),
            Trigger(gesture: .longPress, fingers: 1, repeatEvery: 500),
        ])
        #expect(triggers.allSatisfy { $0.device == nil && $0.on == .begin })
        #expect(config.bindings[3].actions == [.key(KeyCombo(keys: [.init(name: "XF86AudioRaiseVolume", keysym: 0x1008FF13)]))])
        #expect(config.bindings[3].actionText == "key 0x1008ff13")
    }

    @Test("The engine configuration lists the triggers in binding order")
    func engineConfiguration() throws {
        let config = try Config.parse(
            """
            [pointer]
            button = 2
            [recognizer]
            edge_px = 30
            [[bind]]
            gesture = "swipe"
            direction = "left"
            action = "key alt+Left"
            [[bind]]
            gesture = "swipe"
            direction = "right"
            action = "key alt+Right"
            """, file: "order.toml")
        let engine = config.engineConfiguration
        #expect(engine.pointerButton == 2)
        #expect(engine.settings.edgePx == 30)
        #expect(engine.triggers.map(\.direction) == [.left, .right])
        #expect(engine.triggers == config.bindings.map(\.trigger))
    }

    @Test("Inline tables in a bind array work like [[bind]] tables and point at their brace")
    func inlineBindings() throws {
        // TOML 1.0 (and so TOMLKit) keeps each inline table on one line; the array may span lines.
        let config = try Config.parse(
            """
            bind = [
              { gesture = "swipe", fingers = 3, direction = "left", action = "workspace next" },
              # a comment between entries
              {gesture="swipe",fingers=3,direction="right",action="workspace prev"}
            ]
            """, file: "inline.toml")
        #expect(config.bindings.map(\.source.line) == [2, 4])
        #expect(config.bindings.map(\.source.column) == [3, 3])
        #expect(config.bindings.map(\.actions) == [[.workspace(.next)], [.workspace(.previous)]])
    }

    @Test("Bindings that differ in any identifying field are not duplicates")
    func notDuplicates() throws {
        let base = #"gesture = "swipe"\#nfingers = 3\#ndirection = "left"\#naction = "workspace next"\#n"#
        let variants = [
            "", "app = \"firefox\"\n", "edge = \"left\"\n", "device = \"touchpad\"\n", "device = \"touchscreen\"\n",
        ]
        let toml = variants.map { "[[bind]]\n" + base + $0 }.joined()
        #expect(try Config.parse(toml, file: "variants.toml").bindings.count == variants.count)
    }

    @Test("Windows line endings, tabs and a byte-order mark are fine")
    func lineEndings() throws {
        let toml = "\u{FEFF}[[bind]]\r\n\tgesture = \"tap\"\r\n\taction = \"click middle\"\r\n[[bind]]\r\ngesture = 7\r\n"
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "crlf.toml") }
        #expect(thrown.errors.map(\.description) == [
            "crlf.toml:4:1: missing 'action' in [[bind]]",
            "crlf.toml:5:11: 'gesture' must be a string, not an integer",
        ])
        let good = try Config.parse(toml.replacing("gesture = 7", with: "gesture = \"tap\"\r\ntaps = 2\r\naction = \"click left\""),
                                    file: "crlf.toml")
        #expect(good.bindings.map(\.actions) == [[.click(button: 2)], [.click(button: 1)]])
    }

    @Test("A config file loads from disk and names itself in errors")
    func loadFromFile() throws {
        let directory = try TemporaryDirectory()
        let good = try directory.write("good.toml", "[[bind]]\ngesture = \"tap\"\naction = \"click left\"\n")
        #expect(try Config.load(contentsOf: good).bindings.first?.source.file == good)
        #expect(try Config.load(from: .file(good)).bindings.count == 1)

        let bad = try directory.write("bad.toml", "[[bind]]\ngesture = \"tap\"\n")
        let thrown = try #require(throws: ConfigErrors.self) { try Config.load(contentsOf: bad) }
        #expect(thrown.description == "\(bad):1:1: missing 'action' in [[bind]]")
    }

    @Test("A TOML syntax error keeps the parser's position")
    func syntaxError() throws {
        let thrown = try #require(throws: ConfigErrors.self) {
            try Config.parse("[recognizer]\nslop_px = 1\nslop_px = 2\n", file: "dup.toml")
        }
        let error = try #require(thrown.errors.first)
        #expect(thrown.errors.count == 1)
        #expect(error.line == 3)
        #expect(error.message.hasPrefix("TOML syntax error"))
        #expect(error.message.contains("slop_px"))
    }
}

@Suite("Documentation")
struct DocumentationTests {
    static let configReference = SourceTree.path("docs/config.md")

    @Test("Every TOML example in docs/config.md is a valid config")
    func examplesLoad() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.configReference))
        let text = try #require(String(validating: data, as: UTF8.self))
        let blocks = text.components(separatedBy: "```toml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 5)
        for (index, block) in blocks.enumerated() {
            #expect(throws: Never.self, "example \(index + 1)") { try Config.parse(block, file: "example \(index + 1)") }
        }
    }

    /// The examples of «Error messages» for the slips a first config makes are what loading
    /// says, position and all (the others are pinned where their checks are tested).
    @Test("The error examples for a first config's slips are what the config says", arguments: [
        "gesture = \"swipe\"\n",
        "[[bind]]\ngesture = \"swipe\"\naction = \"key a\"\n\n# the next binding\ngesture = \"tap\"\naction = \"key b\"\n",
        "[[bind]\ngesture = \"tap\"\n",
        "[[bind]]\ngesture = \"swipe\"\naction = \"key a\n",
        "[[bind]]\ngesture = swipe\n",
        "[[bind]]\ngesture \"swipe\"\n",
        "[[bind]]\ngesture = \"swipe\"\naction = \"exec notify-send \"hi\"\"\n",
    ])
    func errorExamples(text: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Self.configReference))
        let reference = try #require(String(validating: data, as: UTF8.self))
        let section = try #require(reference.components(separatedBy: "## Error messages\n").last)
        let examples = Set(section.components(separatedBy: "```text\n")[1].components(separatedBy: "```")[0].split(separator: "\n").map(String.init))
        let errors = try #require(throws: ConfigErrors.self) { try Config.parse(text, file: "config.toml") }
        let said = try #require(errors.errors.first).description
        #expect(examples.contains(said), "docs/config.md does not show what the config says: \(said)")
    }
}

@Suite("Default config")
struct DefaultConfigTests {
    static let defaultFile = SourceTree.path("config/default.toml")

    @Test("The embedded default config is config/default.toml, byte for byte")
    func embeddedMatchesFile() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.defaultFile))
        #expect(Array(DefaultConfig.text.utf8) == Array(data), "paste config/default.toml into DefaultConfig.swift")
    }

    @Test("The default config loads without a problem and binds what it promises")
    func defaultConfigLoads() throws {
        let config = try Config.load(from: .embedded)
        #expect(try Config.load(contentsOf: Self.defaultFile).bindings.map(\.trigger) == config.bindings.map(\.trigger))
        #expect(config.settings == RecognizerSettings())
        #expect(config.pointerButton == 3)
        #expect(!config.claimOnSecondFinger)

        func action(_ gesture: GestureKind, _ fingers: Int, _ direction: Direction?, device: DeviceKind? = nil) -> String? {
            config.bindings.first {
                $0.trigger.gesture == gesture && $0.trigger.fingers == fingers && $0.trigger.direction == direction
                    && $0.trigger.device == device
            }?.actionText
        }
        #expect(action(.swipe, 3, .left) == "workspace next")
        #expect(action(.swipe, 3, .right) == "workspace prev")
        #expect(action(.swipe, 3, .up) == "window maximize")
        #expect(action(.swipe, 3, .down) == "window minimize")
        #expect(action(.longPress, 1, nil, device: .touchscreen) == "click right")
        #expect(action(.swipe, 1, .left, device: .pointer) == "key alt+Left")
        #expect(action(.swipe, 1, .right, device: .pointer) == "key alt+Right")
        #expect(config.bindings.count == 7)
    }

    @Test("The default config takes nothing applications do themselves: no 1- or 2-finger touch or touchpad gesture but the touchscreen long press")
    func defaultConfigLeavesApplicationGestures() throws {
        let config = try Config.load(from: .embedded)
        let taken = config.bindings.filter { binding in
            let t = binding.trigger
            let fromHands = t.applies(to: .touchscreen) || t.applies(to: .touchpad)
            let longPress = t.gesture == .longPress && t.device == .touchscreen && t.fingers == 1
            return fromHands && t.fingers < 3 && !longPress
        }
        #expect(taken.isEmpty, "\(taken.map(\.source))")
        // The pinches are there to uncomment, with the reason they are not bound.
        #expect(DefaultConfig.text.contains("# gesture = \"pinch\""))
        #expect(DefaultConfig.text.contains("zoom smoothly with a two-finger pinch"))
    }
}
