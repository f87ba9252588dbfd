import Foundation
import GestureTestKit
import Testing

/// Real traces recorded with `gesture-bridge record` on a headless Xorg (touchscreen, touchpad
/// and mouse driven through inputtest; `scripts/record-fixture-traces`), replayed through the
/// binary and compared line for line with the output committed beside them. A change of what
/// the engine, the bindings or the formatter make of real input shows here as a diff to read;
/// re-record only when the change is intended.
@Suite("golden traces")
struct GoldenTraceTests {
    /// The package root: the fixtures name their config relative to it, as the output does.
    static let root = URL(fileURLWithPath: SourceTree.root, isDirectory: true)
    static let directory = "Tests/Fixtures/traces"

    static let traces = ["touch", "touchpad", "pointer", "strokes"]

    /// The config a trace is replayed with: its own (`NAME.config.toml`) or the common one.
    static func config(for name: String) -> String {
        let own = "\(directory)/\(name).config.toml"
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(own).path) ? own : "\(directory)/config.toml"
    }

    /// `replay` run from the package root, so the config path in the output is the committed one.
    func replay(_ name: String, json: Bool) throws -> CLI.Result {
        let arguments = ["--config", Self.config(for: name), "replay", "\(Self.directory)/\(name).trace.jsonl"] + (json ? ["--json"] : [])
        return try CLI.run(arguments, directory: Self.root)
    }

    /// Strokes drawn on the headless Xorg (touchscreen and mouse): a one-finger circle fires,
    /// a fast one-finger line is a swipe decided at its lift (a circle is bound there too), a
    /// scribble in place is nothing (given back: a `passed-on` line), and a right-button "v"
    /// and circle fire. The
    /// scores (checked to the digit by the golden files) are only required to pass the
    /// threshold here, so that this says what was recognized whatever the recognizer's tuning.
    @Test("the recorded strokes replay as the strokes and the swipe that were drawn")
    func recordedStrokes() throws {
        let result = try replay("strokes", json: true)
        #expect(result.status == 0, "\(result.err)")
        var scores: [Double] = []
        let lines = result.out.split(separator: "\n").map { line -> String in
            guard let range = line.range(of: #""score":[0-9.]+"#, options: .regularExpression) else { return String(line) }
            scores.append(Double(line[range].dropFirst(8)) ?? 0)
            return line.replacingCharacters(in: range, with: #""score":S"#)
        }
        #expect(lines == [
            #"{"t":24898098,"gesture":"stroke","phase":"recognized","fingers":1,"device":"touchscreen","x":640,"y":400,"monitor":"DUMMY0","shape":"circle","score":S,"action":"key ctrl+r"}"#,
            #"{"t":24898600,"gesture":"swipe","phase":"recognized","fingers":1,"device":"touchscreen","x":390,"y":601,"direction":"right","monitor":"DUMMY0","action":"workspace next"}"#,
            // The scribble, given back to the application.
            #"{"t":24899498,"event":"passed-on","device":"touchscreen","id":3}"#,
            #"{"t":24900429,"gesture":"stroke","phase":"recognized","fingers":1,"device":"pointer","button":3,"x":473.5,"y":330.5,"monitor":"DUMMY0","shape":"v","score":S,"action":"key ctrl+v"}"#,
            #"{"t":24901329,"gesture":"stroke","phase":"recognized","fingers":1,"device":"pointer","button":3,"x":573.5,"y":347.5,"monitor":"DUMMY0","shape":"circle","score":S,"action":"key ctrl+r"}"#,
        ])
        #expect(scores.count == 3 && scores.allSatisfy { $0 >= 0.8 && $0 <= 1 }, "\(scores)")
    }

    @Test("replay of a recorded trace is the committed output, as JSON Lines and for a person",
          arguments: traces, [true, false])
    func output(name: String, json: Bool) throws {
        let file = "\(Self.directory)/\(name).expected.\(json ? "jsonl" : "txt")"
        let expected = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
        let result = try replay(name, json: json)
        #expect(result.status == 0, "\(result.err)")
        #expect(!expected.isEmpty)
        #expect(result.out == expected, "\(file): \(Self.difference(result.out, expected))")
    }

    /// The JSON example of docs/interface.md, «Output», is output: each of its lines is a
    /// line of a committed replay (which the test above checks against the binary).
    @Test("the JSON lines docs/interface.md shows in «Output» are lines replay prints")
    func interfaceExample() throws {
        let interface = try String(contentsOf: Self.root.appendingPathComponent("docs/interface.md"), encoding: .utf8)
        let rest = interface[try #require(interface.range(of: "\n## Output\n")).upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        let block = section[try #require(section.range(of: "```json\n")).upperBound...]
        let shown = block[..<(block.range(of: "```")?.lowerBound ?? block.endIndex)].split(separator: "\n").map(String.init)
        #expect(shown.count >= 4, "\(shown)")
        var printed: Set<String> = []
        for name in Self.traces {
            let file = Self.root.appendingPathComponent("\(Self.directory)/\(name).expected.jsonl")
            printed.formUnion(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init))
        }
        for line in shown { #expect(printed.contains(line), "docs/interface.md shows a line no replay prints: \(line)") }
    }

    /// The first line where `actual` and `expected` differ.
    static func difference(_ actual: String, _ expected: String) -> String {
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for k in 0..<max(a.count, e.count) where (k < a.count ? a[k] : nil) != (k < e.count ? e[k] : nil) {
            return "line \(k + 1):\n  got      \(k < a.count ? String(a[k]) : "(nothing)")\n  expected \(k < e.count ? String(e[k]) : "(nothing)")"
        }
        return "no difference"
    }
}
