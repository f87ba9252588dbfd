import Foundation
import GestureEngine
import Testing

@testable import BridgeCore
import GestureTestKit

/// One well-formed trace and the events it stands for.
private struct GoodTrace: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let events: [InputEvent]

    init(_ name: String, _ text: String, _ events: [InputEvent]) {
        self.name = name
        self.text = text
        self.events = events
    }

    var testDescription: String { name }
}

private func at(_ t: Double, _ kind: InputEvent.Kind) -> InputEvent { InputEvent(time: Instant(milliseconds: t), kind) }
private func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

private let goodTraces: [GoodTrace] = [
    GoodTrace("touch-begin", #"{"t":0,"type":"touch-begin","id":1,"x":10,"y":20}"#, [at(0, .touchBegin(id: 1, at: p(10, 20)))]),
    GoodTrace("touch-update", #"{"t":5.5,"type":"touch-update","id":7,"x":10.25,"y":-3}"#, [at(5.5, .touchUpdate(id: 7, at: p(10.25, -3)))]),
    GoodTrace("touch-end", #"{"t":9,"type":"touch-end","id":0,"x":0,"y":0}"#, [at(9, .touchEnd(id: 0, at: p(0, 0)))]),
    GoodTrace("touch-cancel", #"{"t":9,"type":"touch-cancel","id":3,"x":1,"y":2}"#, [at(9, .touchCancel(id: 3, at: p(1, 2)))]),
    GoodTrace("button-press", #"{"t":1,"type":"button-press","button":3,"x":100,"y":200}"#, [at(1, .buttonPress(button: 3, at: p(100, 200)))]),
    GoodTrace("button-release", #"{"t":1,"type":"button-release","button":1,"x":100,"y":200}"#, [at(1, .buttonRelease(button: 1, at: p(100, 200)))]),
    GoodTrace("motion", #"{"t":2,"type":"motion","x":3.5,"y":4.5}"#, [at(2, .motion(at: p(3.5, 4.5)))]),
    GoodTrace("touchpad-swipe-begin with a position", #"{"t":0,"type":"touchpad-swipe-begin","fingers":3,"x":640,"y":360}"#,
              [at(0, .touchpadSwipeBegin(fingers: 3, at: p(640, 360)))]),
    GoodTrace("touchpad-swipe-begin without a position", #"{"t":0,"type":"touchpad-swipe-begin","fingers":4}"#,
              [at(0, .touchpadSwipeBegin(fingers: 4, at: nil))]),
    GoodTrace("touchpad-swipe-update", #"{"t":8,"type":"touchpad-swipe-update","fingers":3,"dx":-12.5,"dy":0.25}"#,
              [at(8, .touchpadSwipeUpdate(fingers: 3, delta: p(-12.5, 0.25)))]),
    GoodTrace("touchpad-swipe-end, not cancelled by default", #"{"t":9,"type":"touchpad-swipe-end","fingers":3}"#,
              [at(9, .touchpadSwipeEnd(fingers: 3, cancelled: false))]),
    GoodTrace("touchpad-swipe-end, cancelled", #"{"t":9,"type":"touchpad-swipe-end","fingers":3,"cancelled":true}"#,
              [at(9, .touchpadSwipeEnd(fingers: 3, cancelled: true))]),
    GoodTrace("touchpad-pinch-begin", #"{"t":0,"type":"touchpad-pinch-begin","fingers":2,"x":1,"y":2}"#,
              [at(0, .touchpadPinchBegin(fingers: 2, at: p(1, 2)))]),
    GoodTrace("touchpad-pinch-update with a delta", #"{"t":3,"type":"touchpad-pinch-update","fingers":2,"dx":1,"dy":-1,"scale":1.25,"angle":-3.5}"#,
              [at(3, .touchpadPinchUpdate(fingers: 2, delta: p(1, -1), scale: 1.25, angle: -3.5))]),
    GoodTrace("touchpad-pinch-update, delta defaults to 0", #"{"t":3,"type":"touchpad-pinch-update","fingers":2,"scale":0.5,"angle":0}"#,
              [at(3, .touchpadPinchUpdate(fingers: 2, delta: .zero, scale: 0.5, angle: 0))]),
    GoodTrace("touchpad-pinch-end", #"{"t":4,"type":"touchpad-pinch-end","fingers":2,"cancelled":false}"#,
              [at(4, .touchpadPinchEnd(fingers: 2, cancelled: false))]),
    GoodTrace("screen", #"{"t":0,"type":"screen","width":1920,"height":1080}"#, [at(0, .screen(width: 1920, height: 1080))]),
    GoodTrace("focus", #"{"t":0,"type":"focus","app":"firefox"}"#, [at(0, .focus(app: "firefox"))]),
    GoodTrace("focus with a WM_CLASS class", #"{"t":0,"type":"focus","app":"navigator","class":"Firefox"}"#,
              [at(0, .focus(app: "navigator", appClass: "Firefox"))]),
    GoodTrace("focus with an empty app", #"{"t":0,"type":"focus","app":""}"#, [at(0, .focus(app: ""))]),
    GoodTrace("every string escape", #"{"t":0,"type":"focus","app":"a\"b\\c\/d\b\f\n\r\t\u00e9\u20AC\ud83d\ude00"}"#,
              [at(0, .focus(app: "a\"b\\c/d\u{08}\u{0C}\n\r\t\u{E9}\u{20AC}\u{1F600}"))]),
    GoodTrace("raw UTF-8 in a string", #"{"t":0,"type":"focus","app":"Éditeur 😀"}"#, [at(0, .focus(app: "Éditeur 😀"))]),
    GoodTrace("an escaped key", #"{"\u0074":1,"typ\u0065":"motion","x":1,"y":2}"#, [at(1, .motion(at: p(1, 2)))]),
    GoodTrace("fields in any order, whitespace between tokens", " { \"y\" : 2 ,\t\"x\":1, \"type\":\"motion\" , \"t\" : 1 } ",
              [at(1, .motion(at: p(1, 2)))]),
    GoodTrace("number forms", #"{"t":-1.5e2,"type":"motion","x":1E2,"y":-0.001}"#, [at(-150, .motion(at: p(100, -0.001)))]),
    GoodTrace("whole numbers written as fractions or exponents", #"{"t":0,"type":"screen","width":1.92e3,"height":1080.0}"#,
              [at(0, .screen(width: 1920, height: 1080))]),
    GoodTrace("a tiny number underflows to 0, which is finite", #"{"t":0,"type":"motion","x":1e-999,"y":0}"#, [at(0, .motion(at: p(0, 0)))]),
    GoodTrace("a 17-digit number rounds to the nearest Double", #"{"t":12345678901234567,"type":"motion","x":0.1,"y":0.30000000000000004}"#,
              [at(12345678901234568, .motion(at: p(0.1, 0.30000000000000004)))]),
    GoodTrace("unknown fields of every kind are ignored",
              #"{"t":0,"note":"x\"}","n":[1,[2,{"a":null}],{}],"o":{"deep":{"er":[true,false]}},"type":"motion","e":-0.5e-3,"x":1,"y":2,"z":null}"#,
              [at(0, .motion(at: p(1, 2)))]),
    GoodTrace("unknown fields nested up to the limit", #"{"t":0,"type":"motion","x":1,"y":2,"deep":"# + String(repeating: "[", count: 127)
              + String(repeating: "]", count: 127) + "}", [at(0, .motion(at: p(1, 2)))]),
    GoodTrace("fields of other event types are ignored", #"{"t":0,"type":"motion","x":1,"y":2,"id":"not checked","fingers":0}"#,
              [at(0, .motion(at: p(1, 2)))]),
    GoodTrace("blank and whitespace-only lines", "\n  \n{\"t\":0,\"type\":\"motion\",\"x\":1,\"y\":2}\n\t\r\n\n",
              [at(0, .motion(at: p(1, 2)))]),
    GoodTrace("a byte order mark at the start", "\u{FEFF}{\"t\":0,\"type\":\"motion\",\"x\":1,\"y\":2}\n",
              [at(0, .motion(at: p(1, 2)))]),
    GoodTrace("CRLF line ends", "{\"t\":0,\"type\":\"motion\",\"x\":1,\"y\":2}\r\n{\"t\":1,\"type\":\"motion\",\"x\":3,\"y\":4}\r\n",
              [at(0, .motion(at: p(1, 2))), at(1, .motion(at: p(3, 4)))]),
    GoodTrace("a last line without a line feed", "{\"t\":0,\"type\":\"motion\",\"x\":1,\"y\":2}\n{\"t\":0,\"type\":\"motion\",\"x\":3,\"y\":4}",
              [at(0, .motion(at: p(1, 2))), at(0, .motion(at: p(3, 4)))]),
    GoodTrace("an empty trace", "", []),
    GoodTrace("equal times are in order", "{\"t\":5,\"type\":\"focus\",\"app\":\"a\"}\n{\"t\":5,\"type\":\"focus\",\"app\":\"b\"}\n",
              [at(5, .focus(app: "a")), at(5, .focus(app: "b"))]),
]

@Suite("Trace reader: well-formed traces")
struct TraceReaderTests {
    @Test("reads every event type and form the format allows", arguments: goodTraces)
    fileprivate func readsGoodTrace(_ trace: GoodTrace) throws {
        var reader = TraceReader(text: trace.text, name: "good.trace")
        #expect(try reader.readAll() == trace.events)
        #expect(try reader.next() == nil)
    }

    @Test("reads the same events whatever the chunk size", arguments: [1, 2, 3, 5, 7, 64])
    func chunkEdgesDoNotMatter(_ chunkSize: Int) throws {
        let text = "\u{FEFF}{\"t\":0,\"type\":\"focus\",\"app\":\"Éditeur 😀\"}\r\n\n   \n"
            + "{\"t\":1,\"type\":\"touch-begin\",\"id\":1,\"x\":10,\"y\":20}\n"
            + "{\"t\":2,\"type\":\"touchpad-pinch-update\",\"fingers\":2,\"scale\":1.5,\"angle\":-2}"
        var whole = TraceReader(text: text)
        let expected = try whole.readAll()
        #expect(expected.count == 3)
        var chunked = TraceReader(source: TraceLineSource(bytes: Array(text.utf8), chunkSize: chunkSize), name: "chunked")
        #expect(try chunked.readAll() == expected)
    }

    @Test("counts lines, blank ones included")
    func countsLines() throws {
        var reader = TraceReader(text: "\n\n{\"t\":0,\"type\":\"motion\",\"x\":1,\"y\":2}\n\n")
        _ = try #require(try reader.next())
        #expect(reader.lineNumber == 3)
        #expect(try reader.next() == nil)
        #expect(reader.lineNumber == 4)
    }

    @Test("reads a trace file from disk")
    func readsFile() throws {
        let path = TestScratch.path("trace-reader") + ".trace"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "{\"t\":0,\"type\":\"screen\",\"width\":800,\"height\":600}\n{\"t\":1,\"type\":\"motion\",\"x\":1,\"y\":2}\n"
            .write(toFile: path, atomically: false, encoding: .utf8)
        var reader = try TraceReader(path: path)
        #expect(try reader.readAll() == [at(0, .screen(width: 800, height: 600)), at(1, .motion(at: p(1, 2)))])
    }

    @Test("a file that can't be opened is an error without a line, saying why")
    func missingFile() {
        #expect {
            _ = try TraceReader(path: "/nonexistent/dir/t.trace")
        } throws: { error in
            (error as? TraceError)?.description == "/nonexistent/dir/t.trace: cannot open: No such file or directory"
        }
    }

    @Test("a directory is not a trace")
    func directory() {
        let path = FileManager.default.temporaryDirectory.path
        #expect {
            _ = try TraceReader(path: path)
        } throws: { error in
            (error as? TraceError)?.description == "\(path): cannot open: Is a directory"
        }
    }

    @Test("after an error, the reader keeps throwing it")
    func errorsAreSticky() throws {
        var reader = TraceReader(text: "{\"t\":0,\"type\":\"motion\",\"x\":1,\"y\":2}\nnope\n{\"t\":1,\"type\":\"motion\",\"x\":1,\"y\":2}\n", name: "s.trace")
        #expect(try reader.next() != nil)
        let first = #expect(throws: TraceError.self) { try reader.next() }
        let second = #expect(throws: TraceError.self) { try reader.next() }
        #expect(first == second)
        #expect(first?.line == 2)
    }
}
