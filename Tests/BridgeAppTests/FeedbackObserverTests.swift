import BridgeApp
import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// A canvas that records what it was asked to draw, for the policy of ``FeedbackObserver``.
final class RecordingCanvas: FeedbackCanvas {
    enum Call: Equatable {
        case trail(DeviceKind, [Point], begins: Bool)
        case endTrail(DeviceKind)
        case settleTrail(DeviceKind)
        case osd(String, Point)
        case hideOSD
        case flush
    }

    var calls: [Call] = []
    var prepared = 0
    /// The characters the last ``prepare(characters:)`` was given.
    var preparedCharacters: Set<Unicode.Scalar> = []
    var frameInterval = Duration.milliseconds(16)

    func prepare(characters: Set<Unicode.Scalar>) {
        prepared += 1
        preparedCharacters = characters
    }
    func drawTrail(_ device: DeviceKind, points: ArraySlice<Point>, style: TrailStyle, begins: Bool) {
        calls.append(.trail(device, Array(points), begins: begins))
    }
    func endTrail(_ device: DeviceKind) { calls.append(.endTrail(device)) }
    func settleTrail(_ device: DeviceKind) { calls.append(.settleTrail(device)) }
    func showOSD(_ text: String, near point: Point) { calls.append(.osd(text, point)) }
    func hideOSD() { calls.append(.hideOSD) }
    func flush() { calls.append(.flush) }
    func close() {}

    /// The trail's points in the order drawn, each once (a frame repeats the last one drawn).
    var trailPoints: [Point] {
        var points: [Point] = []
        for case .trail(_, let drawn, let begins) in calls { points += begins ? drawn : Array(drawn.dropFirst()) }
        return points
    }

    var trailFrames: Int { calls.filter { if case .trail = $0 { true } else { false } }.count }
    var osds: [String] { calls.compactMap { if case .osd(let text, _) = $0 { text } else { nil } } }
}

/// A run of the pipeline with a feedback observer on a recording canvas and a clock the test
/// moves: each input event at its own time, the loop's turn ended after it.
final class FeedbackRun {
    let canvas = RecordingCanvas()
    var now = ContinuousClock.now
    var locked = false
    let observer: FeedbackObserver
    let run: PipelineRun
    private let start: ContinuousClock.Instant

    init(_ config: Config) {
        start = now
        var clock: () -> ContinuousClock.Instant = { .now }
        var isLocked: () -> Bool = { false }
        // The closures read this run's clock and lock, set once it exists.
        let box = Box()
        clock = { box.run!.now }
        isLocked = { box.run!.locked }
        observer = FeedbackObserver(canvas: canvas, config: { config }, isLocked: isLocked, clock: clock)
        run = PipelineRun(recognizing: config, observers: [observer])
        box.run = self
        run.started()
    }

    private final class Box { weak var run: FeedbackRun? }

    /// Feeds `script`'s events at their times, ending a turn after each; when the observer
    /// asks for a turn before the next event (a frame), it gets one then, as the loop's poll
    /// timeout gives it.
    func play(_ script: Script) {
        for event in script.events {
            let due = start + .milliseconds(event.time.milliseconds)
            while let deadline = observer.nextDeadline, deadline <= due {
                // A deadline already past after a turn's end: a loop that would never wait.
                if deadline < now { Issue.record("the observer asks for a turn \(now - deadline) in the past"); return }
                now = max(now, deadline)
                run.turnEnded()
            }
            now = max(now, due)
            run.feed(event)
            run.turnEnded()
        }
    }

    /// Lets `duration` pass, with a turn at every deadline asked for.
    func wait(_ duration: Duration) {
        let until = now + duration
        while let deadline = observer.nextDeadline, deadline <= until {
            if deadline < now { Issue.record("the observer asks for a turn \(now - deadline) in the past"); return }
            now = max(now, deadline)
            run.turnEnded()
        }
        now = until
    }
}

private let pointerStroke = try! Config.parse("""
    [[bind]]
    gesture = "stroke"
    shape = "circle"
    device = "pointer"
    action = "key F5"
    """, file: "c.toml")

