import BridgeCore
import GestureConfig
import GestureEngine
#if canImport(Glibc)
import Glibc
#endif

/// The three fuzz targets and what each checks of one input. The libFuzzer executables
/// (`Fuzz/`) and the regression tests (the kept inputs under `Fuzz/Regressions` and
/// `Fuzz/Seeds`) run the very same check, so an input that once failed is tested on every
/// `swift test`.
///
/// - `config`: the bytes as config text (invalid UTF-8 repaired, as a lossy reader would)
///   through ``Config/parse(_:file:)``. It must not crash; each error must carry the file, a
///   line and column inside the text and a short message. A config that loads must have
///   actions that read back from their text, and drives a fixed workload of gestures through
///   the pipeline with every promise kept (a config's values must never hang the engine).
/// - `trace`: the bytes through ``TraceReader``. An error names the trace and a line, and
///   comes again on every later read; the events read are in time order, are written back by
///   ``TraceWriter`` and read again unchanged, and replay through the pipeline (with the
///   embedded default config) with every promise kept.
/// - `engine`: the bytes decoded by ``EngineFuzzCase`` into bindings, thresholds and input,
///   run through the pipeline with every promise kept (``pipelineViolations(_:_:tracesTransitions:)``).
///
/// Time limits (a check answers within 1 s) and memory are the fuzzer's to watch
/// (`-timeout=1`, `-rss_limit_mb`; see `scripts/fuzz`).
///
/// ```swift
/// // A trace with a missing field is refused, which is fine: only a wrong refusal is a violation.
/// let problems = FuzzTarget.trace.violations(Array(#"{"t":0,"type":"motion"}"#.utf8))
/// // problems == []
/// ```
public enum FuzzTarget: String, CaseIterable, Hashable, Sendable {
    case config, trace, engine

    /// The longest error message accepted, in characters: messages quote what they complain
    /// about in excerpts, never whole.
    public static let maximumMessageLength = 600

    /// Every broken promise for `bytes`; empty when all held.
    public func violations(_ bytes: [UInt8]) -> [String] {
        switch self {
        case .config: Self.configViolations(bytes)
        case .trace: Self.traceViolations(bytes)
        case .engine: Self.engineViolations(bytes)
        }
    }

