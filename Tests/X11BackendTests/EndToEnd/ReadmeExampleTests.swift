import Foundation
import GestureTestKit
import Testing

/// The README's first example is what the binary prints: `gesture-bridge --dry-run` with no
/// config file, a right-button drag of 100 px to the right from (380, 400), then a right click.
///
/// Each line of the example must match a line of the output, in order: `...` stands for any
/// text, the time in milliseconds that starts a gesture line for any number, and display `:0`
/// for the test's display. Output the example leaves out (warnings about devices this server
/// lacks) may come between.
@Suite("the README's dry-run example, end to end")
struct ReadmeExampleTests {
    /// The lines of the README's `console` block that starts with `$ command`, the command left out.
    static func consoleExample(_ command: String) throws -> [String] {
        let readme = try String(contentsOfFile: SourceTree.path("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.indices.first { lines[$0] == "$ \(command)" && $0 > 0 && lines[$0 - 1] == "```console" },
                                 "the README has no console example of \(command)")
        return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("```") })
    }

    /// Whether `line` is what the example's `pattern` shows.
    static func matches(_ line: String, _ pattern: String) -> Bool {
        // "18793747 ms  swipe …": any time.
        func anyTime(_ text: String) -> String { text.first?.isNumber == true ? "N" + text.drop { $0.isNumber } : text }
        let pattern = anyTime(pattern)
        var rest = Substring(anyTime(line))
        let pieces = pattern.components(separatedBy: "...")
        for (k, piece) in pieces.enumerated() {
            if piece.isEmpty { continue }
            if k == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if k == pieces.count - 1 {
                return rest.hasSuffix(piece)
            } else {
                guard let found = rest.range(of: piece) else { return false }
                rest = rest[found.upperBound...]
            }
        }
        return pieces.last?.isEmpty == true || rest.isEmpty
    }

    @Test("a right-drag to the right, then a right click, with the embedded default config")
    func dryRunExample() throws {
        let example = try Self.consoleExample("gesture-bridge --dry-run")
        try #require(example.count >= 3, "\(example)")
        try XServer.with { server in
            let home = DaemonProcess.makeDirectory()
            // No config file anywhere: the embedded default is used.
            let daemon = try DaemonProcess(
                server, directory: home, configFile: home.appendingPathComponent("none.toml"), arguments: ["--dry-run", "--verbose"],
                environment: ["XDG_CONFIG_DIRS": home.appendingPathComponent("none").path])
            let mouse = try PointerDriver(server)
            // --dry-run reads where the pointer is when it handles an event (it takes nothing,
            // so the pointer is not frozen): the drag starts once the press is handled, as a
            // hand's would. --verbose says when (the recognizer's transitions); it adds lines,
            // and changes none of those the README shows. Two motions of 50 px then: the swipe
            // is recognized at the second (it has gone 80 px), where the pointer rests, (480, 400).
            mouse.move(to: 380, 400)
            mouse.press()
            let pressed = poll { daemon.output.contains("pointer swipe: idle → button-press → possible") }
            #expect(pressed, "\(daemon.output)")
            mouse.drag(by: 100, 0, steps: 2)
            let swiped = poll { daemon.output.contains("swipe recognized") }
            mouse.release()
            #expect(swiped, "\(daemon.output)")
            mouse.move(to: 600, 300)
            mouse.press()
            mouse.release()
            let clicked = poll { daemon.output.contains("not a gesture") }
            #expect(clicked, "\(daemon.output)")
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output)")

            var output = daemon.output.split(separator: "\n").map(String.init)[...]
            for shown in example {
                let pattern = shown.replacingOccurrences(of: "on display :0", with: "on display \(server.name)")
                guard let index = output.firstIndex(where: { Self.matches($0, pattern) }) else {
                    Issue.record("the README shows “\(shown)”, which the binary did not print (in this order):\n\(daemon.output)")
                    return
                }
                output = output[(index + 1)...]
            }
        }
    }

    @Test("the matching: ... is any text, a leading time any number")
    func matching() {
        #expect(Self.matches("2026-01-01 notice gesture-bridge: a b c", "... notice gesture-bridge: a ..."))
        #expect(Self.matches("12 ms  swipe x", "18793747 ms  swipe x"))
        #expect(!Self.matches("12 ms  swipe y", "18793747 ms  swipe x"))
        #expect(!Self.matches("notice gesture-bridge: a", "... notice gesture-bridge: b ..."))
        #expect(Self.matches("12 ms  mouse button 3: not a gesture", "18794120 ms  mouse button 3: not a gesture"))
        #expect(!Self.matches("12 ms  mouse button 3: not a gesture, more", "18794120 ms  mouse button 3: not a gesture"))
    }
}