@Suite("the on-screen feedback's policy")
struct FeedbackObserverTests {
    @Test("at 240 Hz every point is drawn, in order, at most once a frame; the trail goes in the turn of the release")
    // The OSD too is shown at a frame: a flood of gestures is not drawn one by one.
    func aFastMouseIsCoalescedToFramesAndLosesNoPoint() throws {
        let feedback = FeedbackRun(pointerStroke)
        var s = Script()
        // The built-in circle, 2.5 px to a unit, followed at 240 points.
        let template = StrokeShape.builtIn.first { $0.name == "circle" }!.points.map { Point(x: 300 + $0.x * 2.5, y: 300 + $0.y * 2.5) }
        let circle = (0..<240).map { (k: Int) -> Point in
            let at = Double(k) / 239 * Double(template.count - 1)
            let i = min(Int(at), template.count - 2), f = at - Double(i)
            return Point(x: template[i].x + (template[i + 1].x - template[i].x) * f, y: template[i].y + (template[i + 1].y - template[i].y) * f)
        }
        // One second of motion at 240 events a second.
        s.pointerPath(circle, time: 0, duration: 1_000)
        feedback.play(s)
        // The OSD comes at the next frame.
        feedback.wait(.milliseconds(16))
        let canvas = feedback.canvas
        #expect(canvas.trailPoints == Array(circle.dropLast()) || canvas.trailPoints == circle, "every point, in order, once")
        // 1 s at 16 ms a frame: about 63 frames, never one per event.
        #expect(canvas.trailFrames <= 1_000 / 16 + 2, "\(canvas.trailFrames) frames")
        #expect(canvas.trailFrames >= 50, "\(canvas.trailFrames) frames: drawn as it goes, not at the end")
        let end = try #require(canvas.calls.firstIndex(of: .endTrail(.pointer)))
        #expect(!canvas.calls[end...].contains { if case .trail = $0 { true } else { false } }, "nothing drawn after the end")
        #expect(canvas.osds == ["circle → key F5"])
        #expect(feedback.canvas.prepared == 1, "made ready at start: a pointer stroke is bound")
    }

    @Test("a click draws nothing; idle, the observer asks for no turn of the loop")
    func aClickDrawsNothing() {
        let feedback = FeedbackRun(pointerStroke)
        var s = Script()
        s.press(3, 200, 200, at: 0)
        s.motion(203, 201, at: 30)
        s.release(3, 203, 201, at: 60)
        feedback.play(s)
        feedback.wait(.milliseconds(16))
        #expect(feedback.canvas.trailFrames == 0 && feedback.canvas.osds.isEmpty, "\(feedback.canvas.calls)")
        #expect(feedback.observer.nextDeadline == nil)
    }

    @Test("a stroke that matches nothing says why at the next frame, and the OSD comes off after osd_duration_ms")
    func aMissSaysWhyAndGoes() throws {
        let feedback = FeedbackRun(pointerStroke)
        var s = Script()
        s.pointerPath((0...60).map { Point(x: 300 + Double($0) * 5, y: 300 + ($0 % 2 == 0 ? 0 : 40)) }, time: 0, duration: 500)
        feedback.play(s)
        // At the next frame (at most 16 ms on), for 600 ms.
        feedback.wait(.milliseconds(16))
        let osd = try #require(feedback.canvas.osds.first)
        #expect(osd.hasPrefix("no shape: best circle 0."), "\(osd)")
        #expect(feedback.canvas.calls.last == .flush && !feedback.canvas.calls.contains(.hideOSD))
        feedback.wait(.milliseconds(584))
        #expect(!feedback.canvas.calls.contains(.hideOSD))
        feedback.wait(.milliseconds(17))
        #expect(feedback.canvas.calls.contains(.hideOSD))
        #expect(feedback.observer.nextDeadline == nil, "nothing more to do")
    }

