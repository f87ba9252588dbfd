import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

private let config = try! Config.parse("""
    [[bind]]
    gesture = "swipe"
    fingers = 3
    direction = "left"
    action = "workspace next"

    [[bind]]
    gesture = "long-press"
    device = "touchscreen"
    action = "click right"

    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "up"
    action = "key Up"
    """, file: "test.toml")

/// Collects the lines a `ReportPrinter` writes.
private final class PrintedLines {
    var all: [String] = []
}

/// A pipeline over `config` whose reports are printed (as JSON Lines, or for a person) into `printed`.
private func printingPipeline(
    into printed: PrintedLines, json: Bool = true, performer: (any ActionPerformer)? = nil, arbiter: (any InputArbiter)? = nil
) -> Pipeline {
    let printer = ReportPrinter(format: json ? .json : .human, config: { config }, write: { printed.all.append($0) })
    return Pipeline(config: config, performer: performer, arbiter: arbiter, observe: printer.print)
}

/// What `replay` does with `script`: every event through the pipeline, then time runs 10 s on so
/// pending timers fire. Returns the printed lines.
private func replay(_ script: Script, json: Bool = true, performer: (any ActionPerformer)? = nil, arbiter: (any InputArbiter)? = nil) -> [String] {
    let printed = PrintedLines()
    let pipeline = printingPipeline(into: printed, json: json, performer: performer, arbiter: arbiter)
    for e in script.events { pipeline.handle(e) }
    if let last = script.events.last?.time { pipeline.advance(to: last + Interval(milliseconds: 10_000)) }
    return printed.all
}

/// Three fingers 40 px apart land at (600, 400) from 10 ms on, 2 ms apart, are 100 px further
/// left at 40 ms and lift there at 60 ms.
private let threeFingerSwipeLeft = {
    var s = Script()
    s.drag(fingers: 3, from: 600, 400, by: -100, 0, time: 10, duration: 26, steps: 1, lift: 20, stagger: 2, spacing: 40)
    return s
}()

@Suite struct PipelineTests {
    @Test func replayPrintsTheDocumentedJSONLines() {
        #expect(replay(threeFingerSwipeLeft) == [
            #"{"t":40,"gesture":"swipe","phase":"recognized","fingers":3,"device":"touchscreen","x":540,"y":400,"direction":"left","action":"workspace next"}"#,
        ])
    }

    @Test func aLongPressLineCarriesTheTimersOwnDeadline() {
        var s = Script()
        s.down(1, 100, 200, at: 1000)
        s.up(1, 100, 200, at: 2000)
        let lines = replay(s)
        #expect(lines == [
            #"{"t":1500,"gesture":"long-press","phase":"began","fingers":1,"device":"touchscreen","x":100,"y":200,"action":"click right"}"#,
            #"{"t":2000,"gesture":"long-press","phase":"ended","fingers":1,"device":"touchscreen","x":100,"y":200}"#,
        ])
    }

    @Test func theLiveTimeRunsOnAfterTheTraceSoPendingTimersFire() {
        var s = Script()
        s.down(1, 100, 200, at: 0)
        let lines = replay(s)
        #expect(lines.count == 1 && lines[0].contains(#""phase":"began""#))
    }

    @Test func humanOutputSaysWhichBindingFiredAndWhyNoneDid() {
        let lines = replay(threeFingerSwipeLeft, json: false)
        #expect(lines.count == 1)
        #expect(lines[0].contains("swipe recognized") && lines[0].contains("→ workspace next  (test.toml:1:1)"))
        var swipeRight = Script()
        swipeRight.drag(fingers: 3, from: 100, 100, by: 200, 0, time: 0, duration: 30, steps: 1, lift: nil)
        let right = replay(swipeRight, json: false)
        #expect(right.first?.contains("no binding matches (bound here: swipe left at 1:1)") == true, "\(right)")
    }

    @Test func aFiringBindingIsPerformedAtTheGesturesCentroid() {
        let performer = RecordingPerformer()
        var s = Script()
        s.down(1, 321, 123, at: 0)
        s.up(1, 321, 123, at: 900)
        _ = replay(s, performer: performer)
        #expect(performer.performed.count == 1)
        #expect(performer.performed.first?.0 == .click(button: 3))
        #expect(performer.performed.first?.1 == ActionContext(device: .touchscreen, position: Point(x: 321, y: 123), time: Instant(milliseconds: 500)))
    }

    @Test func ownershipDecisionsReachTheArbiter() {
        let arbiter = RecordingArbiter()
        _ = replay(threeFingerSwipeLeft, arbiter: arbiter)
        #expect(arbiter.decisions == [.touch(id: 1, .claim), .touch(id: 2, .claim), .touch(id: 3, .claim)])
        let click = RecordingArbiter()
        var s = Script()
        s.press(3, 5, 5, at: 0)
        s.release(3, 5, 5, at: 50)
        _ = replay(s, arbiter: click)
        #expect(click.decisions == [.pointer(button: 3, .release)])
    }

    @Test func aFailedActionIsReportedAndTheLineStillPrinted() {
        let performer = RecordingPerformer()
        performer.failWith = ActionError("no window manager")
        var events: [String] = []
        let pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { e in
            if case .actionFailed(let b, _, let error) = e { events.append("\(b.actionText): \(error)") }
        }
        for e in threeFingerSwipeLeft.events { pipeline.handle(e) }
        #expect(events == ["workspace next: no window manager"])
    }

    @Test func reloadCancelsWhatRunsAndSwitchesBindings() throws {
        let printed = PrintedLines()
        let pipeline = printingPipeline(into: printed)
        pipeline.handle(InputEvent(time: Instant(milliseconds: 0), .touchBegin(id: 1, at: Point(x: 1, y: 1))))
        pipeline.advance(to: Instant(milliseconds: 600))
        let other = try Config.parse("[[bind]]\ngesture = \"tap\"\naction = \"click left\"\n", file: "other.toml")
        pipeline.reload(other, at: Instant(milliseconds: 700))
        #expect(printed.all.count == 2 && printed.all[1].contains(#""phase":"cancelled""#))
        #expect(pipeline.config.bindings.count == 1)
    }

    @Test func shutdownReleasesWhatThePerformerHolds() {
        let performer = RecordingPerformer()
        let pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { _ in }
        pipeline.shutdown(at: Instant(milliseconds: 0))
        #expect(performer.released == 1)
    }
}
