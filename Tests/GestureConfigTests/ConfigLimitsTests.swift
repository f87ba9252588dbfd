import Foundation
import GestureEngine
import Testing

@testable import GestureConfig

/// What a config may not be, however it is written: too deep, too big, holding NUL, or with
/// values too long to repeat (issue 9, items 1, 2, 15 and 16).
@Suite("Config limits")
struct ConfigLimitsTests {
    /// `a.a.a…` with `parts` parts.
    private static func dotted(_ parts: Int) -> String {
        Array(repeating: "a", count: parts).joined(separator: ".")
    }

    /// The column where part `n` (from 1) of `dotted(_:)` starts, after `offset` characters.
    private static func column(ofPart n: Int, after offset: Int) -> Int { offset + 1 + 2 * (n - 1) }

    /// Long enough to matter in a message, short enough for tests that run side by side (the
    /// trace streaming test watches this process's memory).
    static let long = 100_000

    private static func onlyError(_ toml: String) throws -> ConfigError {
        let thrown = try #require(throws: ConfigErrors.self) { try Config.parse(toml, file: "c.toml") }
        #expect(thrown.errors.count == 1, "\(thrown)")
        return try #require(thrown.errors.first)
    }

    // MARK: - Nesting (item 2)

    // 20,000 parts took 26 s (the locator built 20,000 paths of up to 20,000 steps each); 500,000
    // (a 1 MB file) overflowed toml++'s stack. Both are refused at the first part too deep,
    // before anything quadratic or recursive runs.
    @Test("A table header nested deeper than the limit is refused at the first part too deep", arguments: [33, 2_000, 20_000, 499_000])
    func deepHeader(parts: Int) throws {
        let error = try Self.onlyError("[" + Self.dotted(parts) + "]\n")
        #expect(error.message.hasPrefix("nested too deeply"), "\(error)")
        #expect("\(error.line):\(error.column)" == "1:\(Self.column(ofPart: TOMLLocator.maximumDepth + 1, after: 1))")
    }

    @Test("A dotted key, an array-of-tables header and a header under a dotted key are bounded the same way")
    func deepKeys() throws {
        let deep = TOMLLocator.maximumDepth + 1
        let key = try Self.onlyError(Self.dotted(20_000) + " = 1\n")
        #expect(key.message.hasPrefix("nested too deeply"))
        #expect("\(key.line):\(key.column)" == "1:\(Self.column(ofPart: deep, after: 0))")

        let arrayHeader = try Self.onlyError("[[" + Self.dotted(20_000) + "]]\n")
        #expect("\(arrayHeader.line):\(arrayHeader.column)" == "1:\(Self.column(ofPart: deep, after: 2))")

        // Inside [x], the key's parts start one level down.
        let inTable = try Self.onlyError("[x]\n" + Self.dotted(20_000) + " = 1\n")
        #expect("\(inTable.line):\(inTable.column)" == "2:\(Self.column(ofPart: deep - 1, after: 0))")
    }

