import GestureEngine
import Testing
@testable import X11Backend

@Suite("a press of the trigger button, decided once")
struct TriggerPressTests {
    func press() -> TriggerPress { TriggerPress(button: 3, master: 2, source: 6, position: Point(x: 10, y: 20)) }

    @Test("the first decision counts; a second one is ignored", arguments: [Ownership.claim, .release])
    func decidedOnce(first: Ownership) {
        var p = press()
        #expect(p.decide(first) == (first == .claim ? .claimed : .givenBack))
        #expect(p.decide(first == .claim ? .release : .claim) == nil)
        #expect(p.decision == (first == .claim ? .claimed : .givenBack))
    }

    @Test("a press ends once it is both released and decided, in either order")
    func finishesWhenReleasedAndDecided() {
        var decidedFirst = press()
        _ = decidedFirst.decide(.claim)
        #expect(!decidedFirst.isFinished)
        decidedFirst.released = true
        #expect(decidedFirst.isFinished)

        var releasedFirst = press()
        releasedFirst.released = true
        #expect(!releasedFirst.isFinished, "still frozen: the decision must still thaw the pointer")
        _ = releasedFirst.decide(.release)
        #expect(releasedFirst.isFinished)
    }

    @Test("the engine follows a press until it is given back")
    func feedsEngineUntilGivenBack() {
        var claimed = press()
        #expect(claimed.feedsEngine)
        _ = claimed.decide(.claim)
        #expect(claimed.feedsEngine)
        var given = press()
        _ = given.decide(.release)
        #expect(!given.feedsEngine)
    }

    @Test("a press delivered late takes the first raw release of its device and button at or after it")
    func earlyReleaseBelongsToTheLatePress() {
        func at(_ ms: Double) -> Instant { Instant(milliseconds: ms) }
        var early = EarlyReleases()
        early.note(source: 6, button: 3, time: at(100))  // the release of an earlier press
        early.note(source: 6, button: 1, time: at(510))  // another button
        early.note(source: 7, button: 3, time: at(505))  // another device
        early.note(source: 6, button: 3, time: at(510))
        early.note(source: 6, button: 3, time: at(530))
        #expect(early.take(source: 6, button: 3, pressedAt: at(500)) == at(510))
        #expect(early.take(source: 6, button: 3, pressedAt: at(520)) == at(530))
        #expect(early.take(source: 6, button: 3, pressedAt: at(600)) == nil, "nothing left at or after it")
        #expect(early.releases.map(\.source) == [6, 7], "the other button and the other device stay")
    }

    @Test("early releases are kept up to a bound")
    func earlyReleasesAreBounded() {
        var early = EarlyReleases()
        let noted = EarlyReleases.capacity + 84
        for k in 0..<noted { early.note(source: 6, button: 3, time: Instant(milliseconds: Double(k))) }
        #expect(early.releases.count == EarlyReleases.capacity)
        #expect(early.releases.first?.time == Instant(milliseconds: Double(noted - EarlyReleases.capacity)))
    }

    @Test("relative motion adds up and stays on the screen")
    func relativeMotion() {
        let axes = PointerAxes()
        var p = Point(x: 100, y: 100)
        p = axes.move(p, x: 46.7, y: nil, width: 1280, height: 800)
        #expect(p == Point(x: 146.7, y: 100))
        p = axes.move(p, x: -500, y: 900, width: 1280, height: 800)
        #expect(p == Point(x: 0, y: 799))
    }

    @Test("absolute motion is placed through the axis range, as the server scales it")
    func absoluteMotion() {
        let axes = PointerAxes(absoluteRange: (0...65535, 0...65535))
        let p = axes.move(Point(x: 5, y: 5), x: 32768, y: nil, width: 1280, height: 800)
        #expect(p == Point(x: 640, y: 5))
    }
}
