import BridgeCore
import GestureConfig
import GestureEngine
import Testing

/// A performer double that records what it was asked to do.
final class RecordingPerformer: ActionPerformer {
    var performed: [(Action, ActionContext)] = []
    var released = 0
    var failWith: ActionError? = nil
    func perform(_ action: Action, context: ActionContext) throws(ActionError) {
        if let failWith { throw failWith }
        performed.append((action, context))
    }
    func releaseEverything() { released += 1 }
}

/// An arbiter double that records the ownership decisions.
final class RecordingArbiter: InputArbiter {
    var decisions: [OwnershipDecision] = []
    func apply(_ decision: OwnershipDecision) { decisions.append(decision) }
}

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
    """, file: "test.toml")

private func replay(_ trace: String, json: Bool = true, performer: (any ActionPerformer)? = nil, arbiter: (any InputArbiter)? = nil) throws -> [String] {
    var lines: [String] = []
    let printer = ReportPrinter(format: json ? .json : .human, config: { config }, write: { lines.append($0) })
    let pipeline = Pipeline(config: config, performer: performer, arbiter: arbiter, observe: printer.print)
    var reader = TraceReader(text: trace)
    var last: Instant? = nil
    while let e = try reader.next() { pipeline.handle(e); last = e.time }
    if let last { pipeline.advance(to: last + Interval(milliseconds: 10_000)) }
    return lines
}

private let threeFingerSwipeLeft = """
    {"t":10,"type":"touch-begin","id":1,"x":600,"y":400}
    {"t":12,"type":"touch-begin","id":2,"x":640,"y":400}
    {"t":14,"type":"touch-begin","id":3,"x":680,"y":400}
    {"t":40,"type":"touch-update","id":1,"x":500,"y":400}
    {"t":40,"type":"touch-update","id":2,"x":540,"y":400}
    {"t":40,"type":"touch-update","id":3,"x":580,"y":400}
    {"t":60,"type":"touch-end","id":1,"x":500,"y":400}
    {"t":60,"type":"touch-end","id":2,"x":540,"y":400}
    {"t":60,"type":"touch-end","id":3,"x":580,"y":400}
    """

@Suite struct PipelineTests {
    @Test func replayPrintsTheContractsJSONLines() throws {
        #expect(try replay(threeFingerSwipeLeft) == [
            #"{"t":40,"gesture":"swipe","phase":"recognized","fingers":3,"device":"touchscreen","x":540,"y":400,"direction":"left","action":"workspace next"}"#,
        ])
    }

    @Test func aLongPressLineCarriesTheTimersOwnDeadline() throws {
        let lines = try replay("""
            {"t":1000,"type":"touch-begin","id":1,"x":100,"y":200}
            {"t":2000,"type":"touch-end","id":1,"x":100,"y":200}
            """)
        #expect(lines == [
            #"{"t":1500,"gesture":"long-press","phase":"began","fingers":1,"device":"touchscreen","x":100,"y":200,"action":"click right"}"#,
            #"{"t":2000,"gesture":"long-press","phase":"ended","fingers":1,"device":"touchscreen","x":100,"y":200}"#,
        ])
    }

    @Test func theLiveTimeRunsOnAfterTheTraceSoPendingTimersFire() throws {
        let lines = try replay(#"{"t":0,"type":"touch-begin","id":1,"x":100,"y":200}"#)
        #expect(lines.count == 1 && lines[0].contains(#""phase":"began""#))
    }

    @Test func humanOutputSaysWhichBindingFiredAndWhyNoneDid() throws {
        let lines = try replay(threeFingerSwipeLeft, json: false)
        #expect(lines.count == 1)
        #expect(lines[0].contains("swipe recognized") && lines[0].contains("→ workspace next  (test.toml:1:1)"))
        let right = try replay("""
            {"t":0,"type":"touch-begin","id":1,"x":100,"y":100}
            {"t":0,"type":"touch-begin","id":2,"x":130,"y":100}
            {"t":0,"type":"touch-begin","id":3,"x":160,"y":100}
            {"t":30,"type":"touch-update","id":1,"x":300,"y":100}
            {"t":30,"type":"touch-update","id":2,"x":330,"y":100}
            {"t":30,"type":"touch-update","id":3,"x":360,"y":100}
            """, json: false)
        #expect(right.first?.contains("no binding matches (bound here: swipe left at 1:1)") == true, "\(right)")
    }

    @Test func aFiringBindingIsPerformedAtTheGesturesCentroid() throws {
        let performer = RecordingPerformer()
        _ = try replay("""
            {"t":0,"type":"touch-begin","id":1,"x":321,"y":123}
            {"t":900,"type":"touch-end","id":1,"x":321,"y":123}
            """, performer: performer)
        #expect(performer.performed.count == 1)
        #expect(performer.performed.first?.0 == .click(button: 3))
        #expect(performer.performed.first?.1 == ActionContext(device: .touchscreen, position: Point(x: 321, y: 123), time: Instant(milliseconds: 500)))
    }

    @Test func ownershipDecisionsReachTheArbiter() throws {
        let arbiter = RecordingArbiter()
        _ = try replay(threeFingerSwipeLeft, arbiter: arbiter)
        #expect(arbiter.decisions == [.touch(id: 1, .claim), .touch(id: 2, .claim), .touch(id: 3, .claim)])
        let click = RecordingArbiter()
        _ = try replay("""
            {"t":0,"type":"button-press","button":3,"x":5,"y":5}
            {"t":50,"type":"button-release","button":3,"x":5,"y":5}
            """, arbiter: click)
        #expect(click.decisions == [.pointer(button: 3, .release)])
    }

    @Test func aFailedActionIsReportedAndTheLineStillPrinted() throws {
        let performer = RecordingPerformer()
        performer.failWith = ActionError("no window manager")
        var events: [String] = []
        let pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { e in
            if case .actionFailed(let b, let error) = e { events.append("\(b.actionText): \(error)") }
        }
        var reader = TraceReader(text: threeFingerSwipeLeft)
        while let e = try reader.next() { pipeline.handle(e) }
        #expect(events == ["workspace next: no window manager"])
    }

    @Test func reloadCancelsWhatRunsAndSwitchesBindings() throws {
        var lines: [String] = []
        let printer = ReportPrinter(format: .json, config: { config }, write: { lines.append($0) })
        let pipeline = Pipeline(config: config, performer: nil, arbiter: nil, observe: printer.print)
        pipeline.handle(InputEvent(time: Instant(milliseconds: 0), .touchBegin(id: 1, at: Point(x: 1, y: 1))))
        pipeline.advance(to: Instant(milliseconds: 600))
        let other = try Config.parse("[[bind]]\ngesture = \"tap\"\naction = \"click left\"\n", file: "other.toml")
        pipeline.reload(other, at: Instant(milliseconds: 700))
        #expect(lines.count == 2 && lines[1].contains(#""phase":"cancelled""#))
        #expect(pipeline.config.bindings.count == 1)
    }

    @Test func shutdownReleasesWhatThePerformerHolds() {
        let performer = RecordingPerformer()
        let pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { _ in }
        pipeline.shutdown(at: Instant(milliseconds: 0))
        #expect(performer.released == 1)
    }
}