    /// The body of `LLVMFuzzerTestOneInput`: checks the input and, when a promise is broken,
    /// prints what broke to standard error and aborts, which libFuzzer reports as a crash and
    /// keeps the input.
    public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let problems = violations(bytes)
        guard problems.isEmpty else {
            var report = "fuzz \(rawValue): \(problems.count) broken promise(s):\n"
            for problem in problems { report += "  \(problem)\n" }
            if self == .engine { report += "the input, decoded:\n" + EngineFuzzCase(decoding: bytes).description }
            report.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
            abort()
        }
        return 0
    }

    // MARK: - config

    static let configFile = "fuzz.toml"

    static func configViolations(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        let config: Config
        do {
            config = try Config.parse(text, file: configFile)
        } catch {
            return errorViolations(error, in: text)
        }
        var problems: [String] = []
        if config.engineConfiguration.triggers.count != config.bindings.count {
            problems.append("\(config.bindings.count) bindings make \(config.engineConfiguration.triggers.count) triggers")
        }
        for binding in config.bindings {
            let again = binding.actionTexts.map { try? Action(parsing: $0) }
            if again != binding.actions.map(Optional.some) {
                problems.append("the action '\(binding.actionExcerpt)' does not read back the same")
            }
        }
        return problems + pipelineViolations(config, configWorkload)
    }

    private static func errorViolations(_ error: ConfigErrors, in text: String) -> [String] {
        guard !error.errors.isEmpty else { return ["a config error with no problem in it"] }
        // Each line's length in Unicode scalars; a position may point just past a line's end.
        var lengths = [0]
        for scalar in text.unicodeScalars {
            if scalar == "\n" { lengths.append(0) } else { lengths[lengths.count - 1] += 1 }
        }
        var problems: [String] = []
        for e in error.errors {
            let at = "\(e.line):\(e.column) (\(lengths.count) lines): \(Excerpt.of(e.message, maximumLength: 120))"
            if e.file != configFile { problems.append("an error names '\(Excerpt.of(e.file))', not the file: \(at)") }
            if e.line < 1 || e.line > lengths.count {
                problems.append("an error on a line outside the text: \(at)")
            } else if e.column < 1 || e.column > lengths[e.line - 1] + 1 {
                problems.append("an error at a column outside its line (\(lengths[e.line - 1]) characters): \(at)")
            }
            if e.message.isEmpty { problems.append("an error without a message at \(e.line):\(e.column)") }
            if e.message.count > maximumMessageLength {
                problems.append("an error message of \(e.message.count) characters: \(at)")
            }
        }
        return problems
    }

    /// Gestures of every kind on every device, for each config that loads: 1 to 4 finger taps
    /// (a double tap too), swipes and drags in eight directions, from the edges, a long press,
    /// pinches and rotations, pointer drags and clicks, touchpad swipes and pinches.
    static let configWorkload: [FuzzStep] = {
        var s = Script(screen: (1280, 800), app: "firefox")
        var t = 0.0
        for fingers in 1...4 {
            s.tap(fingers: fingers, at: 400, 300, time: t); t += 60
            s.tap(fingers: fingers, at: 400, 300, time: t); t += 1_000
        }
        for (k, d) in Direction.planar.enumerated() {
            let v = d.unitVector
            let fingers = 1 + k % 4
            s.drag(fingers: fingers, from: 600, 400, by: v.x * 300, v.y * 300, time: t, duration: 150); t += 1_000
            s.drag(fingers: fingers, from: 600, 400, by: v.x * 200, v.y * 200, time: t, duration: 900, lift: 600); t += 2_500
        }
        s.drag(from: 2, 400, by: 300, 0, time: t, duration: 150); t += 1_000
        s.drag(from: 640, 798, by: 0, -300, time: t, duration: 150); t += 1_000
        s.tap(at: 500, 500, time: t, hold: 1_600); t += 3_000
        s.twoFingers(around: 600, 400, factor: 0.4, time: t); t += 1_000
        s.twoFingers(around: 600, 400, factor: 2.5, degrees: 60, time: t); t += 1_000
        s.twoFingers(around: 600, 400, degrees: -90, time: t); t += 1_000
        s.pointerDrag(from: 600, 400, by: -300, 0, time: t, duration: 150); t += 1_000
        s.pointerDrag(from: 600, 400, by: 0, 0, time: t, duration: 900); t += 2_000
        s.press(3, 100, 100, at: t); s.release(3, 100, 100, at: t + 30); t += 1_000
        for fingers in 2...4 {
            s.touchpadSwipe(fingers: fingers, by: -400, 0, time: t, duration: 200); t += 1_000
            s.touchpadSwipe(fingers: fingers, by: 30, 500, time: t, duration: 900); t += 2_000
        }
        s.touchpadPinch(scale: 0.3, degrees: 40, time: t); t += 1_000
        s.touchpadPinch(fingers: 3, scale: 3, degrees: -200, time: t, cancelled: true)
        return s.events.map(FuzzStep.event)
    }()

    // MARK: - trace

    static let traceFile = "fuzz.trace"

    /// The config traces replay with in the fuzzer: the embedded default.
    static let replayConfig: Config = {
        do {
            return try Config.load(from: .embedded)
        } catch {
            preconditionFailure("the embedded config does not load: \(error)")
        }
    }()

    static func traceViolations(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        var reader = TraceReader(bytes: bytes, name: traceFile)
        var events: [InputEvent] = []
        do {
            while let event = try reader.next() { events.append(event) }
        } catch {
            if error.file != traceFile { problems.append("an error names '\(Excerpt.of(error.file))', not the trace") }
            if (error.line ?? 0) < 1 { problems.append("an error without a line: \(error)") }
            if error.message.isEmpty { problems.append("an error without a message: \(error)") }
            if error.message.count > maximumMessageLength {
                problems.append("an error message of \(error.message.count) characters: \(Excerpt.of(error.message, maximumLength: 120))")
            }
            do {
                _ = try reader.next()
                problems.append("the reader read on after its error: \(error)")
            } catch let again where again != error {
                problems.append("a second read threw another error: \(again), after \(error)")
            } catch {}
        }
        for (k, e) in events.enumerated().dropFirst() where e.time < events[k - 1].time {
            problems.append("event \(k + 1) is earlier than the one before it")
        }

        // What the reader accepts, the writer writes, and it reads back the same.
        var text = ""
        let writer = TraceWriter(name: "round trip") { text += $0 }
        for e in events {
            do {
                try writer.write(e)
            } catch {
                problems.append("the writer refuses an event the reader read: \(error)")
                return problems
            }
        }
        var back = TraceReader(text: text, name: "round trip")
        do {
            let again = try back.readAll()
            if again != events {
                let k = zip(again, events).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(again.count, events.count)
                problems.append("written and read back, event \(k + 1) of \(events.count) differs")
            }
        } catch {
            problems.append("the writer's trace does not read back: \(error)")
        }
        return problems + pipelineViolations(replayConfig, events.map(FuzzStep.event))
    }

    // MARK: - engine

    static func engineViolations(_ bytes: [UInt8]) -> [String] {
        let fuzzCase = EngineFuzzCase(decoding: bytes)
        return pipelineViolations(fuzzCase.config, fuzzCase.steps, tracesTransitions: fuzzCase.tracesTransitions)
    }
}