    @Test("where no stroke is bound nothing is drawn, and a bound swipe is named only when the OSD names swipes")
    func defaultsShowNothingWithoutAStroke() throws {
        let swipes = try Config.parse("[[bind]]\ngesture = \"swipe\"\ndevice = \"pointer\"\ndirection = \"right\"\naction = \"key a\"\n", file: "c.toml")
        var s = Script()
        s.pointerDrag(3, from: 100, 300, by: 300, 0, time: 0, duration: 200, steps: 10)
        let quiet = FeedbackRun(swipes)
        quiet.play(s)
        #expect(quiet.canvas.calls.isEmpty && quiet.canvas.prepared == 0, "\(quiet.canvas.calls)")

        var named = swipes
        named.feedback.base.osd = [.swipe]
        named.feedback.base.trail = true
        let shown = FeedbackRun(named)
        shown.play(s)
        shown.wait(.milliseconds(16))
        #expect(shown.canvas.osds == ["swipe right → key a"])
        #expect(shown.canvas.trailFrames > 0 && shown.canvas.calls.contains(.endTrail(.pointer)))
    }

    @Test("paths are reported only while the config shows something, and a reload that shows something asks for them again")
    func pathsOnlyWhenShown() throws {
        let swipes = try Config.parse("[[bind]]\ngesture = \"swipe\"\ndevice = \"pointer\"\ndirection = \"right\"\naction = \"key a\"\n", file: "c.toml")
        var config = swipes
        let observer = FeedbackObserver(canvas: RecordingCanvas(), config: { config }, isLocked: { false })
        let run = PipelineRun(recognizing: config, observers: [observer])
        // No trail and no OSD for a swipe: the motion that completes a gesture carries no path
        // report to the observers before its key.
        #expect(run.pipeline?.tracesPaths == false)
        var shown = swipes
        shown.feedback.base.osd = [.swipe]
        config = shown
        run.refreshPathTracing()
        #expect(run.pipeline?.tracesPaths == true)
        config = swipes
        run.refreshPathTracing()
        #expect(run.pipeline?.tracesPaths == false)
        #expect(PipelineRun(recognizing: pointerStroke, observers: [FeedbackObserver(canvas: RecordingCanvas(), config: { pointerStroke }, isLocked: { false })]).pipeline?.tracesPaths == true, "a pointer stroke draws its trail by default")
    }

    @Test("while the screen is locked nothing is shown")
    func nothingWhileLocked() {
        let feedback = FeedbackRun(pointerStroke)
        feedback.locked = true
        var s = Script()
        s.pointerPath((0...40).map { Point(x: 300 + Double($0) * 5, y: 300) }, time: 0, duration: 400)
        feedback.play(s)
        feedback.wait(.milliseconds(16))
        #expect(feedback.canvas.trailFrames == 0 && feedback.canvas.osds.isEmpty)
    }

