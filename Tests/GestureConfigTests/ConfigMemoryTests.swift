import Foundation
import Testing

@testable import GestureConfig

/// Memory over many loads: a daemon reloads its config for weeks, so a load must give back
/// everything it took, failed loads included.
@Suite("Config memory")
struct ConfigMemoryTests {
    /// Five bindings, as a typical user config has.
    static let fiveBindings = """
        [recognizer]
        long_press_ms = 600

        [[bind]]
        gesture = "swipe"
        fingers = 3
        direction = "left"
        action = "workspace next"

        [[bind]]
        gesture = "swipe"
        fingers = 3
        direction = "right"
        action = "workspace prev"

        [[bind]]
        gesture = "long-press"
        device = "touchscreen"
        action = "click right"

        [[bind]]
        gesture = "pinch"
        direction = "out"
        repeat_every = 0.2
        action = "key ctrl+plus"

        [[bind]]
        gesture = "tap"
        fingers = 2
        action = "exec notify-send 'two fingers'"

        """

    /// Resident memory in bytes, from `/proc/self/statm`.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Loads a good file, a file with a syntax error and a file with content errors, `rounds` times.
    static func loadRepeatedly(_ rounds: Int, good: String, syntaxError: String, contentError: String) {
        for _ in 0..<rounds {
            _ = try? Config.load(contentsOf: good)
            _ = try? Config.load(contentsOf: syntaxError)
            _ = try? Config.load(contentsOf: contentError)
        }
    }

    // The loop runs in a child process of its own, so that tests running in parallel in this
    // one do not move its resident memory. A leak of the parsed tree (6.5 KB per load of this
    // config) grows it by about 190 MB; a flat loader moves it by allocator noise only.
    @Test("Memory stays flat over 10,000 loads of a good, a syntactically bad and an invalid config")
    func memoryStaysFlat() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let directory = try TemporaryDirectory()
            let good = try directory.write("good.toml", ConfigMemoryTests.fiveBindings)
            let syntaxError = try directory.write("syntax.toml", ConfigMemoryTests.fiveBindings + "[[bind]\n")
            let contentError = try directory.write(
                "content.toml", ConfigMemoryTests.fiveBindings.replacing("workspace next", with: "workspace nxt"))
            // Warm up: the allocator's arenas, Foundation's caches, the keysym tables.
            ConfigMemoryTests.loadRepeatedly(1_000, good: good, syntaxError: syntaxError, contentError: contentError)
            let before = ConfigMemoryTests.residentBytes()
            ConfigMemoryTests.loadRepeatedly(10_000, good: good, syntaxError: syntaxError, contentError: contentError)
            let growth = ConfigMemoryTests.residentBytes() - before
            FileHandle.standardError.write(Data("growth=\(growth)\n".utf8))
        }
        let report = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        let growth = try #require(report.split(separator: "\n").last { $0.hasPrefix("growth=") }.flatMap { Int($0.dropFirst(7)) })
        // Slack for the allocator's own bookkeeping: 1 MB is 35 bytes a load.
        #expect(growth < 1 << 20, "resident memory grew by \(growth) bytes over 30,000 loads")
    }
}
