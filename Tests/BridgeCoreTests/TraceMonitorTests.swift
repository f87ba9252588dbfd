import GestureEngine
import Testing

@testable import BridgeCore

/// A `screen` event's `monitors` (docs/interface.md, «Monitors»): written and read back alike, refused
/// alike.
@Suite("trace monitors")
struct TraceMonitorTests {
    static let split = [
        Monitor(name: "left", x: 0, y: 0, width: 640, height: 800),
        Monitor(name: "right", x: 640, y: 0, width: 640, height: 800),
    ]

    func read(_ text: String) throws(TraceError) -> [InputEvent] {
        var reader = TraceReader(text: text, name: "t.trace")
        return try reader.readAll()
    }

    @Test func monitorsRoundTripThroughTheWriterAndTheReader() throws {
        var lines: [String] = []
        let writer = TraceWriter { lines.append($0) }
        let events = [
            InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800, monitors: Self.split)),
            InputEvent(time: Instant(milliseconds: 5), .screen(width: 1280, height: 800)),
        ]
        for e in events { try writer.write(e) }
        #expect(lines.first == #"{"t":0,"type":"screen","width":1280,"height":800,"monitors":[{"name":"left","x":0,"y":0,"width":640,"height":800},{"name":"right","x":640,"y":0,"width":640,"height":800}]}"# + "\n")
        #expect(lines.last == #"{"t":5,"type":"screen","width":1280,"height":800}"# + "\n")
        #expect(try read(lines.joined()) == events)
    }

    @Test func unknownFieldsOfAMonitorAreIgnoredAndEscapedNamesDecoded() throws {
        let text = #"{"t":0,"type":"screen","width":10,"height":10,"monitors":[{"primary":true,"name":"a\u00e9","x":0,"y":0,"width":5,"height":10,"extra":[1,{"b":2}]}]}"#
        #expect(try read(text) == [InputEvent(time: Instant(milliseconds: 0), .screen(width: 10, height: 10, monitors: [Monitor(name: "aé", x: 0, y: 0, width: 5, height: 10)]))])
    }

    static let bad: [(String, String)] = [
        (#""monitors":[]"#, #"field "monitors" is empty"#),
        (#""monitors":5"#, #"field "monitors" must be an array of objects, found a number"#),
        (#""monitors":[5]"#, #"monitor 1 in "monitors" must be an object, found a number"#),
        (#""monitors":[{"x":0,"y":0,"width":1,"height":1}]"#, #"monitor 1 in "monitors": missing field "name""#),
        (#""monitors":[{"name":"a","x":0,"y":0,"height":1}]"#, #"missing field "width""#),
        (#""monitors":[{"name":"a","x":0,"y":0,"width":1e999,"height":1}]"#, #"field "width" is not a finite number"#),
        (#""monitors":[{"name":"a","x":0.5,"y":0,"width":1,"height":1}]"#, #"field "x" must be a whole number"#),
        (#""monitors":[{"name":"a","x":0,"y":0,"width":0,"height":1}]"#, "must be at least 1 pixel wide and high, found 0×1"),
        (#""monitors":[{"name":"a","x":0,"y":0,"width":1,"height":-3}]"#, "found 1×-3"),
        (#""monitors":[{"name":"","x":0,"y":0,"width":1,"height":1}]"#, #"has an empty "name""#),
        (#""monitors":[{"name":3,"x":0,"y":0,"width":1,"height":1}]"#, #"field "name" must be a string"#),
        (#""monitors":[{"name":"a","x":0,"y":0,"width":1,"height":1},{"name":"a","x":1,"y":0,"width":1,"height":1}]"#, #"monitor 2 in "monitors": the name "a" is listed twice"#),
        (#""monitors":[{"name":"a","name":"b","x":0,"y":0,"width":1,"height":1}]"#, #"duplicate field "name""#),
        (#""monitors":[{"name":"a","x":0,"y":0,"width":1,"height":1}"#, "bad JSON"),
    ]

    @Test(arguments: bad)
    func aBadMonitorListNamesTheLine(_ field: String, _ message: String) throws {
        let text = "{\"t\":0,\"type\":\"motion\",\"x\":1,\"y\":1}\n{\"t\":1,\"type\":\"screen\",\"width\":10,\"height\":10,\(field)}\n"
        let error = try #require(throws: TraceError.self) { try read(text) }
        #expect(error.line == 2)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func theWriterRefusesWhatTheReaderWouldRefuse() throws {
        let writer = TraceWriter { _ in }
        let bad: [[Monitor]] = [
            [Monitor(name: "", x: 0, y: 0, width: 1, height: 1)],
            [Monitor(name: "a", x: 0, y: 0, width: 0, height: 1)],
            [Monitor(name: "a", x: 0, y: 0, width: 1, height: -1)],
            [Monitor(name: "a", x: 0, y: 0, width: 1, height: 1), Monitor(name: "a", x: 1, y: 0, width: 1, height: 1)],
            [Monitor(name: "a", x: 1 << 60, y: 0, width: 1, height: 1)],
        ]
        for monitors in bad {
            let event = InputEvent(time: Instant(milliseconds: 0), .screen(width: 10, height: 10, monitors: monitors))
            #expect(throws: TraceError.self) { try writer.write(event) }
        }
        #expect(writer.lineNumber == 0)
    }
}
