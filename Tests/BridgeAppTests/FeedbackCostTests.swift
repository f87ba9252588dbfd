import BridgeApp
import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// What the on-screen feedback may not cost (docs/performance.md, «Feedback»): a gesture's
/// action goes out before anything is drawn, and an idle run is not woken for it.
@Suite("the on-screen feedback's cost")
struct FeedbackCostTests {
    /// A right-drag swipe types F12 (the latency benchmark's binding), the trail drawn for it.
    static let config = try! Config.parse("""
        [feedback]
        trail = true
        osd = true

        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = "key F12"
        """, file: "c.toml")

    @Test("in the turn that fires, the action goes out while nothing is drawn; the trail goes and the OSD comes after it, when the turn ends")
    func theActionGoesOutBeforeAnythingIsDrawn() throws {
        let canvas = RecordingCanvas()
        let performer = RecordingPerformer()
        let observer = FeedbackObserver(canvas: canvas, config: { Self.config }, isLocked: { false })
        let run = PipelineRun(recognizing: Self.config, performer: performer, observers: [observer])
        run.started()
        // The benchmark's drag: 20 px steps 3 ms apart; the 4th crosses the swipe's distance.
        var s = Script()
        s.press(3, 200, 300, at: 0)
        for k in 1...5 { s.motion(200 + 20 * Double(k), 300, at: 3 + 3 * Double(k)) }
        s.release(3, 300, 300, at: 30)
        var firing: (drawnBefore: Int, drawnDuring: Int)? = nil
        for event in s.events {
            let (actions, drawn) = (performer.performed.count, canvas.calls.count)
            run.feed(event)
            if performer.performed.count > actions {
                firing = (drawn, canvas.calls.count - drawn)
                let sinceFiring = canvas.calls.count
                run.turnEnded()
                let after = Array(canvas.calls[sinceFiring...])
                #expect(after.first == .endTrail(.pointer), "the trail goes first, when the turn ends: \(after)")
                #expect(after.contains { if case .osd(let text, _) = $0 { text == "swipe right → key F12" } else { false } } || observer.nextDeadline != nil,
                        "the OSD at once or at the next frame: \(after)")
            } else {
                run.turnEnded()
            }
        }
        let fired = try #require(firing, "the swipe fired: \(performer.performed)")
        #expect(performer.performed.map(\.0.description) == ["key F12"])
        #expect(fired.drawnBefore > 0, "the trail was drawn before the swipe was decided: \(canvas.calls)")
        #expect(fired.drawnDuring == 0, "nothing drawn between the input and its action: \(canvas.calls)")
    }
}
