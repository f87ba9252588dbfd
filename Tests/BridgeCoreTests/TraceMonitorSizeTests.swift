import GestureEngine
import Testing

@testable import BridgeCore

/// A monitor's physical size in a trace (`width_mm`, `height_mm`, docs/interface.md,
/// «Monitors»): written when the monitor reports one, read back alike, refused alike.
@Suite("trace monitors: physical size")
struct TraceMonitorSizeTests {
    func read(_ text: String) throws(TraceError) -> [InputEvent] {
        var reader = TraceReader(text: text, name: "t.trace")
        return try reader.readAll()
    }

    @Test("a monitor's size is written after its rectangle, only when known, and read back")
    func roundTrip() throws {
        var lines: [String] = []
        let writer = TraceWriter { lines.append($0) }
        let monitors = [
            Monitor(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, widthMm: 344, heightMm: 194),
            Monitor(name: "HDMI-1", x: 1920, y: 0, width: 1280, height: 1024),
        ]
        let event = InputEvent(time: Instant(milliseconds: 0), .screen(width: 3200, height: 1080, monitors: monitors))
        try writer.write(event)
        #expect(lines == [
            #"{"t":0,"type":"screen","width":3200,"height":1080,"monitors":[{"name":"eDP-1","x":0,"y":0,"width":1920,"height":1080,"width_mm":344,"height_mm":194},{"name":"HDMI-1","x":1920,"y":0,"width":1280,"height":1024}]}"# + "\n"
        ])
        #expect(try read(lines.joined()) == [event])
    }

    static let bad: [(String, String)] = [
        (#"{"name":"a","x":0,"y":0,"width":1,"height":1,"width_mm":300}"#, #"gives only one of "width_mm" and "height_mm""#),
        (#"{"name":"a","x":0,"y":0,"width":1,"height":1,"height_mm":300}"#, #"gives only one of "width_mm" and "height_mm""#),
        (#"{"name":"a","x":0,"y":0,"width":1,"height":1,"width_mm":0,"height_mm":200}"#, #"field "width_mm" must be a whole number of millimetres from 1, found 0"#),
        (#"{"name":"a","x":0,"y":0,"width":1,"height":1,"width_mm":300,"height_mm":-2}"#, #"field "height_mm" must be a whole number of millimetres from 1"#),
        (#"{"name":"a","x":0,"y":0,"width":1,"height":1,"width_mm":300.5,"height_mm":200}"#, #"field "width_mm" must be a whole number"#),
        (#"{"name":"a","x":0,"y":0,"width":1,"height":1,"width_mm":"300","height_mm":200}"#, #"field "width_mm" must be a whole number, found a string"#),
        (#"{"name":"a","x":0,"y":0,"width":1,"height":1,"width_mm":1,"width_mm":2,"height_mm":200}"#, #"duplicate field "width_mm""#),
    ]

    @Test("a bad size names the line", arguments: bad)
    func badSize(_ monitor: String, _ message: String) throws {
        let text = "{\"t\":0,\"type\":\"motion\",\"x\":1,\"y\":1}\n{\"t\":1,\"type\":\"screen\",\"width\":10,\"height\":10,\"monitors\":[\(monitor)]}\n"
        let error = try #require(throws: TraceError.self) { try read(text) }
        #expect(error.line == 2)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("the writer refuses a size the reader would refuse")
    func writerRefuses() {
        let writer = TraceWriter { _ in }
        for (w, h) in [(300, nil), (nil, 200), (0, 200), (300, -1)] as [(Int?, Int?)] {
            let monitor = Monitor(name: "a", x: 0, y: 0, width: 10, height: 10, widthMm: w, heightMm: h)
            let event = InputEvent(time: Instant(milliseconds: 0), .screen(width: 10, height: 10, monitors: [monitor]))
            #expect(throws: TraceError.self) { try writer.write(event) }
        }
        #expect(writer.lineNumber == 0)
    }
}
