import CX11
import Foundation
import GestureTestKit
import Testing

/// The live daemon under continuous random right-button use on Xvfb + openbox (issue 9,
/// "Soak"): every press that is not a gesture reaches the window, every gesture fires exactly
/// once, nothing else is injected, and the daemon's resident memory stays flat.
///
/// The run lasts `GESTURE_BRIDGE_SOAK_SECONDS` (default 20 s, a smoke run in the ordinary
/// suite); `GESTURE_BRIDGE_SOAK_SECONDS=1800 swift test --filter SoakTests` is the 30-minute
/// soak of docs/reliability.md, and `GESTURE_BRIDGE_TEST_SEED` repeats a printed seed.
@Suite("soak: the live daemon under continuous random pointer use", .serialized)
struct SoakTests {
    /// How long the run lasts.
    static var duration: Duration {
        let text = ProcessInfo.processInfo.environment["GESTURE_BRIDGE_SOAK_SECONDS"] ?? ""
        return .seconds(Int(text).map { max($0, 5) } ?? 20)
    }

    /// The daemon's resident memory (`VmRSS`, KiB).
    static func residentKiB(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }

    @Test("random right-button moves for the soak's duration: no press lost, every gesture fired once, nothing stray, memory flat")
    func soak() throws {
        try PointerGiveBackTests.withSession(config: PointerGiveBackTests.randomMovesConfig) { s in
            let seed = SplitMix64.testSeed()
            var random = SplitMix64(seed: seed)
            let (cx, cy) = s.centre
            let clock = ContinuousClock()
            let end = clock.now + Self.duration
            var rounds = 0, gestures = 0, givenBack = 0, slowBoundDrags = 0
            var kinds: [String: Int] = [:]
            var samples: [(round: Int, kib: Int)] = []
            var problems: [String] = []
            while clock.now < end && problems.count < 3 {
                let started = clock.now
                let move = PointerGiveBackTests.Move.allCases[random.below(PointerGiveBackTests.Move.allCases.count)]
                let x = cx - 100 + random.below(200), y = cy - 60 + random.below(120)
                move.play(s.mouse, at: x, y, &random)
                // A bound drag takes about 20 ms. One that took far longer (the test was
                // descheduled, or the machine paused) is no swipe to the daemon either: it is
                // fine as a gesture or as a press given back, never both, never neither.
                let slow = move == .boundDrag && clock.now - started > .milliseconds(150)
                rounds += 1
                kinds[move.rawValue, default: 0] += 1
                // Wait for the outcome, as a hand would see it, then judge everything so far.
                var keys: [EventWindow.Received] = [], buttons: [EventWindow.Received] = []
                func look() {
                    let events = s.window.waitForEvents(0, timeout: .zero)
                    keys = events.filter { $0.kind == .keyPress || $0.kind == .keyRelease }
                    buttons = PointerGiveBackTests.buttons(events)
                }
                let settled = poll(timeout: .seconds(3)) {
                    look()
                    let fired = keys.count >= 6 * (gestures + 1), returned = buttons.count >= 2 * (givenBack + 1)
                    return move == .boundDrag ? fired || (slow && returned) : returned
                }
                usleep(30_000)
                look()
                if move == .boundDrag && !(slow && keys.count == 6 * gestures) { gestures += 1 } else { givenBack += 1 }
                if slow { slowBoundDrags += 1 }
                if !settled || keys.count != 6 * gestures || buttons.count != 2 * givenBack {
                    problems.append("round \(rounds) (\(move.rawValue) at \(x), \(y)): \(keys.count / 6) of \(gestures) gestures, "
                                    + "\(buttons.count / 2) of \(givenBack) presses given back")
                    // Judge the next rounds on their own.
                    s.window.reset()
                    gestures = 0
                    givenBack = 0
                }
                // Resident memory every 10 rounds after a warm-up of 50.
                if rounds % 10 == 0 && rounds > 50, let kib = Self.residentKiB(of: s.daemon.process.pid) {
                    samples.append((rounds, kib))
                }
                // The window's record grows with every event: start it afresh now and then.
                if rounds % 50 == 0 && problems.isEmpty {
                    s.window.reset()
                    gestures = 0
                    givenBack = 0
                }
                usleep(UInt32(random.below(20) * 1_000))
            }
            let growth = (samples.map(\.kib).max() ?? 0) - (samples.first?.kib ?? 0)
            let summary = "seed \(seed), \(rounds) rounds in \(Self.duration), \(kinds), \(slowBoundDrags) bound drags slowed down; "
                + "RSS after warm-up \(samples.first?.kib ?? 0) KiB, largest +\(growth) KiB over \(samples.count) samples"
            print("soak: \(summary)")
            #expect(problems.isEmpty, "\(summary)\n\(problems.joined(separator: "\n"))\n\(s.daemon.output.suffix(3000))")
            #expect(samples.count >= 2, "\(summary)")
            #expect(growth < 1024, "resident memory grew: \(samples.map { "round \($0.round): \($0.kib) KiB" })")
            #expect(s.client.buttonsDown() == 0 && s.client.keysDown().isEmpty)
            #expect(!s.daemon.output.contains("error"), "\(s.daemon.output.suffix(3000))")
            #expect(s.daemon.process.isRunning)
        }
    }
}
