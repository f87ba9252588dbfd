import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// Every input kept from fuzzing (`Fuzz/Regressions`: inputs that once broke a promise;
/// `Fuzz/Seeds`: the start of each corpus) runs through the same check as the libFuzzer
/// targets (`scripts/fuzz`), so a fixed bug stays fixed. The bugs the fuzzers found are also
/// pinned by name below, in readable form.
@Suite struct FuzzRegressionTests {
    static let kept = FuzzCorpus.kept()

    @Test func everyTargetHasKeptInputs() {
        let targets = Set(Self.kept.map(\.target))
        #expect(targets == Set(FuzzTarget.allCases), "kept inputs exist for \(targets.map(\.rawValue).sorted())")
    }

    @Test(arguments: kept)
    func aKeptFuzzInputKeepsEveryPromise(_ input: FuzzInput) {
        let violations = input.target.violations(input.bytes)
        #expect(violations.isEmpty, "\(input.path): \(violations.joined(separator: "\n"))")
    }

    // MARK: - Found by the config fuzzer

    /// toml++ asserts that a table header's name begins with a key, that a `}` never comes
    /// where an array expects a value, and that a date or time has digits where it first saw
    /// some: `[!`, `a = [}` or `a = 1979-05-27T&7:00` stopped `check-config` (and a daemon
    /// reloading such a file) with SIGABRT.
    @Test(arguments: [
        ("[!", 1, 2, "table header: expected a key, saw '!'"), ("[=", 1, 2, "table header: expected a key"),
        ("[ [a]]", 1, 3, "table header: expected a key"), ("[\n", 1, 2, "table header: expected a key, saw '\\n'"),
        ("[[é]]", 1, 3, "table header: expected a key"), ("a = 1\n[[ \u{FFFD}]]", 2, 4, "table header: expected a key"),
        ("b=[}", 1, 4, "array: expected a value, saw '}'"), ("b = [1,\n  }]", 2, 3, "array: expected a value"),
        ("b = { a = [ [ } ] ] }", 1, 15, "array: expected a value"),
        ("a = 1979-05-27T&7:32:00Z", 1, 5, "date-time: expected a date or time as TOML writes one"),
        ("[recognizer]\nslop_px = 07:3x:00", 2, 11, "date-time: expected a date or time"),
        ("a = [1979-05-27 07:32:00+1:00]", 1, 6, "date-time: expected a date or time"),
    ])
    func whatStopsTheTOMLParserIsAPositionedSyntaxError(text: String, line: Int, column: Int, message: String) throws {
        let errors = try #require(throws: ConfigErrors.self) { try Config.parse(text, file: "c.toml") }
        let error = try #require(errors.errors.first)
        #expect(errors.errors.count == 1)
        #expect((error.line, error.column) == (line, column), "\(error)")
        #expect(error.message.hasPrefix("TOML syntax error while parsing " + message), "\(error)")
    }

