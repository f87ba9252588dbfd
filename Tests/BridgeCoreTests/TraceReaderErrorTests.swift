import Foundation
import GestureEngine
import Testing

@testable import BridgeCore

/// One broken trace: where the reader must stop and what it must say.
private struct BadTrace: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let line: Int
    let message: String

    init(_ name: String, _ text: String, line: Int, _ message: String) {
        self.init(name, bytes: Array(text.utf8), line: line, message)
    }

    init(_ name: String, bytes: [UInt8], line: Int, _ message: String) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.message = message
    }

    var testDescription: String { name }
}

private let motion = #"{"t":0,"type":"motion","x":1,"y":2}"#

private let badTraces: [BadTrace] = [
    // Encoding and line structure
    BadTrace("bytes that are not UTF-8", bytes: Array(#"{"t":0,"type":"focus","app":""#.utf8) + [0xFF] + Array(#""}"#.utf8),
             line: 1, #"not valid UTF-8: byte 0xFF at column 30"#),
    BadTrace("an overlong UTF-8 form", bytes: Array((motion + "\n").utf8) + [0x7B, 0xC0, 0xAF, 0x7D], line: 2, "not valid UTF-8: byte 0xC0 at column 2"),
    BadTrace("a UTF-8 surrogate", bytes: [0x7B, 0xED, 0xA0, 0x80, 0x7D], line: 1, "not valid UTF-8: byte 0xED at column 2"),
    BadTrace("a truncated UTF-8 sequence at the end of a line", bytes: Array(#"{"t":0}"#.utf8) + [0xE2, 0x82], line: 1, "not valid UTF-8: byte 0xE2 at column 8"),
    BadTrace("a byte order mark after the start", motion + "\n\u{FEFF}" + motion, line: 2, "bad JSON at column 1: expected a value, found U+FEFF"),
    BadTrace("an error after CRLF lines names the right line", motion + "\r\n" + motion + "\r\n\r\n{\"t\":1}\r\n", line: 4,
             #"missing required field "type""#),
    BadTrace("an error on a last line without a line feed", motion + "\n\n" + #"{"t":1,"type":"motion","x":1}"#, line: 3,
             #"missing required field "y" for motion"#),

    // JSON syntax
    BadTrace("not JSON at all", "hello", line: 1, "bad JSON at column 1: expected a value, found 'hello'"),
    BadTrace("trailing garbage after the object", motion + " x", line: 1, "bad JSON at column 37: unexpected 'x' after the object"),
    BadTrace("two objects on one line", motion + motion, line: 1, "bad JSON at column 36: unexpected '{' after the object"),
    BadTrace("an unterminated object", #"{"t":0,"type":"motion""#, line: 1, "bad JSON at column 23: expected ',' or '}' after a field value, found end of line"),
    BadTrace("a trailing comma", #"{"t":0,}"#, line: 1, "bad JSON at column 8: expected a field name in double quotes, found '}'"),
    BadTrace("a missing colon", #"{"t" 0}"#, line: 1, "bad JSON at column 6: expected ':' after a field name, found '0'"),
    BadTrace("single quotes", #"{'t':0}"#, line: 1, "bad JSON at column 2: expected a field name in double quotes, found '''"),
    BadTrace("an unterminated string", #"{"t":0,"type":"mot"#, line: 1, "bad JSON at column 15: unterminated string"),
    BadTrace("an invalid escape", #"{"t":0,"type":"mo\qtion"}"#, line: 1, #"bad JSON at column 18: invalid escape '\q' in a string"#),
    BadTrace("a lone high surrogate", #"{"t":0,"type":"focus","app":"\ud83d"}"#, line: 1, #"bad JSON at column 30: unpaired surrogate \uD83D in a string"#),
    BadTrace("a lone low surrogate", #"{"t":0,"type":"focus","app":"\uDE00x"}"#, line: 1, #"bad JSON at column 30: unpaired surrogate \uDE00 in a string"#),
    BadTrace("a short \\u escape", #"{"t":0,"type":"focus","app":"\u12G4"}"#, line: 1, #"bad JSON at column 30: invalid \u escape: expected 4 hex digits"#),
    BadTrace("a raw control character in a string", "{\"t\":0,\"type\":\"focus\",\"app\":\"a\tb\"}", line: 1,
             "bad JSON at column 31: control character U+0009 in a string"),
    BadTrace("a number with a leading zero", #"{"t":012}"#, line: 1, "bad JSON at column 6: invalid number: leading zero"),
    BadTrace("a number with a plus sign", #"{"t":+1}"#, line: 1, "bad JSON at column 6: expected a value, found '+'"),
    BadTrace("a number without digits after the point", #"{"t":1.}"#, line: 1, "bad JSON at column 8: invalid number: expected a digit after '.', found '}'"),
    BadTrace("a number without an exponent", #"{"t":1e}"#, line: 1, "bad JSON at column 8: invalid number: expected a digit in the exponent, found '}'"),
    BadTrace("NaN is not JSON", #"{"t":NaN}"#, line: 1, "bad JSON at column 6: expected a value, found 'NaN'"),
    BadTrace("a misspelt literal", #"{"t":0,"type":"touchpad-swipe-end","fingers":3,"cancelled":tru}"#, line: 1,
             "bad JSON at column 60: expected a value, found 'tru'"),
    BadTrace("bad syntax inside a nested unknown field", #"{"t":0,"type":"motion","x":1,"y":2,"extra":{"a":[1,2,}]}}"#, line: 1,
             "bad JSON at column 54: expected a value, found '}'"),
    BadTrace("unknown fields nested too deeply", #"{"t":0,"deep":"# + String(repeating: "[", count: 128) + String(repeating: "]", count: 128) + "}",
             line: 1, "bad JSON at column 142: arrays and objects nested deeper than 128 levels"),
    BadTrace("a duplicate field", #"{"t":0,"type":"motion","x":1,"y":2,"x":3}"#, line: 1, #"duplicate field "x" at column 36"#),

    // Shape and types
    BadTrace("an array instead of an object", "[1,2]", line: 1, "expected a JSON object, found an array"),
    BadTrace("a number instead of an object", "42", line: 1, "expected a JSON object, found a number"),
    BadTrace("a string instead of an object", #""motion""#, line: 1, "expected a JSON object, found a string"),
    BadTrace("an empty object", "{}", line: 1, #"missing required field "type""#),
    BadTrace("a missing time", #"{"type":"motion","x":1,"y":2}"#, line: 1, #"missing required field "t""#),
    BadTrace("an unknown type", #"{"t":0,"type":"swipe"}"#, line: 1, #"unknown event type "swipe""#),
    BadTrace("a type that is not a string", #"{"t":0,"type":3}"#, line: 1, #"field "type" must be a string, found a number"#),
    BadTrace("a coordinate given as a string", #"{"t":0,"type":"motion","x":"12","y":2}"#, line: 1, #"field "x" must be a number, found a string"#),
    BadTrace("a time given as null", #"{"t":null,"type":"motion","x":1,"y":2}"#, line: 1, #"field "t" must be a number, found null"#),
    BadTrace("an id given as an array", #"{"t":0,"type":"touch-end","id":[1],"x":1,"y":2}"#, line: 1, #"field "id" must be a whole number, found an array"#),
    BadTrace("cancelled given as a string", #"{"t":0,"type":"touchpad-pinch-end","fingers":2,"cancelled":"yes"}"#, line: 1,
             #"field "cancelled" must be true or false, found a string"#),
    BadTrace("an app given as a number", #"{"t":0,"type":"focus","app":7}"#, line: 1, #"field "app" must be a string, found a number"#),

    // Missing fields, per event type
    BadTrace("touch-begin without an id", #"{"t":0,"type":"touch-begin","x":1,"y":2}"#, line: 1, #"missing required field "id" for touch-begin"#),
    BadTrace("touch-update without y", #"{"t":0,"type":"touch-update","id":1,"x":1}"#, line: 1, #"missing required field "y" for touch-update"#),
    BadTrace("touch-end without x", #"{"t":0,"type":"touch-end","id":1,"y":1}"#, line: 1, #"missing required field "x" for touch-end"#),
    BadTrace("touch-cancel without an id", #"{"t":0,"type":"touch-cancel","x":1,"y":1}"#, line: 1, #"missing required field "id" for touch-cancel"#),
    BadTrace("button-press without a button", #"{"t":0,"type":"button-press","x":1,"y":2}"#, line: 1, #"missing required field "button" for button-press"#),
    BadTrace("button-release without x", #"{"t":0,"type":"button-release","button":3,"y":2}"#, line: 1, #"missing required field "x" for button-release"#),
    BadTrace("motion without x", #"{"t":0,"type":"motion","y":2}"#, line: 1, #"missing required field "x" for motion"#),
    BadTrace("touchpad-swipe-begin without fingers", #"{"t":0,"type":"touchpad-swipe-begin"}"#, line: 1,
             #"missing required field "fingers" for touchpad-swipe-begin"#),
    BadTrace("touchpad-swipe-update without dx", #"{"t":0,"type":"touchpad-swipe-update","fingers":3,"dy":1}"#, line: 1,
             #"missing required field "dx" for touchpad-swipe-update"#),
    BadTrace("touchpad-swipe-update without dy", #"{"t":0,"type":"touchpad-swipe-update","fingers":3,"dx":1}"#, line: 1,
             #"missing required field "dy" for touchpad-swipe-update"#),
    BadTrace("touchpad-swipe-end without fingers", #"{"t":0,"type":"touchpad-swipe-end"}"#, line: 1,
             #"missing required field "fingers" for touchpad-swipe-end"#),
    BadTrace("touchpad-pinch-begin without fingers", #"{"t":0,"type":"touchpad-pinch-begin","x":1,"y":1}"#, line: 1,
             #"missing required field "fingers" for touchpad-pinch-begin"#),
    BadTrace("touchpad-pinch-update without scale", #"{"t":0,"type":"touchpad-pinch-update","fingers":2,"angle":0}"#, line: 1,
             #"missing required field "scale" for touchpad-pinch-update"#),
    BadTrace("touchpad-pinch-update without angle", #"{"t":0,"type":"touchpad-pinch-update","fingers":2,"scale":1}"#, line: 1,
             #"missing required field "angle" for touchpad-pinch-update"#),
    BadTrace("touchpad-pinch-end without fingers", #"{"t":0,"type":"touchpad-pinch-end","cancelled":true}"#, line: 1,
             #"missing required field "fingers" for touchpad-pinch-end"#),
    BadTrace("screen without a height", #"{"t":0,"type":"screen","width":800}"#, line: 1, #"missing required field "height" for screen"#),
    BadTrace("focus without an app", #"{"t":0,"type":"focus"}"#, line: 1, #"missing required field "app" for focus"#),
    BadTrace("a touchpad position with x but no y", #"{"t":0,"type":"touchpad-swipe-begin","fingers":3,"x":5}"#, line: 1,
             #"field "x" is given without "y""#),

    // Values
    BadTrace("a number that overflows", #"{"t":0,"type":"motion","x":1e999,"y":2}"#, line: 1, #"field "x" is not a finite number: 1e999"#),
    BadTrace("a time that overflows negatively", #"{"t":-1e999,"type":"motion","x":1,"y":2}"#, line: 1, #"field "t" is not a finite number: -1e999"#),
    BadTrace("a fractional touch id", #"{"t":0,"type":"touch-begin","id":1.5,"x":1,"y":2}"#, line: 1, #"field "id" must be a whole number, found 1.5"#),
    BadTrace("a fractional button", #"{"t":0,"type":"button-press","button":2.5,"x":1,"y":2}"#, line: 1, #"field "button" must be a whole number, found 2.5"#),
    BadTrace("a fractional finger count", #"{"t":0,"type":"touchpad-swipe-end","fingers":2.5}"#, line: 1, #"field "fingers" must be a whole number, found 2.5"#),
    BadTrace("a touch id too large to be exact", #"{"t":0,"type":"touch-begin","id":1e300,"x":1,"y":2}"#, line: 1, #"field "id" is too large: 1e+300"#),
    BadTrace("button 0", #"{"t":0,"type":"button-press","button":0,"x":1,"y":2}"#, line: 1, #"field "button" must be at least 1, found 0"#),
    BadTrace("zero fingers", #"{"t":0,"type":"touchpad-pinch-begin","fingers":0}"#, line: 1, #"field "fingers" must be at least 1, found 0"#),
    BadTrace("a negative finger count", #"{"t":0,"type":"touchpad-swipe-update","fingers":-3,"dx":0,"dy":0}"#, line: 1,
             #"field "fingers" must be at least 1, found -3"#),
    BadTrace("a negative screen width", #"{"t":0,"type":"screen","width":-5,"height":600}"#, line: 1, #"field "width" must be at least 1, found -5"#),
    BadTrace("a zero screen height", #"{"t":0,"type":"screen","width":800,"height":0}"#, line: 1, #"field "height" must be at least 1, found 0"#),
    BadTrace("a negative pinch scale", #"{"t":0,"type":"touchpad-pinch-update","fingers":2,"scale":-0.5,"angle":0}"#, line: 1,
             #"field "scale" must be at least 0, found -0.5"#),

    // Time
    BadTrace("time going backwards", #"{"t":200,"type":"motion","x":1,"y":2}"# + "\n\n" + #"{"t":100.5,"type":"motion","x":1,"y":2}"#, line: 3,
             "time goes backwards: from 200 to 100.5"),

    // Size
    BadTrace("a line longer than the limit", #"{"t":0,"pad":""# + String(repeating: "x", count: TraceLineSource.maximumLineLength) + "\"}", line: 1,
             "line is longer than 1048576 bytes"),
]

@Suite("Trace reader: broken traces")
struct TraceReaderErrorTests {
    @Test("stops at the first problem and names its line", arguments: badTraces)
    fileprivate func reportsProblem(_ trace: BadTrace) throws {
        var reader = TraceReader(bytes: trace.bytes, name: "bad.trace")
        let error = try #require(throws: TraceError.self) {
            while try reader.next() != nil {}
        }
        #expect(error.file == "bad.trace")
        #expect(error.line == trace.line)
        #expect(error.message.contains(trace.message), "message: \(error.message)")
        #expect(error.description == "bad.trace:\(trace.line): \(error.message)")
    }

    @Test("the table covers every event type's required fields")
    func coversEveryType() {
        let named = Set(badTraces.compactMap { trace in
            TraceEventType.allCases.first { trace.message.hasSuffix(" for \($0.rawValue)") }
        })
        #expect(named == Set(TraceEventType.allCases))
    }

    @Test("the error on a trace read from disk carries the path as given")
    func pathAsGiven() throws {
        let dir = FileManager.default.temporaryDirectory.path
        let path = "\(dir)/trace-error-\(UUID()).trace"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try (motion + "\n{\"t\":0,\"type\":\"tap\"}\n").write(toFile: path, atomically: false, encoding: .utf8)
        var reader = try TraceReader(path: path)
        let error = try #require(throws: TraceError.self) { while try reader.next() != nil {} }
        #expect(error.description == "\(path):2: unknown event type \"tap\"")
    }
}
