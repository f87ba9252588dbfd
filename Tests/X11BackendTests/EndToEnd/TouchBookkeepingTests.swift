import Foundation
import GestureEngine
import Testing
@testable import X11Backend

/// What the capture keeps per touch, with real XI 2.2 touches on headless Xorg: nothing once a
/// touch is over (issue 9, item 4: `--dry-run` and `record` kept every touch's position), and
/// exactly one lift per touch reported to the engine, whichever verdict it got and when.
@Suite("per-touch bookkeeping of the capture, on headless Xorg", .serialized,
       .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
struct TouchBookkeepingTests {
    static let needs = CaptureNeeds(touchscreen: true, touchpadSwipes: false, touchpadPinches: false)

    /// Plays `count` one-finger touches (begin, two moves, end), ids from 1.
    private func play(_ count: Int, on touch: InputTestDevice) throws {
        for id in 1...UInt32(count) {
            let x = 100 + Double(id % 50) * 10
            try touch.touch(.begin, id: id, x: x, y: 200)
            try touch.touch(.update, id: id, x: x + 3, y: 203)
            try touch.touch(.update, id: id, x: x + 6, y: 206)
            try touch.touch(.end, id: id, x: x + 6, y: 206)
            if id % 50 == 0 { try touch.sync() }
        }
        try touch.sync()
    }

    @Test("observing (--dry-run, record), nothing of a touch is kept once it ended")
    func observingKeepsNothing() throws {
        try XServer.with(.xorgInputTest) { server in
            let capture = try X11InputCapture(
                display: X11Display(name: server.name), mode: .observe, needs: Self.needs, logger: quietLogger)
            let touch = try server.touchscreen()
            try play(300, on: touch)
            var begins = 0, ends = 0
            let all = poll(timeout: .seconds(10)) {
                capture.drain { event in
                    if case .touchBegin = event.kind { begins += 1 }
                    if case .touchEnd = event.kind { ends += 1 }
                }
                return ends >= 300
            }
            #expect(all && begins == 300 && ends == 300, "\(begins) begins, \(ends) ends")
            let kept = capture.rawTouchPositions.count
            #expect(kept == 0, "\(kept) touch positions kept")
        }
    }

    /// Grabbing, each touch is claimed or given back, the verdict coming while the finger is
    /// down or after it lifted, as the engine's decisions do.
    @Test("grabbing, every touch is lifted once for the engine, whatever its verdict and when; nothing is kept")
    func grabbingLiftsOnceKeepsNothing() throws {
        try XServer.with(.xorgInputTest) { server in
            let capture = try X11InputCapture(
                display: X11Display(name: server.name), mode: .grab, needs: Self.needs, logger: quietLogger)
            let touch = try server.touchscreen()
            let count = 120
            var lifts: [Int: Int] = [:]
            var decided: Set<Int> = []
            // Verdict by id: claim or release; early (at the begin) or late (at the lift).
            func verdict(_ id: Int) -> Ownership { id % 2 == 0 ? .claim : .release }
            func early(_ id: Int) -> Bool { id % 3 != 0 }
            func handle(_ event: InputEvent) {
                switch event.kind {
                case .touchBegin(let id, _, _):
                    if early(id) { capture.decideTouch(id, verdict(id)); decided.insert(id) }
                case .touchEnd(let id, _), .touchCancel(let id, _):
                    lifts[id, default: 0] += 1
                    if !decided.contains(id) { capture.decideTouch(id, verdict(id)); decided.insert(id) }
                default:
                    break
                }
            }
            // One touch at a time, as the engine would see a hand lift and land again.
            for id in 1...UInt32(count) {
                try touch.touch(.begin, id: id, x: 300, y: 300)
                try touch.touch(.update, id: id, x: 305, y: 302)
                try touch.sync()
                _ = poll(timeout: .milliseconds(500)) { capture.drain(handle); return decided.contains(Int(id)) || !early(Int(id)) }
                try touch.touch(.end, id: id, x: 305, y: 302)
                try touch.sync()
                let lifted = poll(timeout: .seconds(3)) { capture.drain(handle); return lifts[Int(id)] != nil }
                #expect(lifted, "touch \(id) (\(verdict(Int(id))), \(early(Int(id)) ? "early" : "late")) never lifted")
            }
            usleep(100_000)
            capture.drain(handle)
            let twice = lifts.filter { $0.value != 1 }
            #expect(lifts.count == count && twice.isEmpty, "\(lifts.count) of \(count) lifted; more than once: \(twice)")
            let ledgerEmpty = capture.touchLedger.isEmpty
            #expect(ledgerEmpty, "\(capture.touchLedger)")
            capture.releaseGrabs()
        }
    }
}
