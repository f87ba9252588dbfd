import Foundation
import GestureEngine
import Testing

@testable import BridgeCore
import GestureTestKit

private func at(_ t: Double, _ kind: InputEvent.Kind) -> InputEvent { InputEvent(time: Instant(milliseconds: t), kind) }
private func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

/// An event and the exact line the writer must print for it.
private struct WrittenLine: Sendable, CustomTestStringConvertible {
    let event: InputEvent
    let line: String
    init(_ event: InputEvent, _ line: String) {
        self.event = event
        self.line = line
    }
    var testDescription: String { line }
}

private let writtenLines: [WrittenLine] = [
    WrittenLine(at(0, .touchBegin(id: 1, at: p(10, 20))), #"{"t":0,"type":"touch-begin","id":1,"x":10,"y":20}"#),
    WrittenLine(at(1.5, .touchUpdate(id: 1, at: p(10.25, -3))), #"{"t":1.5,"type":"touch-update","id":1,"x":10.25,"y":-3}"#),
    WrittenLine(at(2, .touchEnd(id: 1, at: p(0.1, 0.2))), #"{"t":2,"type":"touch-end","id":1,"x":0.1,"y":0.2}"#),
    WrittenLine(at(2, .touchCancel(id: 2, at: p(1, 1))), #"{"t":2,"type":"touch-cancel","id":2,"x":1,"y":1}"#),
    WrittenLine(at(3, .buttonPress(button: 3, at: p(5, 6))), #"{"t":3,"type":"button-press","x":5,"y":6,"button":3}"#),
    WrittenLine(at(3, .buttonRelease(button: 3, at: p(5, 6))), #"{"t":3,"type":"button-release","x":5,"y":6,"button":3}"#),
    WrittenLine(at(4, .motion(at: p(-0.0, 1e-7))), #"{"t":4,"type":"motion","x":0,"y":1e-07}"#),
    WrittenLine(at(5, .touchpadSwipeBegin(fingers: 3, at: p(640, 360))), #"{"t":5,"type":"touchpad-swipe-begin","x":640,"y":360,"fingers":3}"#),
    WrittenLine(at(5, .touchpadSwipeBegin(fingers: 4, at: nil)), #"{"t":5,"type":"touchpad-swipe-begin","fingers":4}"#),
    WrittenLine(at(6, .touchpadSwipeUpdate(fingers: 3, delta: p(-12.5, 0))), #"{"t":6,"type":"touchpad-swipe-update","fingers":3,"dx":-12.5,"dy":0}"#),
    WrittenLine(at(7, .touchpadSwipeEnd(fingers: 3, cancelled: false)), #"{"t":7,"type":"touchpad-swipe-end","fingers":3,"cancelled":false}"#),
    WrittenLine(at(8, .touchpadPinchBegin(fingers: 2, at: nil)), #"{"t":8,"type":"touchpad-pinch-begin","fingers":2}"#),
    WrittenLine(at(9, .touchpadPinchUpdate(fingers: 2, delta: p(1, 2), scale: 1.25, angle: -3.5)),
                #"{"t":9,"type":"touchpad-pinch-update","fingers":2,"dx":1,"dy":2,"scale":1.25,"angle":-3.5}"#),
    WrittenLine(at(10, .touchpadPinchEnd(fingers: 2, cancelled: true)), #"{"t":10,"type":"touchpad-pinch-end","fingers":2,"cancelled":true}"#),
    WrittenLine(at(1e16, .screen(width: 1920, height: 1080)), #"{"t":1e+16,"type":"screen","width":1920,"height":1080}"#),
    WrittenLine(at(11, .focus(app: "say \"hi\"\\\n\u{01}é")), #"{"t":11,"type":"focus","app":"say \"hi\"\\\n\u0001é"}"#),
    WrittenLine(at(12, .focus(app: "navigator", appClass: "Firefox")), #"{"t":12,"type":"focus","app":"navigator","class":"Firefox"}"#),
]

/// Events of every kind with awkward values, for the round trip.
private let roundTripEvents: [InputEvent] = [
    at(-5, .screen(width: 1, height: 9_007_199_254_740_992)),
    at(-5, .focus(app: "")),
    at(0, .focus(app: "tab\there \u{7F} \u{1F600} \u{2028} \\u0041")),
    at(0.1, .touchBegin(id: -1, at: p(0.1, 0.2))),
    at(0.30000000000000004, .touchUpdate(id: 0, at: p(1.0 / 3, -2.0 / 3))),
    at(1, .touchEnd(id: 9_007_199_254_740_992, at: p(1e-300, 1e300))),
    at(1, .touchCancel(id: 5, at: p(.leastNonzeroMagnitude, -.greatestFiniteMagnitude))),
    at(2, .buttonPress(button: 1, at: p(3, 4))),
    at(2, .buttonRelease(button: 255, at: p(3, 4))),
    at(3, .motion(at: p(123456.789, -0.000001))),
    at(4, .touchpadSwipeBegin(fingers: 3, at: p(10, 10))),
    at(4, .touchpadSwipeBegin(fingers: 3, at: nil)),
    at(5, .touchpadSwipeUpdate(fingers: 3, delta: p(-0.5, 7))),
    at(6, .touchpadSwipeEnd(fingers: 3, cancelled: true)),
    at(6, .touchpadSwipeEnd(fingers: 3, cancelled: false)),
    at(7, .touchpadPinchBegin(fingers: 2, at: p(1, 2))),
    at(7, .touchpadPinchBegin(fingers: 5, at: nil)),
    at(8, .touchpadPinchUpdate(fingers: 2, delta: .zero, scale: 0, angle: -180)),
    at(8, .touchpadPinchUpdate(fingers: 2, delta: p(1, 1), scale: 1.0000001, angle: 0.5)),
    at(9, .touchpadPinchEnd(fingers: 2, cancelled: false)),
    at(9, .touchpadPinchEnd(fingers: 2, cancelled: true)),
]

/// Collects a writer's lines in memory.
private final class Lines: @unchecked Sendable {
    var text = ""
}

@Suite("Trace writer")
struct TraceWriterTests {
    @Test("writes one compact line per event, keys in the fixed order", arguments: writtenLines)
    fileprivate func writesLine(_ expected: WrittenLine) throws {
        let lines = Lines()
        let writer = TraceWriter { lines.text += $0 }
        try writer.write(expected.event)
        #expect(lines.text == expected.line + "\n")
        #expect(writer.lineNumber == 1)
    }

    @Test("what the writer writes, the reader reads back unchanged")
    func roundTrip() throws {
        let lines = Lines()
        let writer = TraceWriter { lines.text += $0 }
        for event in roundTripEvents { try writer.write(event) }
        var reader = TraceReader(text: lines.text)
        #expect(try reader.readAll() == roundTripEvents)
        let kinds = Set(roundTripEvents.map(\.kind.typeName))
        #expect(kinds == Set(TraceEventType.allCases))
    }

    @Test("each written line reads back as its event", arguments: writtenLines)
    fileprivate func lineReadsBack(_ expected: WrittenLine) throws {
        var reader = TraceReader(text: expected.line)
        #expect(try reader.readAll() == [expected.event])
    }

    @Test("writes a file, flushed line by line")
    func writesFile() throws {
        let path = TestScratch.path("trace-writer") + ".trace"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceWriter(path: path)
        try writer.write(roundTripEvents[0])
        // Visible before the writer closes: nothing waits in a buffer.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == #"{"t":-5,"type":"screen","width":1,"height":9007199254740992}"# + "\n")
        for event in roundTripEvents.dropFirst() { try writer.write(event) }
        writer.close()
        var reader = try TraceReader(path: path)
        #expect(try reader.readAll() == roundTripEvents)
    }

    @Test("a file that can't be created is an error without a line")
    func cannotCreate() {
        #expect {
            _ = try TraceWriter(path: "/nonexistent/dir/out.trace")
        } throws: { error in
            (error as? TraceError)?.description == "/nonexistent/dir/out.trace: cannot open: No such file or directory"
        }
    }

    @Test(
        "refuses what the reader would refuse, naming the line it would have been",
        arguments: [
            (at(1, .motion(at: p(.nan, 0))), #"field "x" is not a finite number"#),
            (at(.infinity, .motion(at: p(0, 0))), #"field "t" is not a finite number"#),
            (at(1, .touchBegin(id: 9_007_199_254_740_993, at: p(0, 0))), #"field "id" is too large"#),
            (at(1, .touchpadSwipeEnd(fingers: 0, cancelled: false)), #"field "fingers" must be at least 1, found 0"#),
            (at(1, .buttonPress(button: -1, at: p(0, 0))), #"field "button" must be at least 1, found -1"#),
            (at(1, .screen(width: 0, height: 1)), #"field "width" must be at least 1, found 0"#),
            (at(1, .touchpadPinchUpdate(fingers: 2, delta: .zero, scale: -1, angle: 0)), #"field "scale" must be at least 0"#),
            (at(-0.5, .motion(at: p(0, 0))), "time goes backwards: from 0 to -0.5"),
        ]
    )
    func refusesUnreadableEvents(_ event: InputEvent, _ message: String) throws {
        let lines = Lines()
        let writer = TraceWriter(name: "out.trace") { lines.text += $0 }
        try writer.write(at(0, .motion(at: p(0, 0))))
        let error = try #require(throws: TraceError.self) { try writer.write(event) }
        #expect(error.file == "out.trace")
        #expect(error.line == 2)
        #expect(error.message.contains(message), "message: \(error.message)")
        #expect(lines.text == #"{"t":0,"type":"motion","x":0,"y":0}"# + "\n")
        #expect(writer.lineNumber == 1)
    }

    @Test("a closed writer refuses to write")
    func closed() throws {
        let writer = TraceWriter { _ in }
        writer.close()
        let error = try #require(throws: TraceError.self) { try writer.write(at(0, .focus(app: "x"))) }
        #expect(error.description == "<memory>:1: cannot write: the trace is closed")
    }
}
