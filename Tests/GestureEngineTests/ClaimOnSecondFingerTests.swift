import GestureEngine
import GestureTestKit
import Testing

/// `[touchscreen] claim_on_second_finger`: the touches of a multi-finger group are claimed the
/// moment the fingers down make a count a binding uses, so the X server sees them accepted
/// while the fingers are still down.
@Suite struct ClaimOnSecondFingerTests {
    /// Each touch decision with the time of the input (or deadline) that caused it.
    private func decisions(_ triggers: [Trigger], _ script: Script, on: Bool, app: String? = nil) -> [(t: Double, id: Int, Ownership)] {
        var engine = Engine(EngineConfiguration(triggers: triggers, claimOnSecondFinger: on))
        var out: [(Double, Int, Ownership)] = []
        func record(_ t: Double) -> (EngineOutput) -> Void {
            { if case .touch(let id, let ownership) = $0 { out.append((t, id, ownership)) } }
        }
        for e in script.events {
            while let d = engine.nextDeadline, d < e.time { engine.advance(to: d, emit: record(d.milliseconds)) }
            engine.handle(e, emit: record(e.time.milliseconds))
        }
        while let d = engine.nextDeadline { engine.advance(to: d, emit: record(d.milliseconds)) }
        return out
    }

    private func describe(_ d: [(t: Double, id: Int, Ownership)]) -> [String] {
        d.map { "\($0.t): \($0.id) \($0.2)" }
    }

    @Test func onABoundTwoFingerTapIsClaimedWhenTheSecondFingerLands() {
        var s = Script()
        s.tap(fingers: 2, at: 100, 100, time: 0)  // down at 0 and 5, up at 50 and 55
        #expect(describe(decisions([tap(f: 2)], s, on: true)) == ["5.0: 1 claim", "5.0: 2 claim"])
        // The tap is still recognized and fires at the lift.
        #expect(firings(run([tap(f: 2)], s, claimOnSecondFinger: true)) == ["tap recognized taps=1 f2 touchscreen →0"])
    }

    @Test func offATwoFingerTapIsClaimedAtTheLift() {
        var s = Script()
        s.tap(fingers: 2, at: 100, 100, time: 0)
        #expect(describe(decisions([tap(f: 2)], s, on: false)) == ["55.0: 1 claim", "55.0: 2 claim"])
        #expect(firings(run([tap(f: 2)], s)) == ["tap recognized taps=1 f2 touchscreen →0"])
    }

    @Test func aSingleFingerIsNeverClaimedEarly() {
        var s = Script()
        s.tap(at: 100, 100, time: 0)  // a bound 1-finger tap: claimed at its lift, as without the option
        s.down(2, 400, 400, at: 1000); s.up(2, 400, 400, at: 1400)  // a hold: released when it can no longer be a tap
        #expect(describe(decisions([tap(), tap(f: 2)], s, on: true)) == ["50.0: 1 claim", "1300.0: 2 release"])
    }

    @Test func onlyACountABindingUsesIsClaimedEarly() {
        var s = Script()
        // Only 3 fingers are bound: two fingers stay the application's (released at the first
        // lift); the third landing claims all three.
        s.tap(fingers: 2, at: 100, 100, time: 0)
        s.tap(fingers: 3, at: 100, 100, time: 1000, firstID: 3)  // down at 1000, 1005, 1010
        #expect(describe(decisions([swipe(.left, f: 3)], s, on: true))
            == ["50.0: 1 release", "50.0: 2 release", "1010.0: 3 claim", "1010.0: 4 claim", "1010.0: 5 claim"])
    }

    @Test func aFingerJoiningAClaimedGroupIsClaimedToo() {
        var s = Script()
        s.down(1, 100, 100, at: 0); s.down(2, 130, 100, at: 10); s.down(3, 160, 100, at: 20)
        s.up(1, 100, 100, at: 60); s.up(2, 130, 100, at: 60); s.up(3, 160, 100, at: 60)
        #expect(describe(decisions([tap(f: 2), swipe(.left, f: 3)], s, on: true))
            == ["10.0: 1 claim", "10.0: 2 claim", "20.0: 3 claim"])
    }

    @Test func claimedTouchesStayClaimedWhenNoGestureMatches() {
        // The cost of the option: a 2-finger rest that is no tap (too long) reaches no application.
        var s = Script()
        s.down(1, 100, 100, at: 0); s.down(2, 130, 100, at: 5)
        s.up(1, 100, 100, at: 600); s.up(2, 130, 100, at: 600)
        #expect(describe(decisions([tap(f: 2)], s, on: true)) == ["5.0: 1 claim", "5.0: 2 claim"])
        #expect(firings(run([tap(f: 2)], s, claimOnSecondFinger: true)).isEmpty)
    }

    @Test func aLateFingerStillGoesToTheApplication() {
        var s = Script()
        s.down(1, 100, 100, at: 0); s.down(2, 130, 100, at: 5)
        s.down(3, 160, 100, at: 200)  // after the settle window: it spoils the group
        s.up(1, 100, 100, at: 250); s.up(2, 130, 100, at: 250); s.up(3, 160, 100, at: 250)
        #expect(describe(decisions([tap(f: 2)], s, on: true)) == ["5.0: 1 claim", "5.0: 2 claim", "200.0: 3 release"])
    }

    @Test func bindingsOfAnotherDeviceOrAppDoNotClaim() {
        var s = Script(app: "mine")
        s.tap(fingers: 2, at: 100, 100, time: 0)
        let triggers = [swipe(f: 2, device: .touchpad), tap(f: 2, app: "other"), tap(f: 3)]
        #expect(describe(decisions(triggers, s, on: true)) == ["50.0: 1 release", "50.0: 2 release"])
    }
}