    @Test("the OSD's words", arguments: [
        (GestureReport(time: Instant(milliseconds: 0), gesture: .swipe, phase: .recognized, fingers: 3, device: .touchpad,
                       position: .zero, direction: .left), "3-finger swipe left → workspace next"),
        (GestureReport(time: Instant(milliseconds: 0), gesture: .tap, phase: .recognized, fingers: 1, device: .touchscreen,
                       position: .zero, taps: 2), "double tap → workspace next"),
        (GestureReport(time: Instant(milliseconds: 0), gesture: .stroke, phase: .recognized, fingers: 1, device: .pointer,
                       position: .zero, shape: "circle"), "circle → workspace next"),
    ])
    func words(report: GestureReport, expected: String) throws {
        let binding = try #require(try Config.parse("[[bind]]\ngesture = \"tap\"\naction = \"workspace next\"\n", file: "c.toml").bindings.first)
        #expect(FeedbackText.fired(report, binding: binding) == expected)
        #expect(FeedbackText.missed(StrokeMiss(shape: "v", score: 0.7449, diagonal: 300, minimumDiagonal: 60), strokeMinMm: nil) == "no shape: best v 0.74")
        #expect(FeedbackText.missed(StrokeMiss(shape: nil, score: nil, diagonal: 42.4, minimumDiagonal: 60), strokeMinMm: nil)
            == "too small for a shape: 42 px across, stroke_min_px is 60")
        // In millimetres, the rule as written and what it is on the monitor the path began on.
        #expect(FeedbackText.missed(StrokeMiss(shape: nil, score: nil, diagonal: 42.4, minimumDiagonal: 75.6), strokeMinMm: 20)
            == "too small for a shape: 42 px across, stroke_min_mm is 20 (76 px here)")
    }

    @Test("the canvas is made ready for every character an OSD of the config can show: the fixed words, shape names, actions beyond ASCII")
    func preparedForTheConfigsCharacters() throws {
        let config = try Config.parse("""
            [[bind]]
            gesture = "stroke"
            shape = "circle"
            device = "pointer"
            action = "exec notify-send 'Größe ✓ 完了'"
            """, file: "c.toml")
        let feedback = FeedbackRun(config)
        let prepared = feedback.canvas.preparedCharacters
        #expect(feedback.canvas.prepared == 1)
        #expect(Set("öß✓完了→".unicodeScalars).isSubset(of: prepared))
        #expect(prepared == FeedbackText.characters(in: config))
        // What the OSD said of a circle and of a scribble: nothing it had to make ready later.
        let template = StrokeShape.builtIn.first { $0.name == "circle" }!.points.map { Point(x: 300 + $0.x * 2.5, y: 300 + $0.y * 2.5) }
        var s = Script()
        s.pointerPath(template, time: 0, duration: 600)
        s.pointerPath((0...60).map { Point(x: 300 + Double($0) * 5, y: 300 + ($0 % 2 == 0 ? 0 : 40)) }, time: 2_000, duration: 500)
        feedback.play(s)
        feedback.wait(.milliseconds(16))
        #expect(feedback.canvas.osds.count == 2, "\(feedback.canvas.osds)")
        for words in feedback.canvas.osds { #expect(Set(words.unicodeScalars).isSubset(of: prepared), "\(words)") }
    }

    @Test("with no OSD for any device no character is made ready (a trail alone needs no letters)")
    func noOSDNoCharacters() throws {
        var config = pointerStroke
        config.feedback.base.osd = []
        let feedback = FeedbackRun(config)
        #expect(feedback.canvas.prepared == 1 && feedback.canvas.preparedCharacters.isEmpty)
    }

    @Test("a trail that stops growing is settled once, a frame after its last frame, and again only after it grew; then the observer asks for nothing")
    func aPauseSettlesTheTrailOnce() {
        let feedback = FeedbackRun(pointerStroke)
        var s = Script()
        s.press(3, 300, 300, at: 0)
        for k in 1...20 { s.motion(300 + Double(k) * 5, 300, at: 10 + Double(k) * 4) }
        // Held still, then on again, then still again.
        for k in 21...30 { s.motion(300 + Double(k) * 5, 300, at: 500 + Double(k - 20) * 4) }
        feedback.play(s)
        feedback.wait(.milliseconds(500))
        let calls = feedback.canvas.calls
        let settles = calls.indices.filter { calls[$0] == .settleTrail(.pointer) }
        #expect(settles.count == 2, "\(calls)")
        // Each after a frame, with no frame between it and the next growth.
        for i in settles {
            #expect(i > 0 && calls[..<i].contains { if case .trail = $0 { true } else { false } })
            #expect(!calls[(i + 1)...].prefix { if case .trail = $0 { false } else { true } }.contains(.settleTrail(.pointer)))
        }
        #expect(feedback.observer.nextDeadline == nil, "settled: nothing to do")
        #expect(!calls.contains(.endTrail(.pointer)), "still held: the trail stays")
    }

    @Test("a press held still after an earlier gesture's frames: the observer asks for no turn until something moves")
    func aPressHeldStillAsksForNothing() {
        let feedback = FeedbackRun(pointerStroke)
        var s = Script()
        s.pointerPath((0...40).map { Point(x: 300 + Double($0) * 5, y: 300) }, time: 0, duration: 400)
        s.press(3, 500, 500, at: 2_000)
        feedback.play(s)
        #expect(feedback.observer.nextDeadline.map { $0 > feedback.now } ?? true, "a deadline in the past: the loop would spin")
        feedback.wait(.seconds(1))
        #expect(feedback.observer.nextDeadline == nil, "the press held still: nothing to do")
    }
}
