import GestureEngine
import GestureTestKit
import Testing

/// Specificity, per-app bindings, finger settling and input ownership.
let specificityScenarios: [Scenario] = [
    Scenario("an app binding beats an app-less one for that app", [swipe(.left), swipe(.left, app: "firefox")],
             expected: ["swipe recognized left f1 touchscreen →1"], app: "firefox") {
        $0.drag(from: 400, 400, by: -200, 0, time: 0, duration: 100)
    },
    Scenario("an app binding is ignored for other apps", [swipe(.left), swipe(.left, app: "firefox")],
             expected: ["swipe recognized left f1 touchscreen →0"], app: "xterm") {
        $0.drag(from: 400, 400, by: -200, 0, time: 0, duration: 100)
    },
    Scenario("app matching ignores case", [swipe(.left, app: "Firefox")], expected: ["swipe recognized left f1 touchscreen →0"], app: "FIREFOX") {
        $0.drag(from: 400, 400, by: -200, 0, time: 0, duration: 100)
    },
    Scenario("an app binding beats an edge binding", [swipe(.right, edge: .left), swipe(.right, app: "gimp")],
             expected: ["swipe recognized right f1 touchscreen edge=left →1"], screen: (1280, 800), app: "gimp") {
        $0.drag(from: 5, 400, by: 200, 0, time: 0, duration: 100)
    },
    Scenario("an edge binding beats a device binding", [swipe(.right, device: .touchscreen), swipe(.right, edge: .left)],
             expected: ["swipe recognized right f1 touchscreen edge=left →1"], screen: (1280, 800)) {
        $0.drag(from: 5, 400, by: 200, 0, time: 0, duration: 100)
    },
    Scenario("a named device beats any", [swipe(.right), swipe(.right, device: .touchscreen)],
             expected: ["swipe recognized right f1 touchscreen →1"]) {
        $0.drag(from: 400, 400, by: 200, 0, time: 0, duration: 100)
    },
    Scenario("app matching ignores case beyond ASCII too", [swipe(.left, app: "Éditeur")],
             expected: ["swipe recognized left f1 touchscreen →0"], app: "ÉDITEUR") {
        $0.drag(from: 400, 400, by: -200, 0, time: 0, duration: 100)
    },
    Scenario("a longer app name matches without regard to case", [swipe(.left, app: "libreoffice-writer")],
             expected: ["swipe recognized left f1 touchscreen →0"], app: "LibreOffice-Writer") {
        $0.drag(from: 400, 400, by: -200, 0, time: 0, duration: 100)
    },
    Scenario("an app binding matches the WM_CLASS class too", [swipe(.left), swipe(.left, app: "Firefox")],
             expected: ["swipe recognized left f1 touchscreen →1"]) {
        $0.add(0, .focus(app: "navigator", appClass: "Firefox"))
        $0.drag(from: 400, 400, by: -200, 0, time: 0, duration: 100)
    },
    Scenario("a focus change switches the bindings in force", [tap(app: "a"), tap(2, app: "b")],
             expected: ["tap recognized taps=1 f1 touchscreen →0", "tap recognized taps=2 f1 touchscreen →1"]) {
        $0.add(0, .focus(app: "a")); $0.tap(at: 100, 100, time: 0)
        $0.add(500, .focus(app: "b")); $0.tap(at: 100, 100, time: 600); $0.tap(at: 100, 100, time: 800)
    },
    Scenario("a single tap only waits for a double tap bound in the same app", [tap(), tap(2, app: "other")],
             expected: ["tap recognized taps=1 f1 touchscreen →0"], app: "mine") {
        $0.tap(at: 100, 100, time: 0)
    },
]

@Suite struct ArbitrationTests {
    @Test(arguments: specificityScenarios) func specificity(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }

    @Test func aSingleTapWithoutAMultiTapInItsAppFiresAtRelease() throws {
        var s = Script(app: "mine")
        s.tap(at: 100, 100, time: 0)
        let r = try #require(reports(run([tap(), tap(2, app: "other")], s)).first)
        #expect(r.time == Instant(milliseconds: 50))
    }

