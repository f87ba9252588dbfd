import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// Records what the pipeline arms after each step.
private final class RecordingArming: KeyArming {
    var arms: [KeyArm?] = []
    func arm(_ arm: KeyArm?) { arms.append(arm) }
}

private let config = try! Config.parse("""
    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "right"
    action = ["key ctrl+F5", "workspace next"]

    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "left"
    action = "workspace prev"

    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "up"
    action = "key Up"
    """, file: "test.toml")

/// What the pipeline tells its arming after each event of a right-button press at (500, 400).
private func arms(performer: (any ActionPerformer)?, lock: ScreenLock? = nil) -> (arming: RecordingArming, pipeline: Pipeline) {
    let arming = RecordingArming()
    let pipeline = Pipeline(config: config, performer: performer, arbiter: nil) { _ in }
    pipeline.keyArming = arming
    pipeline.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800)))
    if let lock { pipeline.setScreenLock(lock, at: Instant(milliseconds: 1)) }
    pipeline.handle(InputEvent(time: Instant(milliseconds: 10), .buttonPress(button: 3, at: Point(x: 500, y: 400))))
    return (arming, pipeline)
}

@Suite struct KeyArmTests {
    @Test func aPressArmsTheBindingsThatBeginWithAKey() throws {
        let performer = RecordingPerformer()
        let (arming, pipeline) = arms(performer: performer)
        let arm = try #require(arming.arms.last ?? nil)
        // Right begins with ctrl+F5, up is Up; left is a workspace action.
        #expect(Set(arm.swipe.triggers) == [0, 2])
        #expect(arm.keys[0]?.description == "Control_L+F5")
        #expect(arm.swipe.firing(motionTo: Point(x: 600, y: 400), at: Instant(milliseconds: 40)) == 0)
        #expect(arm.swipe.firing(motionTo: Point(x: 400, y: 400), at: Instant(milliseconds: 40)) == nil)
        #expect(arm.swipe.firing(motionTo: Point(x: 500, y: 300), at: Instant(milliseconds: 40)) == 2)
        // The motion that completes it: the binding fires as ever, and nothing is armed after.
        pipeline.handle(InputEvent(time: Instant(milliseconds: 40), .motion(at: Point(x: 600, y: 400))))
        #expect(performer.performed.map(\.0.description) == ["key Control_L+F5", "workspace next"])
        #expect(arming.arms.count == 2)
        #expect(arming.arms.last.map { $0 == nil } == true)
    }

    @Test func nothingIsArmedWithoutAPerformerOrWhileLocked() {
        #expect(arms(performer: nil).arming.arms.isEmpty)
        let locked = arms(performer: RecordingPerformer(), lock: .screenSaver)
        #expect(locked.arming.arms.allSatisfy { $0 == nil })
    }

    @Test func aReloadDisarms() {
        let (arming, pipeline) = arms(performer: RecordingPerformer())
        #expect(arming.arms.last.map { $0 != nil } == true)
        pipeline.reload(config, at: Instant(milliseconds: 20))
        #expect(arming.arms.last.map { $0 == nil } == true)
    }
}
