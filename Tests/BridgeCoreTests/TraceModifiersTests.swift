import GestureConfig
import GestureEngine
import Testing

@testable import BridgeCore

private func at(_ t: Double, _ kind: InputEvent.Kind) -> InputEvent { InputEvent(time: Instant(milliseconds: t), kind) }
private let origin = Point(x: 10, y: 20)

/// The `mods` of a gesture's first event in traces, and the `mods` and `button` of output lines
/// (docs/interface.md, «Modifier keys and trigger buttons»).
@Suite struct TraceModifiersTests {
    static let firstEvents: [(line: String, event: InputEvent)] = [
        (#"{"t":0,"type":"touch-begin","id":1,"x":10,"y":20,"mods":["ctrl"]}"#, at(0, .touchBegin(id: 1, at: origin, modifiers: .ctrl))),
        (#"{"t":0,"type":"button-press","x":10,"y":20,"button":1,"mods":["shift","super"]}"#,
         at(0, .buttonPress(button: 1, at: origin, modifiers: [.shift, .super]))),
        (#"{"t":0,"type":"touchpad-swipe-begin","x":10,"y":20,"fingers":3,"mods":["shift","ctrl","alt","super"]}"#,
         at(0, .touchpadSwipeBegin(fingers: 3, at: origin, modifiers: [.shift, .ctrl, .alt, .super]))),
        (#"{"t":0,"type":"touchpad-pinch-begin","fingers":2,"mods":["alt"]}"#, at(0, .touchpadPinchBegin(fingers: 2, at: nil, modifiers: .alt))),
    ]

    @Test("a gesture's first event carries mods, which read back and write out in the documented order", arguments: firstEvents)
    func firstEventsCarryModifiers(_ line: String, _ event: InputEvent) throws {
        var reader = TraceReader(text: line)
        #expect(try reader.readAll() == [event])
        #expect(try TraceWriter.line(for: event) == line)
    }

    @Test("names in any order; missing or [] is none; the writer leaves an empty set out")
    func orderAndAbsence() throws {
        var reader = TraceReader(text: """
            {"t":0,"type":"button-press","x":10,"y":20,"button":3,"mods":["super","ctrl"]}
            {"t":1,"type":"button-press","x":10,"y":20,"button":3,"mods":[]}
            {"t":2,"type":"button-press","x":10,"y":20,"button":3}
            """)
        let events = try reader.readAll()
        #expect(events.map { e -> Modifiers? in if case .buttonPress(_, _, let m) = e.kind { m } else { nil } } == [[.ctrl, .super], [], []])
        #expect(try TraceWriter.line(for: events[0]) == #"{"t":0,"type":"button-press","x":10,"y":20,"button":3,"mods":["ctrl","super"]}"#)
        #expect(try TraceWriter.line(for: events[1]) == #"{"t":1,"type":"button-press","x":10,"y":20,"button":3}"#)
    }

    @Test("on other event types mods is ignored, whatever it holds")
    func ignoredElsewhere() throws {
        var reader = TraceReader(text: """
            {"t":0,"type":"motion","x":1,"y":2,"mods":["hyper"]}
            {"t":1,"type":"touch-update","id":1,"x":1,"y":2,"mods":7}
            {"t":2,"type":"button-release","x":1,"y":2,"button":3,"mods":[1,2]}
            """)
        #expect(try reader.readAll().count == 3)
    }

    static let badModifiers: [(text: String, line: Int, message: String)] = [
        (#"{"t":0,"type":"touch-begin","id":1,"x":1,"y":2,"mods":["hyper"]}"#, 1,
         #"unknown modifier "hyper" in "mods" (allowed: shift, ctrl, alt, super)"#),
        (#"{"t":0,"type":"motion","x":1,"y":2}"# + "\n" + #"{"t":0,"type":"button-press","x":1,"y":2,"button":3,"mods":["ctrl","ctrl"]}"#, 2,
         #"modifier "ctrl" is named twice in "mods""#),
        (#"{"t":0,"type":"touchpad-swipe-begin","fingers":3,"mods":"ctrl"}"#, 1,
         #"field "mods" must be an array of strings (["ctrl", "shift"]), found a string"#),
        (#"{"t":0,"type":"touchpad-pinch-begin","fingers":2,"mods":["ctrl",4]}"#, 1,
         #"field "mods" must be an array of strings (["ctrl", "shift"]), found an array holding something else"#),
        (#"{"t":0,"type":"touch-begin","id":1,"x":1,"y":2,"mods":{"ctrl":true}}"#, 1,
         #"field "mods" must be an array of strings (["ctrl", "shift"]), found an object"#),
        (#"{"t":0,"type":"touch-begin","id":1,"x":1,"y":2,"mods":["Ctrl"]}"#, 1,
         #"unknown modifier "Ctrl" in "mods" (allowed: shift, ctrl, alt, super)"#),
    ]

    @Test("a name not in the list, a repeated name or a mods that is not an array of strings is an error naming the line",
          arguments: badModifiers)
    func badModifiersNameTheLine(_ text: String, _ line: Int, _ message: String) throws {
        var reader = TraceReader(text: text, name: "t.jsonl")
        let error = try #require(throws: TraceError.self) { try reader.readAll() }
        #expect(error.description == "t.jsonl:\(line): \(message)")
    }

    @Test("JSON output lines carry mods in the order shift, ctrl, alt, super, and a pointer gesture's button")
    func outputFields() {
        let pointer = GestureReport(
            time: Instant(milliseconds: 5), gesture: .swipe, phase: .recognized, fingers: 1, device: .pointer,
            position: Point(x: 1, y: 2), direction: .right, modifiers: [.super, .shift], button: 1)
        #expect(ReportFormatter.json(pointer, action: "key ctrl+c")
            == #"{"t":5,"gesture":"swipe","phase":"recognized","fingers":1,"device":"pointer","button":1,"mods":["shift","super"],"x":1,"y":2,"direction":"right","action":"key ctrl+c"}"#)
        #expect(ReportFormatter.human(pointer) == "5 ms  swipe recognized  on the mouse at (1, 2)  button 1  with shift+super  direction right")
        let plain = GestureReport(
            time: Instant(milliseconds: 5), gesture: .swipe, phase: .recognized, fingers: 3, device: .touchpad,
            position: Point(x: 1, y: 2), direction: .left)
        #expect(!ReportFormatter.json(plain).contains("mods") && !ReportFormatter.json(plain).contains("button"))
    }

    @Test("replay prints mods and button from a trace through the daemon's pipeline")
    func replayedLines() throws {
        let config = try Config.parse("""
            [[bind]]
            gesture = "swipe"
            device = "pointer"
            button = 1
            modifiers = "super"
            direction = "right"
            action = "key ctrl+c"
            """, file: "c.toml")
        var printed: [String] = []
        let printer = ReportPrinter(format: .json, config: { config }) { printed.append($0) }
        let pipeline = Pipeline(config: config, performer: nil, arbiter: nil) { printer.print($0) }
        var reader = TraceReader(text: """
            {"t":0,"type":"button-press","x":400,"y":400,"button":1}
            {"t":60,"type":"button-release","x":400,"y":400,"button":1}
            {"t":100,"type":"button-press","x":400,"y":400,"button":1,"mods":["super"]}
            {"t":150,"type":"motion","x":700,"y":400}
            {"t":160,"type":"button-release","x":700,"y":400,"button":1}
            """)
        for event in try reader.readAll() { pipeline.handle(event) }
        #expect(printed == [
            #"{"t":150,"gesture":"swipe","phase":"recognized","fingers":1,"device":"pointer","button":1,"mods":["super"],"x":700,"y":400,"direction":"right","action":"key ctrl+c"}"#
        ])
    }

    @Test("the live log's line of a gesture begun with modifiers names them")
    func liveLogMetadata() throws {
        let config = try Config.parse("[[bind]]\ngesture = \"swipe\"\nfingers = 3\nmodifiers = \"ctrl\"\naction = \"workspace next\"\n", file: "c.toml")
        var log = LiveLog()
        let report = GestureReport(
            time: Instant(milliseconds: 5), gesture: .swipe, phase: .recognized, fingers: 3, device: .touchpad,
            position: Point(x: 1, y: 2), direction: .left, firing: 0, modifiers: .ctrl)
        let lines = log.lines(for: report, binding: config.bindings[0], config: config)
        #expect(lines.map { $0.metadata["mods"] } == ["ctrl"])
        var plain = report
        plain.modifiers = []
        #expect(log.lines(for: plain, binding: config.bindings[0], config: config).allSatisfy { $0.metadata["mods"] == nil })
    }
}
