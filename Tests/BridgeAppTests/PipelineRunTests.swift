import BridgeApp
import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

private let config = try! Config.parse("""
    [[bind]]
    gesture = "tap"
    device = "touchscreen"
    action = "click right"

    [[bind]]
    gesture = "long-press"
    fingers = 2
    device = "touchscreen"
    action = "key F5"
    """, file: "test.toml")

/// An observer that writes down everything it is told, in order.
final class Journal: PipelineObserver {
    enum Entry {
        case input(InputEvent)
        case observed(PipelineEvent)
        case turnEnded
        case started
        case ending(Int32)
    }

    var entries: [Entry] = []
    let watchesInput: Bool
    var outcome: RunOutcome? = nil
    /// What ``runEnding(exitCode:)`` returns; nil: the code it was given.
    var exitCode: Int32? = nil

    init(watchesInput: Bool) { self.watchesInput = watchesInput }

    func input(_ event: InputEvent) { entries.append(.input(event)) }
    func observe(_ event: PipelineEvent) { entries.append(.observed(event)) }
    func turnEnded() { entries.append(.turnEnded) }
    func runStarted() { entries.append(.started) }
    func runEnding(exitCode code: Int32) -> Int32 {
        entries.append(.ending(code))
        return exitCode ?? code
    }

    /// The index of the first entry that `matches`.
    func first(_ matches: (Entry) -> Bool) -> Int? { entries.firstIndex(where: matches) }

    /// The gesture phases observed, as `tap recognized`.
    var phases: [String] {
        entries.compactMap {
            guard case .observed(.phase(let report, _, _)) = $0 else { return nil }
            return "\(report.gesture.rawValue) \(report.phase.rawValue)"
        }
    }

    var inputCount: Int { entries.count { if case .input = $0 { true } else { false } } }
}

@Suite("a run's path from its input to its observers")
struct PipelineRunTests {
    @Test("an input event reaches the observers that watch input before the pipeline reports what it made of it")
    func inputComesBeforeWhatTheEngineMakesOfIt() throws {
        let journal = Journal(watchesInput: true)
        let run = PipelineRun(recognizing: config, observers: [journal])
        var s = Script()
        s.tap(at: 100, 100, time: 0)
        for event in s.events { run.feed(event) }
        #expect(journal.phases == ["tap recognized"])
        let lift = try #require(journal.first { if case .input(let e) = $0, case .touchEnd = e.kind { true } else { false } })
        let tap = try #require(journal.first { if case .observed(.phase) = $0 { true } else { false } })
        #expect(lift < tap)
    }

    @Test("an observer that does not watch input sees every pipeline event and no input event")
    func pipelineObserversAreNotCalledPerInputEvent() {
        let watching = Journal(watchesInput: true), notWatching = Journal(watchesInput: false)
        let run = PipelineRun(recognizing: config, observers: [watching, notWatching])
        var s = Script()
        s.tap(at: 100, 100, time: 0)
        for event in s.events { run.feed(event) }
        #expect(notWatching.inputCount == 0)
        #expect(watching.inputCount == s.events.count)
        #expect(notWatching.phases == watching.phases && notWatching.phases == ["tap recognized"])
    }

    @Test("a run that only watches (record, learn) has no pipeline: its observers see the input and nothing is recognized")
    func watchingRunsRecognizeNothing() {
        let journal = Journal(watchesInput: true)
        let run = PipelineRun(watching: [journal])
        var s = Script()
        s.tap(at: 100, 100, time: 0)
        for event in s.events { run.feed(event) }
        #expect(run.pipeline == nil && run.nextDeadline == nil)
        #expect(journal.inputCount == s.events.count)
        #expect(journal.phases.isEmpty)
    }

    @Test("a trace is played to its end, then time runs on so that a long press still waiting begins")
    func playingATraceRunsOnPastItsEnd() throws {
        let journal = Journal(watchesInput: false)
        let run = PipelineRun(recognizing: config, observers: [journal])
        var reader = TraceReader(text: """
            {"t":0,"type":"screen","width":1280,"height":800}
            {"t":100,"type":"touch-begin","id":1,"x":700,"y":400}
            {"t":102,"type":"touch-begin","id":2,"x":760,"y":400}
            """)
        try run.play(&reader, runningOn: Interval(milliseconds: 10_000))
        #expect(journal.phases == ["long-press began"])
        #expect(run.nextDeadline == nil)
    }

    @Test("the first observer's outcome is the run's; every observer closes in order, each seeing the code the one before returned")
    func outcomesAndEndings() {
        let a = Journal(watchesInput: false), b = Journal(watchesInput: false)
        let run = PipelineRun(watching: [a, b])
        #expect(run.outcome == nil)
        b.outcome = .failed("cannot go on")
        #expect(run.outcome == .failed("cannot go on"))
        a.outcome = .done
        #expect(run.outcome == .done)

        a.exitCode = 1
        #expect(run.ending(exitCode: 0) == 1)
        guard case .ending(0) = a.entries.last, case .ending(1) = b.entries.last else {
            Issue.record("\(a.entries), \(b.entries)")
            return
        }
        run.started()
        run.turnEnded()
        guard case .started = a.entries.dropLast().last, case .turnEnded = b.entries.last else {
            Issue.record("\(a.entries), \(b.entries)")
            return
        }
    }
}
