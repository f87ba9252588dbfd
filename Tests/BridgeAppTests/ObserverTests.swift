import BridgeApp
import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Glibc
import Logging
import LogTestKit
import Testing

private let config = try! Config.parse("""
    [[bind]]
    gesture = "tap"
    device = "touchscreen"
    action = ["key ctrl+c", "workspace next"]
    """, file: "test.toml")

private let oneTap = {
    var s = Script()
    s.tap(at: 100, 100, time: 0)
    return s
}()

@Suite("the live log, an observer")
struct LiveLogObserverTests {
    @Test("nothing is logged while the turn's actions go out; the lines come when the turn ends")
    func linesWaitForTheEndOfTheTurn() {
        let recording = RecordingLogHandler.Recording()
        let performer = RecordingPerformer()
        let log = LiveLogObserver(logger: RecordingLogHandler.logger(recording), failures: nil, config: { config })
        let run = PipelineRun(recognizing: config, performer: performer, observers: [log])
        for event in oneTap.events { run.feed(event) }
        #expect(performer.performed.count == 2, "the actions went out")
        #expect(recording.messages.isEmpty, "\(recording.messages)")
        run.turnEnded()
        #expect(recording.messages.map(\.message).contains { $0.hasPrefix("tap recognized →") }, "\(recording.messages)")
        let logged = recording.messages.count
        run.turnEnded()
        #expect(recording.messages.count == logged, "each observation is logged once")
    }

    @Test("a failed action is logged at once, after the lines of what came before it")
    func aFailureIsLoggedAtOnce() throws {
        let recording = RecordingLogHandler.Recording()
        let performer = RecordingPerformer()
        performer.failWith = ActionError("no keyboard")
        let log = LiveLogObserver(logger: RecordingLogHandler.logger(recording), failures: nil, config: { config })
        let run = PipelineRun(recognizing: config, performer: performer, observers: [log])
        for event in oneTap.events { run.feed(event) }
        let messages = recording.messages.map(\.message)
        let phase = try #require(messages.firstIndex { $0.hasPrefix("tap recognized") }, "\(messages)")
        let failure = try #require(messages.firstIndex { $0 == "action failed: no keyboard" }, "\(messages)")
        #expect(phase < failure)
        #expect(recording.messages[failure].level == .error)
    }
}

@Suite("record's trace recorder")
struct TraceRecorderTests {
    @Test("every input event is written as a trace line; an event the writer refuses is logged and skipped")
    func writesEveryEventAndSkipsRefusedOnes() {
        let recording = RecordingLogHandler.Recording()
        var lines: [String] = []
        let recorder = TraceRecorder(TraceWriter { lines.append($0) }, logger: RecordingLogHandler.logger(recording))
        let run = PipelineRun(watching: [recorder])
        run.feed(InputEvent(time: Instant(milliseconds: 10), .motion(at: Point(x: 1, y: 2))))
        run.feed(InputEvent(time: Instant(milliseconds: 5), .motion(at: Point(x: 3, y: 4))))
        run.feed(InputEvent(time: Instant(milliseconds: 20), .motion(at: Point(x: 5, y: 6))))
        #expect(lines == [#"{"t":10,"type":"motion","x":1,"y":2}"# + "\n", #"{"t":20,"type":"motion","x":5,"y":6}"# + "\n"])
        #expect(recording.messages.count == 1 && recording.messages.first?.level == .error, "\(recording.messages)")
        #expect(run.outcome == nil, "a refused event does not end the run")
    }

    @Test("the first failed write of the output ends the run with one message, and nothing more is tried")
    func aFailedOutputEndsTheRun() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        let recording = RecordingLogHandler.Recording()
        let recorder = TraceRecorder(TraceWriter(fileDescriptor: full, name: "<full>"), logger: RecordingLogHandler.logger(recording))
        let run = PipelineRun(watching: [recorder])
        run.feed(InputEvent(time: Instant(milliseconds: 10), .motion(at: Point(x: 1, y: 2))))
        guard case .failed(let message)? = run.outcome else {
            Issue.record("the run goes on: \(String(describing: run.outcome))")
            return
        }
        #expect(message.hasPrefix("cannot record: <full>:1:"), "\(message)")
        run.feed(InputEvent(time: Instant(milliseconds: 20), .motion(at: Point(x: 3, y: 4))))
        #expect(run.outcome == .failed(message), "the first failure is the one said")
        #expect(recording.messages.isEmpty, "the loop says it, once: \(recording.messages)")
        #expect(run.ending(exitCode: 1) == 1)
    }
}

