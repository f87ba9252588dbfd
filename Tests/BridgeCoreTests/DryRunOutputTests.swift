import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// `--dry-run` and `replay` as a person follows them: every line stamped alike, in the order
/// things happened, the pointer called the mouse; and in JSON, input passed on and a phase no
/// binding wanted as line kinds of their own (docs/interface.md, «Output»).
@Suite("dry-run and replay output, in order")
struct DryRunOutputTests {
    static let config = try! Config.parse("""
        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "left"
        action = "key alt+Left"
        """, file: "c.toml")

    /// What a `ReportPrinter` prints for `script`, time running 10 s on at the end.
    static func printed(_ script: Script, json: Bool) -> [String] {
        var lines: [String] = []
        let printer = ReportPrinter(format: json ? .json : .human, config: { config }, write: { lines.append($0) })
        let pipeline = Pipeline(config: config, performer: nil, arbiter: nil, observe: printer.print)
        for event in script.events { pipeline.handle(event) }
        if let last = script.events.last?.time { pipeline.advance(to: last + Interval(milliseconds: 10_000)) }
        return lines
    }

    /// A right-button drag of 200 px to the right in 40 ms: a swipe, which only a left one is bound for.
    static let swipeRight = {
        var s = Script()
        s.pointerDrag(from: 100, 300, by: 200, 0, time: 1000, duration: 40, steps: 4)
        return s
    }()

    @Test("a swipe no binding wants: its line, then the press going back, at the swipe's time")
    func unboundSwipe() throws {
        let human = Self.printed(Self.swipeRight, json: false)
        #expect(human.count == 2, "\(human)")
        let swipe = try #require(human.first)
        #expect(swipe.hasPrefix("1020 ms  swipe recognized  on the mouse at (200, 300)") && swipe.contains("no binding matches"), "\(human)")
        #expect(human.last == "1020 ms  mouse button 3: passed on to the application", "\(human)")

        #expect(Self.printed(Self.swipeRight, json: true) == [
            #"{"t":1020,"gesture":"swipe","phase":"recognized","fingers":1,"device":"pointer","button":3,"x":200,"y":300,"direction":"right"}"#,
            #"{"t":1020,"event":"no-binding","gesture":"swipe","phase":"recognized","fingers":1,"device":"pointer","button":3,"reason":"no binding matches (bound here: swipe left at 1:1)"}"#,
            #"{"t":1020,"event":"passed-on","device":"pointer","button":3}"#,
        ])
    }

    @Test("a click: not a gesture, stamped with the release")
    func click() {
        var s = Script()
        s.press(3, 5, 5, at: 400)
        s.release(3, 5, 5, at: 450)
        #expect(Self.printed(s, json: false) == ["450 ms  mouse button 3: not a gesture, passed on to the application"])
        #expect(Self.printed(s, json: true) == [#"{"t":450,"event":"passed-on","device":"pointer","button":3}"#])
    }

    @Test("a press held still goes back at the engine's own deadline, not at the next event")
    func heldStill() throws {
        var s = Script()
        s.press(3, 5, 5, at: 400)
        s.release(3, 5, 5, at: 5000)
        let pipeline = Pipeline(config: Self.config, performer: nil, arbiter: nil) { _ in }
        pipeline.handle(try #require(s.events.first))
        let deadline = try #require(pipeline.nextDeadline)
        #expect(deadline.milliseconds > 400 && deadline.milliseconds < 5000)
        let t = ReportFormatter.time(deadline).dropLast(" ms".count)  // 3 decimals, as every line has them
        #expect(Self.printed(s, json: true) == [#"{"t":\#(t),"event":"passed-on","device":"pointer","button":3}"#])
        #expect(Self.printed(s, json: false) == ["\(t) ms  mouse button 3: not a gesture, passed on to the application"])
    }

    @Test("the arbiter has the press back before the observers hear of the swipe")
    func arbiterFirst() {
        let arbiter = RecordingArbiter()
        var heard: [String] = []
        let pipeline = Pipeline(config: Self.config, performer: nil, arbiter: arbiter) { event in
            switch event {
            case .phase: heard.append("phase, the arbiter has \(arbiter.decisions.count)")
            case .passedOn(_, let time): heard.append("passed on at \(time.milliseconds)")
            default: break
            }
        }
        for event in Self.swipeRight.events { pipeline.handle(event) }
        #expect(heard == ["phase, the arbiter has 1", "passed on at 1020.0"])
    }

    @Test("a bound swipe has no no-binding line, and its press is not passed on")
    func boundSwipe() {
        var s = Script()
        s.pointerDrag(from: 300, 300, by: -200, 0, time: 0, duration: 40, steps: 4)
        let lines = Self.printed(s, json: true)
        #expect(lines.count == 1 && lines[0].contains(#""action":"key alt+Left""#), "\(lines)")
    }
}
