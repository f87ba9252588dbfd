import Foundation
import GestureEngine
import Testing

@testable import BridgeCore
import GestureTestKit

/// The process's resident memory in bytes, from `/proc/self/statm` (second field, in pages).
private func residentBytes() throws -> Int {
    let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
    let fields = statm.split(separator: " ")
    let pages = try #require(fields.count > 1 ? Int(fields[1]) : nil)
    return pages * sysconf(Int32(_SC_PAGESIZE))
}

@Suite("Trace reader: streaming")
struct TraceStreamingTests {
    static let lineCount = 200_000

    @Test("reading a long trace keeps memory flat")
    func memoryStaysFlat() throws {
        let path = TestScratch.path("trace-streaming") + ".trace"
        defer { try? FileManager.default.removeItem(atPath: path) }

        // ~190 bytes a line, ~38 MB in all: loading it whole would show far above the bound.
        let padding = String(repeating: "p", count: 110)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        var batch = ""
        for index in 0..<Self.lineCount {
            batch += #"{"t":\#(index),"type":"touch-update","id":\#(index % 10),"x":\#(index % 1920).5,"y":\#(index % 1080),"pad":"\#(padding)"}"#
            batch += "\n"
            if index % 10_000 == 9_999 {
                handle.write(Data(batch.utf8))
                batch = ""
            }
        }
        handle.write(Data(batch.utf8))
        try handle.close()
        let fileSize = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(fileSize > 35_000_000)

        // The baseline comes before the reader opens, so a reader that loaded the file up front
        // would show too.
        let baseline = try residentBytes()
        var reader = try TraceReader(path: path)
        var peak = try residentBytes()
        var count = 0
        var last: InputEvent?
        while let event = try reader.next() {
            count += 1
            last = event
            if count % 5_000 == 0 { peak = max(peak, try residentBytes()) }
        }
        #expect(count == Self.lineCount)
        #expect(last == InputEvent(time: Instant(milliseconds: 199_999), .touchUpdate(id: 9, at: Point(x: 319.5, y: 199))))
        let growth = peak - baseline
        // Generous: other tests run in the same process at the same time.
        #expect(growth < 16 * 1024 * 1024, "resident memory grew by \(growth) bytes over a \(fileSize)-byte trace")
    }
}
