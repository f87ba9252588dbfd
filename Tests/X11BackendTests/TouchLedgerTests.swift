import GestureEngine
import Testing
@testable import X11Backend

/// Which of a grabbed touch's two ends reports the finger's lift (``TouchLedger``): whatever
/// order the capture reads the `XI_TouchEnd`, the `XI_RawTouchEnd` and the engine's verdict in,
/// the engine hears exactly one lift and nothing of the touch is kept afterwards.
@Suite("a grabbed touch's lift, reported once")
struct TouchLedgerTests {
    enum Step: String, CaseIterable, CustomTestStringConvertible {
        case end, rawEnd = "raw end", verdict
        var testDescription: String { rawValue }
    }

    /// Every order of the three, for each verdict.
    static let orders: [[Step]] = {
        let all = Step.allCases
        return all.flatMap { a in all.filter { $0 != a }.flatMap { b in all.filter { $0 != a && $0 != b }.map { [a, b, $0] } } }
    }()

    @Test("one lift reported and nothing kept, in any order", arguments: orders, [Ownership.claim, .release])
    func oneLift(order: [Step], verdict: Ownership) {
        var ledger = TouchLedger()
        ledger.began(7, device: 2)
        var lifts = 0
        var allowed: (device: Int32, ended: Bool)?
        for step in order {
            switch step {
            case .end: if ledger.ended(7) { lifts += 1 }
            case .rawEnd: if ledger.rawEnded(7) { lifts += 1 }
            case .verdict: allowed = ledger.decide(7, verdict)
            }
        }
        #expect(lifts == 1, "\(order) \(verdict)")
        #expect(allowed?.device == 2)
        #expect(allowed?.ended == (order.firstIndex(of: .end)! < order.firstIndex(of: .verdict)!))
        #expect(ledger.isEmpty, "\(order) \(verdict)")
    }

    /// The live failure: the raw end read, an engine timer gives the touch back, then the
    /// `XI_TouchEnd` read. Reporting neither left the engine holding a finger that had lifted.
    @Test("a touch given back between its raw end and its end is lifted by the end")
    func givenBackBetweenEnds() {
        var ledger = TouchLedger()
        ledger.began(3, device: 2)
        let raw = ledger.rawEnded(3)
        let verdict = ledger.decide(3, .release)
        let end = ledger.ended(3)
        #expect(!raw && verdict?.ended == false && end)
        #expect(ledger.isEmpty)
    }

    @Test("a touch given back while down: the server's end is not the lift, the raw end is")
    func givenBackWhileDown() {
        var ledger = TouchLedger()
        ledger.began(4, device: 2)
        _ = ledger.decide(4, .release)
        let end = ledger.ended(4)
        let raw = ledger.rawEnded(4)
        #expect(!end, "the end the server sends at once for a rejected touch")
        #expect(raw)
        #expect(ledger.isEmpty)
    }

    @Test("shutdown hands over the undecided touches, ended or not, and forgets everything")
    func takeUndecided() {
        var ledger = TouchLedger()
        ledger.began(1, device: 2)
        ledger.began(2, device: 3)
        ledger.began(3, device: 2)
        _ = ledger.decide(1, .claim)
        _ = ledger.ended(3)
        let undecided = ledger.takeUndecided().sorted { $0.id < $1.id }
        #expect(undecided.map(\.id) == [2, 3] && undecided.map(\.device) == [3, 2])
        #expect(ledger.isEmpty)
        let late = ledger.decide(2, .release)
        #expect(late == nil, "forgotten")
    }

    @Test("events of touches never grabbed report nothing")
    func unknown() {
        var ledger = TouchLedger()
        #expect(!ledger.knows(9))
        let raw = ledger.rawEnded(9)
        let verdict = ledger.decide(9, .claim)
        #expect(!raw && verdict == nil)
        #expect(ledger.isEmpty)
    }
}