    @Test func oneFingerNeverWaitsForFingersNoBindingAsksFor() {
        var s = Script()
        s.down(1, 100, 100, at: 0)
        var engine = Engine(EngineConfiguration(triggers: [tap(f: 1), swipe(.left, f: 3, device: .touchpad)]))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        // Settled at once: the only deadline is the tap's, not the settle window's.
        #expect(engine.nextDeadline == Instant(milliseconds: 300))
    }

    @Test func fingersWaitForTheSettleWindowWhenMoreAreBound() {
        var s = Script()
        s.down(1, 100, 100, at: 0)
        var engine = Engine(EngineConfiguration(triggers: [tap(f: 1), swipe(.left, f: 3)]))
        for e in s.events { engine.handle(e) { _ in } }
        #expect(engine.nextDeadline == Instant(milliseconds: 100))
    }

    @Test func aTouchWithNothingBoundForAnyCountIsReleasedAtOnce() {
        var s = Script()
        s.down(1, 100, 100, at: 0)
        var engine = Engine(EngineConfiguration(triggers: [swipe(.left, f: 3, device: .touchpad)]))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        #expect(out == [.touch(id: 1, .release)])
    }

    @Test func aTouchIsReleasedWhenTheSettleWindowClosesOnAnUnboundCount() {
        var s = Script()
        s.down(1, 100, 100, at: 0)
        var engine = Engine(EngineConfiguration(triggers: [swipe(.left, f: 3)]))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        #expect(out.isEmpty)
        engine.advance(to: Instant(milliseconds: 100)) { out.append($0) }
        #expect(out == [.touch(id: 1, .release)])
    }

    @Test func aTapOnlyTouchIsReleasedTheMomentItMovesPastSlop() {
        var s = Script()
        s.down(1, 100, 100, at: 0); s.move(1, 105, 100, at: 10); s.move(1, 115, 100, at: 20)
        var engine = Engine(EngineConfiguration(triggers: [tap()]))
        var out: [(Double, EngineOutput)] = []
        for e in s.events { engine.handle(e) { out.append((e.time.milliseconds, $0)) } }
        #expect(out.count == 1)
        #expect(out.first?.0 == 20 && out.first?.1 == .touch(id: 1, .release))
    }

    @Test func aClaimedSwipeClaimsAllItsTouches() {
        var s = Script()
        s.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 100)
        #expect(touchDecisions(run([swipe(.left, f: 3)], s)) == [1: [.claim], 2: [.claim], 3: [.claim]])
    }

    @Test func aSwipeInAnUnboundDirectionReleasesItsTouches() {
        var s = Script()
        s.drag(fingers: 3, from: 300, 400, by: 300, 0, time: 0, duration: 100)
        #expect(touchDecisions(run([swipe(.left, f: 3)], s)) == [1: [.release], 2: [.release], 3: [.release]])
    }

    @Test func aLateFingerOnAClaimedGestureGoesToTheApplication() {
        var s = Script()
        s.down(1, 100, 100, at: 0)
        s.down(2, 300, 100, at: 700)  // the long press began at 500 and claimed touch 1
        s.up(1, 100, 100, at: 800); s.up(2, 300, 100, at: 800)
        #expect(touchDecisions(run([longPress()], s)) == [1: [.claim], 2: [.release]])
    }

    @Test func eventsOfReleasedTouchesAreIgnored() {
        var s = Script()
        s.down(1, 100, 100, at: 0); s.move(1, 200, 100, at: 50)   // released: moved with only taps bound
        s.up(1, 200, 100, at: 60)
        s.tap(at: 500, 500, time: 100, firstID: 2)
        #expect(lines(run([tap()], s)) == ["tap recognized taps=1 f1 touchscreen →0"])
    }

    @Test func abandoningReleasesUndecidedInputAndCancelsRunningGestures() {
        var s = Script()
        s.down(1, 100, 100, at: 0)
        s.press(3, 500, 500, at: 0)
        var engine = Engine(EngineConfiguration(triggers: [longPress()]))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        engine.advance(to: Instant(milliseconds: 600)) { out.append($0) }
        out.removeAll()
        engine.abandonAll(at: Instant(milliseconds: 700)) { out.append($0) }
        #expect(lines(out) == ["long-press cancelled f1 touchscreen", "long-press cancelled f1 pointer"])
    }
}
