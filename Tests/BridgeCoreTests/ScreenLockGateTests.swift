import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

private let config = try! Config.parse("""
    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "right"
    action = "workspace next"

    [[bind]]
    gesture = "tap"
    fingers = 1
    action = "click middle"

    [[bind]]
    gesture = "tap"
    fingers = 1
    taps = 2
    action = "click right"
    """, file: "lock.toml")

/// A pipeline with a recording performer, and everything it observed.
private final class Harness {
    let performer = RecordingPerformer()
    var events: [PipelineEvent] = []
    var pipeline: Pipeline!

    init() {
        pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { [unowned self] in self.events.append($0) }
        pipeline.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800)))
    }

    func feed(_ script: Script) { for e in script.events { pipeline.handle(e) } }

    var skipped: [(String, ScreenLock)] {
        events.compactMap {
            if case .skipped(_, let binding, let lock) = $0 { return (binding.actionText, lock) }
            return nil
        }
    }

    var performed: [String] { performer.performed.map { "\($0.0)" } }
}

/// A fast right-button drag to the right, from `t` ms (without its press when `press` is false).
private func rightSwipe(at t: Double, press: Bool = true) -> Script {
    var s = Script()
    if press { s.press(3, 100, 100, at: t) }
    for i in 1...6 { s.motion(100 + Double(i) * 30, 100, at: t + Double(i) * 10) }
    s.release(3, 280, 100, at: t + 70)
    return s
}

@Suite("the screen lock gate")
struct ScreenLockGateTests {
    @Test("while locked, a bound gesture is reported as skipped and nothing is performed")
    func lockedGesturesPerformNothing() {
        let h = Harness()
        h.pipeline.setScreenLock(.locker("i3lock"), at: Instant(milliseconds: 10))
        h.feed(rightSwipe(at: 100))
        #expect(h.performed.isEmpty)
        #expect(h.skipped.map(\.0) == ["workspace next"])
        #expect(h.skipped.map(\.1) == [.locker("i3lock")])
        #expect(h.pipeline.screenLock == .locker("i3lock"))
    }

    @Test("input that began while locked does nothing after the unlock; the next gesture performs")
    func wakingInputStaysLocked() {
        let h = Harness()
        h.pipeline.setScreenLock(.screenSaver, at: Instant(milliseconds: 10))
        // The press is seen, then the saver goes off (an unlock during the drag).
        h.pipeline.handle(InputEvent(time: Instant(milliseconds: 100), .buttonPress(button: 3, at: Point(x: 100, y: 100))))
        h.pipeline.setScreenLock(nil, at: Instant(milliseconds: 105))
        h.feed(rightSwipe(at: 100, press: false))
        #expect(h.performed.isEmpty)
        #expect(h.skipped.map(\.0) == ["workspace next"])

        h.feed(rightSwipe(at: 1_000))
        #expect(h.performed == ["workspace next"])
        #expect(h.pipeline.screenLock == nil)
    }

    @Test("the press queued behind the unlock (the one that woke the screen saver) is the lock's")
    func pressAtTheUnlockInstantIsTheLocks() {
        let h = Harness()
        h.pipeline.setScreenLock(.screenSaver, at: Instant(milliseconds: 10))
        // The server turns the saver off at 100 and only then delivers the press stamped 100.
        h.pipeline.setScreenLock(nil, at: Instant(milliseconds: 100))
        h.feed(rightSwipe(at: 100))
        #expect(h.performed.isEmpty)
        #expect(h.skipped.count == 1)
        // Input woke it (the press at the unlock's own instant): the next drag, soon after, performs.
        let woken = Harness()
        woken.pipeline.setScreenLock(.screenSaver, at: Instant(milliseconds: 10))
        woken.pipeline.setScreenLock(nil, at: Instant(milliseconds: 100), endedByInput: true)
        woken.feed(rightSwipe(at: 100))
        woken.feed(rightSwipe(at: 200))
        #expect(woken.performed == ["workspace next"])
    }

    @Test("XTest input wakes the saver a few ms before its press is stamped: still the lock's; later input is not",
          arguments: [(3.0, false), (120.0, false), (250.0, false), (251.0, true)])
    func pressSoonAfterTheSaverIsTheLocks(after: Double, performs: Bool) {
        let h = Harness()
        h.pipeline.setScreenLock(.screenSaver, at: Instant(milliseconds: 10))
        h.pipeline.setScreenLock(nil, at: Instant(milliseconds: 100), endedByInput: true)
        h.feed(rightSwipe(at: 100 + after))
        #expect(h.performed == (performs ? ["workspace next"] : []))
        #expect(h.skipped.count == (performs ? 0 : 1))
        // Only the first input is the waking one: the next drag, even within the slack, performs.
        h.feed(rightSwipe(at: 100 + after + 100))
        #expect(h.performed == (performs ? ["workspace next", "workspace next"] : ["workspace next"]))
    }

    @Test("a locker's window closing, or a saver a client turned off, has no such slack: the press after it performs",
          arguments: [ScreenLock.locker("i3lock"), .screenSaver])
    func forcedUnlockEndsAtOnce(lock: ScreenLock) {
        let h = Harness()
        h.pipeline.setScreenLock(lock, at: Instant(milliseconds: 10))
        h.pipeline.setScreenLock(nil, at: Instant(milliseconds: 100))
        h.feed(rightSwipe(at: 103))
        #expect(h.performed == ["workspace next"])
    }

    @Test("a tap that waits for a second one when the lock ends is still the lock's")
    func pendingTapIsTheLocks() {
        let h = Harness()
        h.pipeline.setScreenLock(.screenSaver, at: Instant(milliseconds: 10))
        var s = Script()
        s.tap(at: 500, 500, time: 100)
        h.feed(s)
        h.pipeline.setScreenLock(nil, at: Instant(milliseconds: 200))
        h.pipeline.advance(to: Instant(milliseconds: 2_000))
        #expect(h.performed.isEmpty)
        #expect(h.skipped.map(\.0) == ["click middle"])
        var next = Script()
        next.tap(at: 500, 500, time: 3_000)
        h.feed(next)
        h.pipeline.advance(to: Instant(milliseconds: 5_000))
        #expect(h.performed == ["click middle"])
    }

    @Test("locking abandons what is in progress: undecided input goes back, and the gesture never fires")
    func lockingAbandons() {
        let arbiter = RecordingArbiter()
        let performer = RecordingPerformer()
        let pipeline = Pipeline(config: config, performer: performer, arbiter: arbiter) { _ in }
        pipeline.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800)))
        pipeline.handle(InputEvent(time: Instant(milliseconds: 100), .buttonPress(button: 3, at: Point(x: 100, y: 100))))
        pipeline.setScreenLock(.locker("xsecurelock"), at: Instant(milliseconds: 110))
        #expect(arbiter.decisions == [.pointer(button: 3, .release)])
        for e in rightSwipe(at: 100, press: false).events { pipeline.handle(e) }
        #expect(performer.performed.isEmpty)
    }
}
