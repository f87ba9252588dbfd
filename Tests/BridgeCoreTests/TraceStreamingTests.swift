import Foundation
import GestureEngine
import Testing

@testable import BridgeCore
import GestureTestKit

/// The reader streams a file in chunks: every line is read once, whole, across the chunks'
/// edges. (Its memory, flat however long the trace, is measured on the `replay` process:
/// `TraceStreamingMemoryTests` in CLITests.)
@Suite("Trace reader: streaming")
struct TraceStreamingTests {
    static let lineCount = 20_000

    @Test("a long trace is read line by line, every line once, across the reader's chunks")
    func everyLineOnce() throws {
        let path = TestScratch.path("trace-streaming") + ".trace"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // ~190 bytes a line, ~3.8 MB in all: many chunks, lines cut at every offset.
        let padding = String(repeating: "p", count: 110)
        var text = ""
        for index in 0..<Self.lineCount {
            text += #"{"t":\#(index),"type":"touch-update","id":\#(index % 10),"x":\#(index % 1920).5,"y":\#(index % 1080),"pad":"\#(padding)"}"#
            text += "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)

        var reader = try TraceReader(path: path)
        var count = 0
        var last: InputEvent?
        while let event = try reader.next() {
            #expect(event.time == Instant(milliseconds: Double(count)))
            count += 1
            last = event
        }
        #expect(count == Self.lineCount)
        #expect(last == InputEvent(time: Instant(milliseconds: 19_999), .touchUpdate(id: 9, at: Point(x: 799.5, y: 559))))
    }
}
