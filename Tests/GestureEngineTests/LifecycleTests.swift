@testable import GestureEngine
import GestureTestKit
import Testing

/// The gesture group's lifecycle as `GroupLifecycle.swift` draws it: the transitions it allows,
/// the ones it reports as bugs, and the resolver that rejects the losers.
@Suite struct LifecycleTests {
    static let allowed: Set<String> = [
        "idle→settling", "settling→open", "open→lifting", "open→finished", "lifting→finished",
        "settling→idle", "open→idle", "lifting→idle", "finished→idle",
    ]
    static let phases: [GroupPhase] = [.idle, .settling, .open, .lifting, .finished]

    @Test(arguments: phases, phases)
    func onlyTheDrawnTransitionsAreAllowed(from: GroupPhase, to: GroupPhase) {
        #expect(from.canMove(to: to) == Self.allowed.contains("\(from)→\(to)"))
    }

    /// A group driven directly, collecting what it says.
    struct Harness {
        var group = GestureGroup(device: .touchscreen)
        var outputs: [GroupOutput] = []
        let recognition: Recognition

        init(_ triggers: [Trigger]) {
            recognition = Recognition(EngineConfiguration(triggers: triggers))
            group.trapsOnBug = false
        }

        var bugs: [String] {
            outputs.compactMap { if case .engine(.bug(let b)) = $0 { b.message } else { nil } }
        }

        mutating func open(fingers: Int = 1, at t: Double = 0) {
            var out: [GroupOutput] = []
            group.begin(at: Instant(milliseconds: t), app: FocusedApp(), modifiers: []) { out.append($0) }
            for id in 1...fingers { group.addTouch(id) }
            group.settle(at: Instant(milliseconds: t), fingers: fingers, startCentroid: Point(x: 500, y: 400),
                         screen: ScreenLayout(width: 1280, height: 800), evaluateNow: false, recognition) { out.append($0) }
            outputs += out
        }
    }

    @Test func aLiftOfAnIdleGroupIsReportedNotIgnored() {
        var h = Harness([tap()])
        var out: [GroupOutput] = []
        h.group.beginLifting(at: Instant(milliseconds: 5)) { out.append($0) }
        h.outputs = out
        #expect(h.bugs == ["lift (phase idle, input undecided)"])
        #expect(h.group.phase == .idle)
    }

    @Test func settlingTwiceIsReportedAndChangesNothing() {
        var h = Harness([tap(), swipe(.left)])
        h.open()
        var out: [GroupOutput] = []
        h.group.settle(at: Instant(milliseconds: 1), fingers: 3, startCentroid: .zero, screen: nil, h.recognition) { out.append($0) }
        h.outputs = out
        #expect(h.bugs == ["settle: open → open is not a transition (phase open, input undecided)"])
        #expect(h.group.fingers == 1)
    }

    @Test func aSecondReleaseOfReleasedInputIsReported() {
        var h = Harness([swipe(.left)])
        h.open()
        var out: [GroupOutput] = []
        h.group.decide(.release, at: Instant(milliseconds: 1)) { out.append($0) }
        h.group.decide(.release, at: Instant(milliseconds: 2)) { out.append($0) }
        h.outputs = out
        #expect(out.filter { if case .engine(.touch(id: 1, .release)) = $0 { true } else { false } }.count == 1)
        #expect(h.bugs == ["release of input already released (phase open, input released)"])
    }

    @Test func aBugIsAnEngineOutputForTheVerboseLog() {
        let bug = EngineBug(time: Instant(milliseconds: 3), device: .pointer, message: "lift (phase idle, input undecided)")
        #expect(bug.description == "engine bug (please report it): pointer gesture group: lift (phase idle, input undecided)")
    }

    @Test func thePinchWinnerKeepsRotateAndRejectsTheRest() {
        var h = Harness([tap(f: 2), longPress(f: 2), swipe(.left, f: 2), pan(f: 2), pinch(), rotate()])
        h.open(fingers: 2)
        // Every recognizer but the stroke's, which is one finger's path.
        for kind in GestureKind.allCases where kind != .stroke { #expect(h.group.recognizers[kind] == .possible) }
        var out: [GroupOutput] = []
        h.group.resolve(inFavorOf: .pinch, at: Instant(milliseconds: 1)) { out.append($0) }
        #expect(h.group.recognizers[.pinch] == .possible, "the winner itself is not rejected")
        #expect(h.group.recognizers[.rotate] == .possible, "pinch and rotate run together")
        for kind in [GestureKind.tap, .longPress, .swipe, .pan] { #expect(h.group.recognizers[kind] == .failed) }
        // The tap's fall is told to the source, for a multi-tap that waits for this group.
        #expect(out.contains { if case .tapFailed = $0 { true } else { false } })
    }

    @Test(arguments: [GestureKind.tap, .longPress, .swipe, .pan])
    func anyOtherWinnerRejectsEveryOtherRecognizer(winner: GestureKind) {
        var h = Harness([tap(f: 2), longPress(f: 2), swipe(.left, f: 2), pan(f: 2), pinch(), rotate()])
        h.open(fingers: 2)
        var out: [GroupOutput] = []
        h.group.resolve(inFavorOf: winner, at: Instant(milliseconds: 1)) { out.append($0) }
        for kind in GestureKind.allCases {
            #expect(h.group.recognizers[kind] == (kind == winner ? .possible : .failed), "\(kind)")
        }
    }

    @Test func nobodyWinningRejectsEverything() {
        var h = Harness([tap(), longPress(), swipe(.left), pan()])
        h.open()
        var out: [GroupOutput] = []
        h.group.resolve(inFavorOf: nil, at: Instant(milliseconds: 1)) { out.append($0) }
        #expect(!h.group.recognizers.anyPossible)
    }

    @Test func aTapHandsItsTouchesToTheMultiTapSequence() {
        var h = Harness([tap(f: 2), tap(2, f: 2)])
        h.open(fingers: 2)
        var out: [GroupOutput] = []
        h.group.beginLifting(at: Instant(milliseconds: 40)) { out.append($0) }
        h.group.end(at: Instant(milliseconds: 50), cancelled: false, h.recognition) { out.append($0) }
        #expect(h.group.phase == .idle)
        #expect(h.group.decision == .handedToTaps)
        guard case .tapCompleted(let tap)? = out.first(where: { if case .tapCompleted = $0 { true } else { false } }) else {
            Issue.record("no tap completed: \(out)")
            return
        }
        #expect(tap.touches == [1, 2])
        #expect(tap.maxTaps == 2)
        // No touch decision from the group itself: the sequence decides them.
        #expect(!out.contains { if case .engine(.touch) = $0 { true } else { false } })
    }
}