@Suite("learn's shape learner")
struct ShapeLearnerObserverTests {
    /// An "L": down 200 px, then right 100 px.
    private let ell = [Point(x: 100, y: 100), Point(x: 100, y: 200), Point(x: 100, y: 300), Point(x: 150, y: 300), Point(x: 200, y: 300)]

    @Test("strokes drawn before the run is ready are not learned; the next one is written and ends the run with exit 0")
    func learnsTheFirstStrokeOnceReady() {
        var written: [String] = []
        let recording = RecordingLogHandler.Recording()
        let learning = ShapeLearnerObserver(name: "ell", config: config, logger: RecordingLogHandler.logger(recording)) { written.append($0) }
        let run = PipelineRun(watching: [learning])
        var before = Script()
        before.path(ell, time: 0, duration: 400)
        for event in before.events { run.feed(event) }
        #expect(written.isEmpty && run.outcome == nil)

        run.started()
        #expect(recording.messages.map(\.message) == [
            "draw the shape ell now: one finger on the touchscreen, or the pointer with button 3 held (nothing is taken from applications)"
        ])
        var after = Script()
        after.path(ell, time: 1000, duration: 400)
        for event in after.events { run.feed(event) }
        #expect(written.count == 1)
        #expect(written.first?.hasPrefix("[[shape]]\nname = \"ell\"") == true, "\(written)")
        #expect(run.outcome == .done)
        #expect(run.ending(exitCode: 0) == 0)
    }

    @Test("with --samples 3, an unlike drawing is asked for again; the alike three are written as one shape, after saying how alike")
    func learnsFromSeveralDrawings() throws {
        var written: [String] = []
        let recording = RecordingLogHandler.Recording()
        let learning = ShapeLearnerObserver(name: "ell", samples: 3, config: config, logger: RecordingLogHandler.logger(recording)) {
            written.append($0)
        }
        let run = PipelineRun(watching: [learning])
        run.started()
        // An L, a taller L, a "V" (no L), a wider L.
        let drawings = [
            ell,
            [Point(x: 100, y: 100), Point(x: 100, y: 350), Point(x: 200, y: 350)],
            [Point(x: 100, y: 100), Point(x: 150, y: 300), Point(x: 200, y: 100)],
            [Point(x: 100, y: 100), Point(x: 100, y: 300), Point(x: 230, y: 300)],
        ]
        for (k, drawing) in drawings.enumerated() {
            var s = Script()
            s.path(drawing, time: Double(1000 * k), duration: 400)
            for event in s.events { run.feed(event) }
        }
        let said = recording.messages.map(\.message)
        #expect(said.count == 5, "\(said)")
        #expect(said.first == "draw the shape ell now, 3 times: one finger on the touchscreen, or the pointer with button 3 held (nothing is taken from applications)")
        #expect(Array(said.dropFirst().prefix(2)) == ["drawing 1 of 3 taken: draw the shape ell again", "drawing 2 of 3 taken: draw the shape ell again"])
        #expect(said.dropFirst(3).first?.hasPrefix("drawing 3 is unlike the others: it scores ") == true, "\(said)")
        #expect(said.last?.hasPrefix("the 3 drawings are alike: each scores ") == true, "\(said)")
        #expect(written.count == 1)
        let block = try #require(written.first)
        let shape = try #require(try Config.parse(block, file: "learned.toml").shapes.first)
        #expect(shape.name == "ell" && shape.templates.count == 3)
        #expect(run.outcome == .done)
        #expect(run.ending(exitCode: 0) == 0)
    }

    @Test("a run stopped half-way through the drawings ends with exit 1 and says how far it got")
    func stoppedHalfWay() {
        let recording = RecordingLogHandler.Recording()
        let learning = ShapeLearnerObserver(name: "ell", samples: 3, config: config, logger: RecordingLogHandler.logger(recording)) { _ in }
        let run = PipelineRun(watching: [learning])
        run.started()
        var s = Script()
        s.path(ell, time: 0, duration: 400)
        for event in s.events { run.feed(event) }
        #expect(run.outcome == nil)
        #expect(run.ending(exitCode: 0) == 1)
        #expect(recording.messages.last?.message == "stopped after 1 of 3 drawings: nothing learned")
    }

    @Test("a run stopped before a stroke was drawn ends with exit 1 and says so")
    func stoppedBeforeAStroke() {
        let recording = RecordingLogHandler.Recording()
        let learning = ShapeLearnerObserver(name: "ell", config: config, logger: RecordingLogHandler.logger(recording)) { _ in }
        let run = PipelineRun(watching: [learning])
        run.started()
        #expect(run.ending(exitCode: 0) == 1)
        #expect(recording.messages.last?.message == "stopped before a stroke was drawn: nothing learned")
    }
}