    @Test func headersAndArraysThatTheParserTakesStillLoad() throws {
        let config = try Config.parse(
            "[ recognizer ]\nslop_px = 3\n[ \"pointer\" ]\nbutton = 2\n[[ 'bind' ]]\ngesture = \"tap\"\naction = \"click 1\"\n",
            file: "c.toml")
        #expect(config.settings.slopPx == 3)
        #expect(config.pointerButton == 2)
        #expect(config.bindings.count == 1)
        // Arrays the parser takes (no config key has one): past the syntax, to the key check.
        let errors = try #require(throws: ConfigErrors.self) {
            try Config.parse("x = [ [1, 2], { a = [] },\n # }\n ]\n", file: "c.toml")
        }
        #expect(errors.errors.map(\.description) == ["c.toml:1:1: unknown key 'x'"])
        // Well-formed dates and times reach the key check too (where no key takes one).
        let dates = "[recognizer]\nslop_px = 1979-05-27\nedge_px = 07:32:00.5\ntap_max_ms = 1979-05-27T07:32:00-07:00 # c\n"
        let dateErrors = try #require(throws: ConfigErrors.self) { try Config.parse(dates, file: "c.toml") }
        #expect(dateErrors.errors.map(\.line) == [2, 3, 4], "\(dateErrors)")
        #expect(dateErrors.errors.allSatisfy { $0.message.contains("must be a number") }, "\(dateErrors)")
    }

    /// toml++ puts an end of file two columns past the last line when the text ends with a line
    /// feed (`1:12` for a 10-character line); the error now points at the text's end, or for
    /// a string that is not closed, at its opening quotes.
    @Test(arguments: [("a = '''abc\n", 1, 5), ("a = [1,\n", 2, 1), ("a = '''abc", 1, 5)])
    func anEndOfFileErrorPointsInsideTheText(text: String, line: Int, column: Int) throws {
        let errors = try #require(throws: ConfigErrors.self) { try Config.parse(text, file: "c.toml") }
        let error = try #require(errors.errors.first)
        #expect((error.line, error.column) == (line, column), "\(error)")
    }

    // MARK: - Found by the trace fuzzer

    /// An unknown event type, or a number too large to be finite, was echoed whole in the error
    /// (a megabyte-long line gave a megabyte-long message).
    @Test func aTraceErrorQuotesAnExcerptOfTheValue() throws {
        let long = String(repeating: "x", count: 5_000)
        for line in ["{\"t\":0,\"type\":\"\(long)\"}", "{\"t\":1\(String(repeating: "0", count: 5_000)),\"type\":\"motion\"}"] {
            var reader = TraceReader(text: line, name: "t.jsonl")
            let error = try #require(throws: TraceError.self) { try reader.next() }
            #expect(error.message.count < 120, "\(error.message.prefix(200))")
            #expect(error.message.hasSuffix("…"), "\(error.message.prefix(200))")
        }
    }

    // MARK: - Found by the engine fuzzer

    /// A long press shorter than the settle window was due before the fingers settled; it fired
    /// at its own time once they had, after reports of a later time (and moved the engine's
    /// clock back). It now begins when the fingers settle.
    @Test func aLongPressDueBeforeTheFingersSettledBeginsWhenTheySettle() throws {
        var settings = RecognizerSettings()
        settings.longPressMs = 50
        var s = Script()
        s.down(1, 500, 500, at: 0)
        s.press(3, 100, 100, at: 0)
        s.up(1, 500, 500, at: 300)
        s.release(3, 100, 100, at: 300)
        let configuration = EngineConfiguration(
            settings: settings, triggers: [longPress(every: 10), longPress(f: 2, on: .end)])
        let violations = EngineInvariants.violations(configuration, s.events)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        let began = reports(run(configuration.triggers, s, settings: settings)).filter { $0.phase == .began }
        #expect(began.map(\.device) == [.pointer, .touchscreen])
        #expect(began.map(\.time.milliseconds) == [50, 100], "the pointer at its time, the touchscreen when its fingers settled")
    }

    /// Far from zero, the repeat ratchet's threshold test tolerates billions of steps, and
    /// correcting the counted steps one by one through them hung the engine: a touchpad pan
    /// moved by 1e20 px, then by 1 px more.
    @Test func aRepeatFarFromZeroIsCountedAtOnce() {
        var s = Script()
        s.add(0, .touchpadSwipeBegin(fingers: 3, at: Point(x: 500, y: 500)))
        s.add(10, .touchpadSwipeUpdate(fingers: 3, delta: Point(x: 100, y: 0)))
        s.add(20, .touchpadSwipeUpdate(fingers: 3, delta: Point(x: 1e20, y: 0)))
        s.add(30, .touchpadSwipeUpdate(fingers: 3, delta: Point(x: 1, y: 0)))
        s.add(40, .touchpadSwipeUpdate(fingers: 3, delta: Point(x: 60, y: 0)))
        s.add(50, .touchpadSwipeEnd(fingers: 3, cancelled: false))
        let configuration = EngineConfiguration(triggers: [pan(.right, f: 3, every: 50)])
        let clock = ContinuousClock()
        let start = clock.now
        let violations = EngineInvariants.violations(configuration, s.events)
        let elapsed = clock.now - start
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        #expect(elapsed < .seconds(1), "took \(elapsed)")
    }
}
