import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Glibc
import Testing
@testable import X11Backend

/// What the pipeline arms after a right-button press at (500, 400), 10 ms in: a swipe right
/// bound to a key, the default thresholds.
private func armAfterPress() throws -> SwipeArm {
    final class Arming: KeyArming {
        var last: KeyArm?
        func arm(_ arm: KeyArm?) { last = arm }
    }
    let config = try Config.parse("""
        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = "key F5"
        """, file: "test.toml")
    let arming = Arming()
    let pipeline = Pipeline(config: config, performer: RecordingPerformer(), arbiter: nil) { _ in }
    pipeline.keyArming = arming
    pipeline.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800)))
    pipeline.handle(InputEvent(time: Instant(milliseconds: 10), .buttonPress(button: 3, at: Point(x: 500, y: 400))))
    return try #require(arming.last?.swipe)
}

/// The daemon runs as `SCHED_BATCH` while an armed press's next motion leaves its swipe
/// undecided (``QuietWakePolicy``), and as an ordinary task for the motion that may complete it.
@Suite("quiet motions of an armed press")
struct QuietMotionTests {
    @Test("steps of 1 and 2 px in turn: quiet until the shorter step would complete the swipe, then not")
    func quietUntilOneStepAway() throws {
        let arm = try armAfterPress()
        var press = TriggerPress(button: 3, master: 2, source: 4, position: Point(x: 500, y: 400))
        #expect(!X11InputCapture.nextMotionIsQuiet(arm: arm, press: press), "no step yet: nothing to go by")
        var t = Instant(milliseconds: 10)
        var quiet: [Bool] = []
        for k in 0..<200 {
            t = t + Interval(milliseconds: 1)
            press.moved(to: press.position + Point(x: Double(1 + k % 2), y: 0), at: t)
            let isQuiet = X11InputCapture.nextMotionIsQuiet(arm: arm, press: press)
            quiet.append(isQuiet)
            if !isQuiet { break }
        }
        // The first motion that is not quiet is one whose next step of 1 px completes the swipe.
        let last = try #require(press.lastStep)
        #expect(quiet.dropLast().allSatisfy { $0 } && quiet.last == false)
        #expect(arm.firing(motionTo: press.position + Point(x: 1, y: 0), at: last.at + Interval(milliseconds: 1)) != nil)
        #expect(arm.firing(motionTo: press.position, at: last.at) == nil, "not completed yet")
    }

    @Test("not quiet without an arm, once the press is decided, or for another button")
    func onlyArmedUndecidedPresses() throws {
        let arm = try armAfterPress()
        var press = TriggerPress(button: 3, master: 2, source: 4, position: Point(x: 500, y: 400))
        press.moved(to: Point(x: 502, y: 400), at: Instant(milliseconds: 15))
        #expect(X11InputCapture.nextMotionIsQuiet(arm: arm, press: press))
        #expect(!X11InputCapture.nextMotionIsQuiet(arm: nil, press: press))
        #expect(!X11InputCapture.nextMotionIsQuiet(arm: arm, press: nil))
        var other = TriggerPress(button: 2, master: 2, source: 4, position: Point(x: 500, y: 400))
        other.moved(to: Point(x: 502, y: 400), at: Instant(milliseconds: 15))
        #expect(!X11InputCapture.nextMotionIsQuiet(arm: arm, press: other))
        var decided = press
        _ = decided.decide(.claim)
        #expect(!X11InputCapture.nextMotionIsQuiet(arm: arm, press: decided))
    }

    @Test("a step as long as the last completes the swipe: not quiet, whatever the step before")
    func longStepNext() throws {
        let arm = try armAfterPress()
        var press = TriggerPress(button: 3, master: 2, source: 4, position: Point(x: 500, y: 400))
        press.moved(to: Point(x: 560, y: 400), at: Instant(milliseconds: 50))
        #expect(!X11InputCapture.nextMotionIsQuiet(arm: arm, press: press), "60 px, and 60 more completes it")
        press.moved(to: Point(x: 561, y: 400), at: Instant(milliseconds: 52))
        #expect(X11InputCapture.nextMotionIsQuiet(arm: arm, press: press), "the shorter step, 1 px, does not")
    }

    @Test("the policy is the calling thread's: SCHED_BATCH while quiet, SCHED_OTHER after; a program started meanwhile begins as SCHED_OTHER")
    func policyFollows() throws {
        defer { QuietWakePolicy.set(batch: false) }
        #expect(sched_getscheduler(0) == QuietWakePolicy.schedOther)
        let batched = QuietWakePolicy.set(batch: true)
        #expect(batched && QuietWakePolicy.isBatch)
        #expect(sched_getscheduler(0) == QuietWakePolicy.schedBatch)
        // A child reports its own policy (field 41 of its stat line) on a pipe.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let pid = try ProcessSpawner.spawn(
            ["/bin/sh", "-c", "cut -d')' -f2 /proc/$$/stat | cut -d' ' -f40"], searchingPath: false, output: ends[1])
        close(ends[1])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(ends[0], &buffer, buffer.count)
        close(ends[0])
        let digits = buffer.prefix(max(0, count)).filter { (48...57).contains($0) }
        #expect(String(decoding: digits, as: UTF8.self) == "0", "the child's policy")
        let back = QuietWakePolicy.set(batch: false)
        #expect(back && !QuietWakePolicy.isBatch)
        #expect(sched_getscheduler(0) == QuietWakePolicy.schedOther)
    }
}