    @Test("Nested inline arrays and tables are bounded too")
    func deepValues() throws {
        // `a` is level 1 and each `[` one more: the 33rd `[` (column 5 + 32) would be level 33.
        let arrays = try Self.onlyError("a = " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n")
        #expect(arrays.message.hasPrefix("nested too deeply"))
        #expect("\(arrays.line):\(arrays.column)" == "1:\(5 + TOMLLocator.maximumDepth)")

        let tables = try Self.onlyError("a = " + String(repeating: "{b = ", count: 1_000) + "1" + String(repeating: "}", count: 1_000) + "\n")
        #expect(tables.message.hasPrefix("nested too deeply"))
        #expect(tables.line == 1)
    }

    @Test("Nesting up to the limit is read as usual")
    func nestingAtTheLimit() throws {
        let header = try Self.onlyError("[" + Self.dotted(TOMLLocator.maximumDepth) + "]\n")
        #expect(header.message == "unknown table 'a'", "\(header)")
        let key = try Self.onlyError("[recognizer]\n" + Self.dotted(TOMLLocator.maximumDepth - 1) + " = 1\n")
        #expect(key.message.hasPrefix("unknown table 'a' in [recognizer]"), "\(key)")
    }

    // MARK: - repeat_every (item 1)

    @Test("The smallest and largest repeat_every of each gesture are accepted", arguments: [
        ("pan", 1.0), ("pan", 100_000), ("pinch", 0.005), ("pinch", 100), ("rotate", 0.5), ("rotate", 3_600),
        ("long-press", 10), ("long-press", 3_600_000),
    ])
    func repeatLimitsAccepted(gesture: String, every: Double) throws {
        let config = try Config.parse(
            "[[bind]]\ngesture = \"\(gesture)\"\nrepeat_every = \(every)\naction = \"scroll up\"\n", file: "c.toml")
        #expect(config.bindings.first?.trigger.repeatEvery == every)
    }

    @Test("A repeat_every below the minimum or above the maximum is refused at the value", arguments: [
        ("pan", "0.5", "'repeat_every' of a pan counts pixels and must be from 1 to 100000, not 0.5"),
        ("pan", "1e300", "'repeat_every' of a pan counts pixels and must be from 1 to 100000, not 1e+300"),
        ("pinch", "0.001", "'repeat_every' of a pinch counts changes of scale and must be from 0.005 to 100, not 0.001"),
        ("rotate", "1e-15", "'repeat_every' of a rotate counts degrees and must be from 0.5 to 3600, not 1e-15"),
        ("rotate", "1e-8", "'repeat_every' of a rotate counts degrees and must be from 0.5 to 3600, not 1e-08"),
        ("long-press", "0.001", "'repeat_every' of a long-press counts milliseconds and must be from 10 to 3600000, not 0.001"),
        ("long-press", "9223372036854775807",
         "'repeat_every' of a long-press counts milliseconds and must be from 10 to 3600000, not 9.223372036854776e+18"),
    ])
    func repeatLimitsRefused(gesture: String, every: String, message: String) throws {
        let error = try Self.onlyError("[[bind]]\ngesture = \"\(gesture)\"\nrepeat_every = \(every)\naction = \"scroll up\"\n")
        #expect("\(error.line):\(error.column)" == "3:16")
        #expect(error.message == message)
    }

    @Test("A repeat_every that is not finite is refused at the value")
    func repeatNotFinite() throws {
        for value in ["inf", "-inf", "nan"] {
            let error = try Self.onlyError("[[bind]]\ngesture = \"pan\"\nrepeat_every = \(value)\naction = \"scroll up\"\n")
            #expect("\(error.line):\(error.column)" == "3:16")
            #expect(error.message.hasPrefix("'repeat_every' must be a finite number"), "\(error)")
        }
    }

    // MARK: - Size (item 15)

    @Test("A config of 1 MB is read; one byte more is refused before it is read")
    func sizeLimit() throws {
        let directory = try TemporaryDirectory()
        let line = "# " + String(repeating: "x", count: 1021) + "\n"  // 1 KiB
        let limit = try directory.write("limit.toml", String(repeating: line, count: 1024))
        #expect(try Config.load(contentsOf: limit).bindings.isEmpty)

        let over = try directory.write("over.toml", String(repeating: line, count: 1024) + "\n")
        let thrown = try #require(throws: ConfigErrors.self) { try Config.load(contentsOf: over) }
        #expect(thrown.description == "\(over):1:1: the config is 1048577 bytes; a config may be at most 1 MB (1048576 bytes)")

        let text = try #require(throws: ConfigErrors.self) {
            try Config.parse(String(repeating: line, count: 1025), file: "big.toml")
        }
        #expect(text.errors.first?.message.hasPrefix("the config is 1049600 bytes") == true)
    }

    // `truncate -s 2G` on the watched config froze the daemon reading 2 GB of zeros.
    @Test("A 2 GB sparse file is refused by its size, not read")
    func sparseFile() throws {
        let path = try TemporaryDirectory().write("huge.toml", "[[bind]]\n")
        #expect(truncate(path, 2 << 30) == 0)
        let thrown = try #require(throws: ConfigErrors.self) { try Config.load(contentsOf: path) }
        #expect(thrown.description == "\(path):1:1: the config is 2147483648 bytes; a config may be at most 1 MB (1048576 bytes)")
    }

    // The loads run on a thread of their own with a deadline counted from when they start: a
    // `.timeLimit` trait counts from when the test is scheduled, and on two cores a full suite's
    // blocking end-to-end tests can hold the pool past it before this test even runs.
    @Test("A FIFO or a device is not a config, and opening one does not block")
    func notARegularFile() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/fifo.toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let zero = directory.path + "/zero.toml"
        #expect(symlink("/dev/zero", zero) == 0)

