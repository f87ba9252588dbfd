import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// The daemon's info lines for `script` under `toml`, run through the real pipeline and
/// performer port, with how many actions were performed.
private func liveLog(_ toml: String, _ script: Script) throws -> (info: [String], debug: [String], performed: Int) {
    let config = try Config.parse(toml, file: "c.toml")
    let performer = RecordingPerformer()
    var log = LiveLog()
    var info: [String] = []
    var debug: [String] = []
    let pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { event in
        guard case .phase(let report, let binding, _) = event else { return }
        for line in log.lines(for: report, binding: binding, config: config) {
            let metadata = line.metadata.keys.sorted().map { "\($0)=\(line.metadata[$0]!)" }.joined(separator: " ")
            let text = metadata.isEmpty ? line.message : "\(line.message) \(metadata)"
            if line.level == .info { info.append(text) } else { debug.append(text) }
        }
    }
    for e in script.events { pipeline.handle(e) }
    if let last = script.events.last?.time { pipeline.advance(to: last + Interval(milliseconds: 10_000)) }
    return (info, debug, performer.performed.count)
}

@Suite("The live log")
struct LiveLogTests {
    @Test("A 640 px pan with repeat_every = 40 logs its first firing and, at the end, one count")
    func repeatsAreCollapsed() throws {
        let toml = """
            [[bind]]
            gesture = "pan"
            device = "touchscreen"
            repeat_every = 40
            action = "key Tab"
            """
        var s = Script()
        s.drag(from: 100, 300, by: 640, 0, time: 0, duration: 3200, steps: 64)
        let log = try liveLog(toml, s)
        #expect(log.performed >= 16)
        #expect(log.info == [
            "pan began → key Tab binding=c.toml:1:1 device=touchscreen fingers=1",
            "pan ended: key Tab ×\(log.performed) binding=c.toml:1:1",
        ])
        // --verbose still has each repeat.
        #expect(log.debug.filter { $0.hasPrefix("pan changed → key Tab (again)") }.count == log.performed - 1)
    }

    @Test("A gesture that fires once logs one line, and nothing at its end")
    func oneFiringOneLine() throws {
        let toml = """
            [[bind]]
            gesture = "long-press"
            device = "touchscreen"
            action = "exec notify-send hello"
            """
        var s = Script()
        s.down(1, 100, 200, at: 0)
        s.up(1, 100, 200, at: 900)
        let log = try liveLog(toml, s)
        #expect(log.performed == 1)
        #expect(log.info == ["long-press began → exec notify-send hello binding=c.toml:1:1 device=touchscreen fingers=1"])
    }

    @Test("A swipe that matches no binding says why, in one line, with the replay's reason")
    func discreteGestureSaysWhy() throws {
        let toml = """
            [[bind]]
            gesture = "swipe"
            fingers = 3
            direction = "left"
            action = "workspace next"
            """
        var s = Script()
        s.drag(fingers: 3, from: 100, 100, by: 200, 0, time: 0, duration: 30, steps: 1, lift: 10)
        let log = try liveLog(toml, s)
        #expect(log.performed == 0)
        #expect(log.info == ["swipe with 3 fingers on the touchscreen did nothing: no binding matches (bound here: swipe left at 1:1)"])
    }

    @Test("A pan that fires nothing says why once, when it ends")
    func continuousGestureSaysWhyOnce() throws {
        let toml = """
            [[bind]]
            gesture = "pan"
            direction = "right"
            device = "touchscreen"
            action = "key Tab"
            """
        var s = Script()
        s.drag(from: 500, 300, by: -300, 0, time: 0, duration: 1500, steps: 30)
        let log = try liveLog(toml, s)
        #expect(log.performed == 0)
        #expect(log.info.count == 1, "\(log.info)")
        #expect(log.info.first?.hasPrefix("pan with 1 finger on the touchscreen did nothing: no binding matches (bound here: pan right at 1:1)") == true,
                "\(log.info)")
    }

    @Test("Ownership decisions are words, not type names")
    func ownershipInWords() {
        let decisions: [OwnershipDecision] = [.touch(id: 311, .release), .pointer(button: 3, .claim), .touchpad(.release)]
        #expect(decisions.map(\.description) == [
            "touch 311 given back to the application", "button 3 press taken by a gesture", "touchpad gesture given back to the application",
        ])
        #expect(decisions.map(\.input) == ["touch 311", "button 3 press", "touchpad gesture"])
        #expect(!"\(decisions[0])".contains("GestureEngine"))
    }

    @Test("Transition times in the human output are rounded")
    func transitionTimesRounded() {
        let transition = Transition(
            time: Instant(milliseconds: 1_491_318.6666666667), device: .touchscreen, gesture: .tap, from: "possible", to: "done", cause: "touch-end")
        var lines: [String] = []
        let config = Config()
        let printer = ReportPrinter(format: .human, config: { config }, write: { lines.append($0) })
        printer.print(.transition(transition))
        #expect(lines == ["  1491318.667 ms  touchscreen tap: possible → touch-end → done"])
    }
}
