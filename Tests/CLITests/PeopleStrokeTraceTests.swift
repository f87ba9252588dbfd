import Foundation
import GestureTestKit
import Testing

/// People's drawings replayed through the binary: two drawings of each of the $1 study's 16
/// gestures (the 15 built-in shapes it has and the question mark, which is not built in), by
/// five people at three speeds, as a finger on the touchscreen and as the pointer with its
/// trigger button (`stroke-accuracy fixtures`, docs/performance.md). Each must fire the shape
/// that was drawn, the question marks nothing; the scores are checked to the digit by the
/// committed output, so a change of the recognizer's scoring shows here as a diff to read.
@Suite("people's strokes")
struct PeopleStrokeTraceTests {
    static let root = URL(fileURLWithPath: SourceTree.root, isDirectory: true)
    static let directory = "Tests/Fixtures/strokes"

    /// A drawing of the fixture: when it begins, and what was drawn.
    struct Drawing { var start: Double; var shape: String; var person: String; var speed: String }

    static func drawings() throws -> [Drawing] {
        let text = try String(contentsOf: root.appendingPathComponent("\(directory)/people.drawings.txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 4, let start = Double(fields[0]) else { return nil }
            return Drawing(start: start, shape: fields[1], person: fields[2], speed: fields[3])
        }
    }

    func replay(_ device: String) throws -> CLI.Result {
        try CLI.run(["--config", "\(Self.directory)/people.config.toml", "replay", "\(Self.directory)/people.\(device).trace.jsonl", "--json"],
                    directory: Self.root)
    }

    @Test("each drawing fires the shape drawn, and a question mark nothing", arguments: ["touchscreen", "pointer"])
    func rightShapes(device: String) throws {
        let drawings = try Self.drawings()
        #expect(drawings.count == 32)
        let result = try replay(device)
        #expect(result.status == 0, "\(result.err)")
        var fired = [[String]](repeating: [], count: drawings.count)
        for line in result.out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            // Input given back and why nothing fired are lines of their own (docs/interface.md «Output»).
            guard object["event"] == nil else { continue }
            let time = try #require(object["t"] as? Double)
            let index = try #require(drawings.lastIndex { $0.start <= time })
            fired[index].append("\(object["gesture"] ?? "?") \(object["shape"] ?? "-") \(object["action"] != nil ? "fired" : "")")
        }
        for (drawing, what) in zip(drawings, fired) {
            let expected = drawing.shape == "question-mark" ? [] : ["stroke \(drawing.shape) fired"]
            #expect(what == expected, "\(drawing.shape) by \(drawing.person), \(drawing.speed), on the \(device)")
        }
    }

    @Test("the replay is the committed output", arguments: ["touchscreen", "pointer"])
    func output(device: String) throws {
        let file = "\(Self.directory)/people.\(device).expected.jsonl"
        let expected = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
        let result = try replay(device)
        #expect(result.status == 0, "\(result.err)")
        #expect(!expected.isEmpty)
        #expect(result.out == expected, "\(file): \(GoldenTraceTests.difference(result.out, expected))")
    }
}