        let results = LoadResults()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            results.fifo = Result { try Config.load(contentsOf: fifo) }.errorDescription
            results.device = Result { try Config.load(contentsOf: zero) }.errorDescription
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 20) == .success, "loading a FIFO or /dev/zero blocked for 20 s")
        #expect(results.fifo == "\(fifo):1:1: cannot read the config: it is not a regular file")
        #expect(results.device == "\(zero):1:1: cannot read the config: it is not a regular file")
    }

    /// What the loads of ``notARegularFile()`` threw, handed from their thread.
    private final class LoadResults: @unchecked Sendable {
        var fifo: String?
        var device: String?
    }

    // MARK: - NUL (item 16)

    // `exec echo a\u0000b` ran `echo a`: the C layer hands strings out as C strings.
    @Test("A NUL in a string is refused where it is written", arguments: [
        (#"action = "exec echo a\u0000b""#, "3:22"),
        (#"action = "exec echo a\U00000000b""#, "3:22"),
        (#"action = """exec echo \u0000""""#, "3:23"),
        ("app = \"fire\\u0000fox\"\naction = \"click left\"", "3:12"),
    ])
    func nulInString(lines: String, position: String) throws {
        let error = try Self.onlyError("[[bind]]\ngesture = \"tap\"\n\(lines)\n")
        #expect("\(error.line):\(error.column)" == position)
        #expect(error.message == #"a string or key may not contain NUL (\u0000): programs and X would see it cut short there"#)
    }

    // Two keys that read alike up to their NUL crashed the loader (a force-unwrap in TOMLKit's iterator).
    @Test("A NUL in a key is refused, and two keys alike up to their NUL do not crash")
    func nulInKey() throws {
        let thrown = try #require(throws: ConfigErrors.self) {
            try Config.parse("\"a\\u0000b\" = 1\n\"a\\u0000c\" = 2\n", file: "c.toml")
        }
        let nuls = thrown.errors.filter { $0.message.contains("NUL") }.map { "\($0.line):\($0.column)" }
        #expect(nuls == ["1:3", "2:3"])
    }

    // MARK: - Echoes (item 16)

    @Test("Messages quote at most the start of a long value", arguments: [
        "[[bind]]\ngesture = \"tap\"\naction = \"scroll down \(String(repeating: "9", count: ConfigLimitsTests.long))\"\n",
        "[[bind]]\ngesture = \"tap\"\naction = \"workspace \(String(repeating: "9", count: ConfigLimitsTests.long))\"\n",
        "[[bind]]\ngesture = \"tap\"\naction = \"\(String(repeating: "x", count: ConfigLimitsTests.long))\"\n",
        "[[bind]]\ngesture = \"tap\"\naction = \"key \(String(repeating: "x", count: ConfigLimitsTests.long))\"\n",
        "[[bind]]\ngesture = \"\(String(repeating: "x", count: ConfigLimitsTests.long))\"\naction = \"click left\"\n",
        "[recognizer]\n\(String(repeating: "k", count: ConfigLimitsTests.long)) = 1\n",
        "\(String(repeating: "k", count: ConfigLimitsTests.long)) = 1\n",
    ])
    func longValuesAreCut(toml: String) throws {
        let error = try Self.onlyError(toml)
        #expect(error.message.count < 300, "\(error.message.prefix(300))")
        #expect(error.message.contains(String(repeating: toml.contains("999") ? "9" : toml.contains("kkk") ? "k" : "x", count: 60) + "…"))
    }

    @Test("An excerpt keeps short text and cuts long text after 60 characters")
    func excerpt() throws {
        #expect(Excerpt.of("workspace next") == "workspace next")
        #expect(Excerpt.of(String(repeating: "é", count: 60)) == String(repeating: "é", count: 60))
        #expect(Excerpt.of(String(repeating: "é", count: 61)) == String(repeating: "é", count: 60) + "…")
        // One message, one line: control characters read as their TOML escapes.
        #expect(Excerpt.of("a\nb\tc\u{1B}d") == #"a\nb\tc\u001Bd"#)
        let key = try Self.onlyError("\"" + String(repeating: #"\n"#, count: 100) + "\" = 1\n")
        #expect(key.message == "unknown key '" + String(repeating: #"\n"#, count: 60) + "…'")
        let action = "exec echo " + String(repeating: "a", count: Self.long)
        let config = try Config.parse("[[bind]]\ngesture = \"tap\"\naction = \"\(action)\"\n", file: "c.toml")
        let binding = try #require(config.bindings.first)
        #expect(binding.actionText == action)  // output lines keep it whole
        #expect(binding.actionExcerpt == String(action.prefix(60)) + "…")
    }
}

private extension Result where Failure == any Error {
    /// The description of the error thrown, nil when nothing was.
    var errorDescription: String? {
        if case .failure(let error) = self { return "\(error)" }
        return nil
    }
}
