import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// A performer that writes everything it is asked to do into one log, in order: `down Alt_L`,
/// `key Tab`, `up Alt_L`.
private final class OrderedPerformer: ActionPerformer {
    var log: [String] = []
    /// Actions whose description starts with this fail.
    var failing: String? = nil

    func perform(_ action: Action, context: ActionContext) throws(ActionError) {
        if let failing, action.description.hasPrefix(failing) { throw ActionError("\(action): refused") }
        log.append(action.description)
    }
    func releaseEverything() { log.append("release everything") }
    func pressHeldKey(_ key: KeyCombo.Key, context: ActionContext) throws(ActionError) { log.append("down \(key.name)") }
    func releaseHeldKey(_ key: KeyCombo.Key) { log.append("up \(key.name)") }
}

/// The window-switching pair of docs/config.md, on right-drags.
private let switching = HoldConfigs.pointerWindowSwitching

/// A pointer pan that holds `hold` and performs `action` (a TOML value) as it begins.
private func pointerPan(hold: String = "alt", _ action: String = #""key Tab""#, _ more: String...) -> String {
    bind(#"gesture = "pan""#, #"device = "pointer""#, "hold = \"\(hold)\"", "action = \(action)") + more.joined()
}

private func bind(_ lines: String...) -> String { "[[bind]]\n" + lines.map { $0 + "\n" }.joined() + "\n" }

/// A pipeline over `toml` printing JSON Lines (or lines for a person) into `lines`, performing
/// into `performer` (nil: dry-run and replay).
private final class Harness {
    let config: Config
    var lines: [String] = []
    var failures: [String] = []
    var pipeline: Pipeline!

    init(_ toml: String, performer: (any ActionPerformer)?, json: Bool = true) throws {
        let config = try Config.parse(toml, file: "holds.toml")
        self.config = config
        let printer = ReportPrinter(format: json ? .json : .human, config: { config }, write: { [unowned self] in lines.append($0) })
        pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { [unowned self] event in
            if case .actionFailed(_, let action, let error) = event { failures.append("\(action): \(error)") }
            printer.print(event)
        }
    }

    func run(_ script: Script) {
        for e in script.events { pipeline.handle(e) }
    }

    /// The printed lines that carry `field`.
    func lines(with field: String) -> [String] { lines.filter { $0.contains("\"\(field)\":") } }
}

/// A right-drag from (100, 400): right by `right` px in 25 px steps, then left by `left` px,
/// 10 ms per step, released 10 ms after the last.
private func rightDrag(right: Int, left: Int, at t0: Double = 0) -> Script {
    var s = Script()
    s.press(3, 100, 400, at: t0)
    var x = 100.0, t = t0
    for _ in 0..<(right / 25) { x += 25; t += 10; s.motion(x, 400, at: t) }
    for _ in 0..<(left / 25) { x -= 25; t += 10; s.motion(x, 400, at: t) }
    s.release(3, x, 400, at: t + 10)
    return s
}

@Suite("Held keys")
struct HeldKeysTests {
    @Test("Window switching: Alt goes down before the first Tab, Shift+Tab moving back, Alt up after the release")
    func windowSwitching() throws {
        let performer = OrderedPerformer()
        let h = try Harness(switching, performer: performer)
        h.run(rightDrag(right: 350, left: 300))
        let log = performer.log
        #expect(log.first == "down Alt_L")
        #expect(log.last == "up Alt_L")
        #expect(log.filter { $0 == "down Alt_L" }.count == 1, "\(log)")
        #expect(log.filter { $0 == "up Alt_L" }.count == 1, "\(log)")
        let keys = Array(log.dropFirst().dropLast())
        let tabs = keys.prefix { $0 == "key Tab" }.count
        #expect(tabs >= 3, "\(log)")
        #expect(keys.dropFirst(tabs).allSatisfy { $0 == "key Shift_L+Tab" } && keys.count > tabs, "\(log)")

        // Every firing line carries the hold; only the ended line carries the release.
        #expect(h.lines(with: "action").count == keys.count)
        #expect(h.lines(with: "hold") == h.lines(with: "action"))
        #expect(h.lines(with: "release").count == 1)
        let ended = try #require(h.lines.last)
        #expect(ended.contains(#""phase":"ended""#) && ended.hasSuffix(#","release":"alt"}"#), "\(ended)")
        let began = try #require(h.lines.first)
        #expect(began.contains(#""phase":"began""#) && began.hasSuffix(#""action":"key Tab","hold":"alt"}"#), "\(began)")
    }

    @Test("Replay and dry-run print exactly the lines the live pipeline acts on")
    func sameLinesWithoutPerformer() throws {
        let live = try Harness(switching, performer: OrderedPerformer())
        let dry = try Harness(switching, performer: nil)
        live.run(rightDrag(right: 300, left: 250))
        dry.run(rightDrag(right: 300, left: 250))
        #expect(live.lines == dry.lines)
        #expect(!live.lines.isEmpty)
    }

    @Test("For a person: the line that fires says what it holds, the end what it releases")
    func humanLines() throws {
        let h = try Harness(switching, performer: nil, json: false)
        h.run(rightDrag(right: 100, left: 0))
        #expect(h.lines.first?.hasSuffix("→ key Tab  (holds.toml:1:1)  holding alt") == true, "\(h.lines)")
        #expect(h.lines.last?.contains("pan ended") == true && h.lines.last?.hasSuffix("releasing alt") == true, "\(h.lines)")
    }

    @Test("A held key in the action's combination stays down: the action neither presses nor releases it")
    func heldKeyInTheCombination() throws {
        let performer = OrderedPerformer()
        let h = try Harness(
            pointerPan(#""key alt+Tab""#)
                + bind(#"gesture = "long-press""#, #"device = "pointer""#, #"hold = "alt""#, #"action = "key alt""#),
            performer: performer)
        h.run(rightDrag(right: 100, left: 0))
        #expect(performer.log == ["down Alt_L", "key Tab", "up Alt_L"])
        var s = Script()
        s.press(3, 500, 500, at: 1000)
        s.release(3, 500, 500, at: 1700)
        performer.log = []
        h.run(s)
        // `key alt` while alt is held has nothing left to do.
        #expect(performer.log == ["down Alt_L", "up Alt_L"])
    }

    @Test("A gesture holds the union of its bindings' holds, spelled as first written, released in reverse")
    func union() throws {
        let performer = OrderedPerformer()
        let h = try Harness("""
            [[bind]]
            gesture = "pan"
            direction = "right"
            device = "pointer"
            hold = "Alt_L"
            repeat_every = 100
            action = "key Tab"

            [[bind]]
            gesture = "pan"
            direction = "left"
            device = "pointer"
            hold = "ctrl+alt"
            repeat_every = 100
            action = "key Tab"
            """, performer: performer)
        h.run(rightDrag(right: 200, left: 250))
        #expect(performer.log.filter { !$0.hasPrefix("key") } == ["down Alt_L", "down Control_L", "up Control_L", "up Alt_L"])
        #expect(h.lines.last?.hasSuffix(#","release":"Alt_L+ctrl"}"#) == true, "\(h.lines)")
        #expect(h.lines(with: "hold").map { $0.contains(#""hold":"ctrl+alt""#) }.contains(true))
    }

    @Test("Cancelled gestures release what they hold", arguments: CancelCase.allCases)
    func cancelled(_ cancel: CancelCase) throws {
        let performer = OrderedPerformer()
        let h = try Harness("""
            [[bind]]
            gesture = "long-press"
            device = "touchscreen"
            hold = "ctrl"
            action = "click left"

            [[bind]]
            gesture = "pan"
            fingers = 3
            device = "touchpad"
            hold = "super"
            action = "key Tab"

            [[bind]]
            gesture = "pan"
            fingers = 1
            device = "touchscreen"
            hold = "shift"
            action = "scroll down"
            """, performer: performer)
        var s = Script()
        switch cancel {
        case .touchCancel:
            s.down(1, 300, 300, at: 0)
            s.cancel(1, at: 700)
        case .lateFinger:
            s.down(1, 300, 300, at: 0)
            s.move(1, 360, 300, at: 150)
            s.move(1, 420, 300, at: 400)
            s.down(2, 600, 600, at: 450)
        case .touchpadCancel:
            s.touchpadSwipe(fingers: 3, by: 300, 0, time: 0, duration: 400, cancelled: true, at: Point(x: 500, y: 500))
        case .shutdown, .reload, .screenLock:
            s.down(1, 300, 300, at: 0)
        }
        h.run(s)
        if [.shutdown, .reload, .screenLock].contains(cancel) { h.pipeline.advance(to: Instant(milliseconds: 600)) }  // the long press begins
        switch cancel {
        case .shutdown: h.pipeline.shutdown(at: Instant(milliseconds: 900))
        case .reload: h.pipeline.reload(try Config.parse("", file: "empty.toml"), at: Instant(milliseconds: 900))
        case .screenLock: h.pipeline.setScreenLock(.screenSaver, at: Instant(milliseconds: 900))
        default: break
        }
        let downs = performer.log.filter { $0.hasPrefix("down") }
        let ups = performer.log.filter { $0.hasPrefix("up") }
        #expect(downs.count == 1, "\(performer.log)")
        #expect(ups == downs.map { "up" + $0.dropFirst(4) }, "\(performer.log)")
        let releasing = h.lines(with: "release")
        #expect(releasing.count == 1, "\(h.lines)")
        #expect(releasing.first?.contains(cancel == .lateFinger ? #""phase":"ended""# : #""phase":"cancelled""#) == true, "\(h.lines)")
        if cancel == .shutdown {
            // The keys go up before the performer's last sweep.
            #expect(performer.log.suffix(2) == [ups.last ?? "", "release everything"])
        }
    }

    enum CancelCase: String, CaseIterable, Sendable {
        case touchCancel, lateFinger, touchpadCancel, shutdown, reload, screenLock
    }

    @Test("Two gestures at once: a key both hold goes down once and up when the last of them ends")
    func twoGesturesAtOnce() throws {
        let performer = OrderedPerformer()
        let h = try Harness(
            pointerPan() + bind(#"gesture = "long-press""#, #"device = "touchscreen""#, #"hold = "alt+ctrl""#, #"action = "click left""#),
            performer: performer)
        var s = Script()
        s.press(3, 100, 100, at: 0)
        s.motion(150, 100, at: 20)
        s.motion(200, 100, at: 40)  // the pan begins: alt down
        s.down(1, 800, 600, at: 100)  // the long press begins at 600: ctrl down
        s.up(1, 800, 600, at: 700)  // the long press ends: ctrl up, alt stays for the pan
        s.motion(260, 100, at: 720)
        s.release(3, 260, 100, at: 800)  // the pan ends: alt up
        h.run(s)
        #expect(performer.log == ["down Alt_L", "key Tab", "down Control_L", "click left", "up Control_L", "up Alt_L"])
        let releases = h.lines(with: "release")
        #expect(releases.count == 2)
        #expect(releases.first?.contains(#""gesture":"long-press""#) == true && releases.first?.hasSuffix(#""release":"alt+ctrl"}"#) == true)
        #expect(releases.last?.contains(#""gesture":"pan""#) == true && releases.last?.hasSuffix(#""release":"alt"}"#) == true)
    }

    @Test("An action list runs in order; a failing action stops the rest, and held keys still go up")
    func actionList() throws {
        let performer = OrderedPerformer()
        let h = try Harness(
            bind(#"gesture = "long-press""#, #"device = "pointer""#, #"hold = "super""#, #"action = ["key ctrl+c", "workspace 2", "exec true"]"#),
            performer: performer)
        var s = Script()
        s.press(3, 500, 500, at: 0)
        s.release(3, 500, 500, at: 700)
        h.run(s)
        #expect(performer.log == ["down Super_L", "key Control_L+c", "workspace 2", "exec true", "up Super_L"])
        #expect(h.lines.first?.hasSuffix(#""action":["key ctrl+c","workspace 2","exec true"],"hold":"super"}"#) == true, "\(h.lines)")

        performer.log = []
        performer.failing = "workspace"
        s = Script()
        s.press(3, 500, 500, at: 1000)
        s.release(3, 500, 500, at: 1700)
        h.run(s)
        #expect(performer.log == ["down Super_L", "key Control_L+c", "up Super_L"])
        #expect(h.failures == ["workspace 2: workspace 2: refused"])
    }

    @Test("A binding without hold that fires in a holding gesture keeps the keys down until the end")
    func endBindingAfterHold() throws {
        let performer = OrderedPerformer()
        let h = try Harness(
            pointerPan(#""key Tab""#, bind(#"gesture = "pan""#, #"device = "pointer""#, #"on = "end""#, #"action = "key Return""#)),
            performer: performer)
        h.run(rightDrag(right: 100, left: 0))
        #expect(performer.log == ["down Alt_L", "key Tab", "key Return", "up Alt_L"])
        #expect(h.lines.last?.hasSuffix(#""action":"key Return","release":"alt"}"#) == true, "\(h.lines)")
    }
}

@Suite("Action lists in the live log")
struct ActionListLiveLogTests {
    @Test("a list is said on one line, as written, even with a line break in an action")
    func oneLine() throws {
        let config = try Config.parse(#"""
            [[bind]]
            gesture = "swipe"
            action = ["key ctrl+c", "exec printf 'a\nb'"]
            """#, file: "c.toml")
        let binding = try #require(config.bindings.first)
        let report = GestureReport(time: Instant(milliseconds: 5), gesture: .swipe, phase: .recognized, fingers: 1,
                                   device: .touchscreen, position: Point(x: 1, y: 2), direction: .left, firing: 0)
        var log = LiveLog()
        let lines = log.lines(for: report, binding: binding, config: config)
        #expect(lines.count == 1)
        #expect(lines.first?.message == #"swipe recognized → ["key ctrl+c", "exec printf 'a\nb'"]"#, "\(lines)")
        #expect(lines.allSatisfy { !$0.message.contains("\n") })
    }
}
