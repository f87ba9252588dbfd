import GestureEngine
import GestureTestKit
import Testing

/// docs/interface.md, «Monitors»: a gesture starts on the first listed monitor containing its start (or
/// the nearest), its edge is that monitor's side, bindings may name the monitor.
@Suite("monitors")
struct MonitorTests {
    static let split = [
        Monitor(name: "left", x: 0, y: 0, width: 640, height: 800),
        Monitor(name: "right", x: 640, y: 0, width: 640, height: 800),
    ]

    func script(_ monitors: [Monitor]? = split) -> Script {
        var s = Script()
        if let monitors { s.add(0, .screen(width: 1280, height: 800, monitors: monitors)) }
        return s
    }

    func onMonitor(_ triggers: [Trigger], _ s: Script) -> [String] {
        reports(run(triggers, s)).map { describe($0) + " @" + ($0.monitor ?? "nil") }
    }

    @Test func aSwipeFromTheInnerSideOfTheRightMonitorIsAnEdgeSwipeOfThatMonitor() {
        var s = script()
        s.pointerDrag(from: 641, 400, by: 300, 0, time: 100, duration: 150)
        let t = [Trigger(gesture: .swipe, edge: .left, monitor: "right"), Trigger(gesture: .swipe, edge: .right, monitor: "left")]
        #expect(onMonitor(t, s) == ["swipe recognized right f1 pointer edge=left →0 @right"])
    }

    @Test func theLeftMonitorsRightSideIsAnEdgeToo() {
        var s = script()
        s.pointerDrag(from: 630, 400, by: -300, 0, time: 100, duration: 150)
        let t = [Trigger(gesture: .swipe, edge: .left, monitor: "right"), Trigger(gesture: .swipe, edge: .right, monitor: "left")]
        #expect(onMonitor(t, s) == ["swipe recognized left f1 pointer edge=right →1 @left"])
    }

    @Test func aMonitorBindingMatchesOnlyGesturesStartingOnIt() {
        var s = script()
        s.tap(at: 300, 300, time: 100)
        s.tap(at: 900, 300, time: 1000, firstID: 5)
        let t = [tap(), Trigger(gesture: .tap, monitor: "right")]
        #expect(onMonitor(t, s) == ["tap recognized taps=1 f1 touchscreen →0 @left", "tap recognized taps=1 f1 touchscreen →1 @right"])
    }

    @Test func withoutMonitorsTheWholeScreenIsOneMonitorNamedScreen() {
        var s = Script(screen: (1280, 800))
        s.pointerDrag(from: 641, 400, by: 300, 0, time: 100, duration: 150)
        let t = [swipe(edge: .left), Trigger(gesture: .swipe, monitor: "screen")]
        #expect(onMonitor(t, s) == ["swipe recognized right f1 pointer →1 @screen"])
    }

    @Test func withoutAScreenThereIsNoMonitorAndMonitorBindingsNeverMatch() {
        var s = script(nil)
        s.pointerDrag(from: 641, 400, by: 300, 0, time: 100, duration: 150)
        #expect(onMonitor([Trigger(gesture: .swipe, monitor: "screen"), swipe(.right, f: 1, edge: nil, device: .touchpad), swipe(.left)], s) == ["swipe recognized right f1 pointer @nil"])
    }

    @Test func theFirstListedMonitorThatContainsTheStartWins() {
        let monitors = [Monitor(name: "inner", x: 100, y: 100, width: 200, height: 200), Monitor(name: "outer", x: 0, y: 0, width: 1280, height: 800)]
        var s = script(monitors)
        s.pointerDrag(from: 110, 200, by: 300, 0, time: 100, duration: 150)
        s.pointerDrag(from: 500, 200, by: 300, 0, time: 1000, duration: 150)
        #expect(onMonitor([swipe()], s) == ["swipe recognized right f1 pointer edge=left →0 @inner", "swipe recognized right f1 pointer →0 @outer"])
    }

    @Test func aStartOffEveryMonitorIsOnTheNearestAtItsSide() {
        // A gap between two monitors (x 1000–1100): 1010 is nearer the left one, beyond its right side.
        let monitors = [Monitor(name: "a", x: 0, y: 0, width: 1000, height: 800), Monitor(name: "b", x: 1100, y: 0, width: 180, height: 800)]
        var s = script(monitors)
        s.pointerDrag(from: 1010, 400, by: -300, 0, time: 100, duration: 150)
        s.pointerDrag(from: 1095, 400, by: 150, 0, time: 1000, duration: 100)
        #expect(onMonitor([swipe()], s) == ["swipe recognized left f1 pointer edge=right →0 @a", "swipe recognized right f1 pointer edge=left →0 @b"])
    }

    @Test func specificityIsAppThenEdgeThenMonitorThenDevice() {
        var s = script()
        s.pointerDrag(from: 645, 400, by: 300, 0, time: 100, duration: 150)
        let device = Trigger(gesture: .swipe, device: .pointer)
        let monitor = Trigger(gesture: .swipe, monitor: "right")
        let edge = Trigger(gesture: .swipe, edge: .left)
        #expect(firings(run([device, monitor], s)) == ["swipe recognized right f1 pointer edge=left →1"])
        #expect(firings(run([monitor, edge], s)) == ["swipe recognized right f1 pointer edge=left →1"])
        #expect(Trigger(gesture: .swipe, device: .pointer, monitor: "right").specificity
            < Trigger(gesture: .swipe, edge: .left).specificity)
    }

    @Test func aTouchpadGestureIsOnTheMonitorUnderThePointerAndHasNoEdge() {
        var s = script()
        s.touchpadSwipe(fingers: 3, by: 300, 0, time: 100, duration: 150, at: Point(x: 641, y: 400))
        let t = [Trigger(gesture: .swipe, fingers: 3, monitor: "left"), Trigger(gesture: .swipe, fingers: 3, monitor: "right")]
        #expect(onMonitor(t, s) == ["swipe recognized right f3 touchpad →1 @right"])
    }

    @Test func aMultiTapIsOnTheMonitorOfItsFirstTap() {
        var s = script()
        s.tap(at: 630, 300, time: 100)
        s.tap(at: 650, 300, time: 300, firstID: 5)
        let t = [Trigger(gesture: .tap, taps: 2, monitor: "left"), Trigger(gesture: .tap, taps: 2, monitor: "right")]
        #expect(onMonitor(t, s) == ["tap recognized taps=2 f1 touchscreen →0 @left"])
    }

    @Test func aNewScreenEventReplacesTheMonitors() {
        var s = script()
        s.add(50, .screen(width: 1280, height: 800))
        s.pointerDrag(from: 641, 400, by: 300, 0, time: 100, duration: 150)
        #expect(onMonitor([swipe()], s) == ["swipe recognized right f1 pointer →0 @screen"])
    }
}

/// docs/config.md: `[recognizer.DEVICE]` thresholds apply to that device's gestures only.
@Suite("per-device thresholds")
struct DeviceSettingsTests {
    func run(_ triggers: [Trigger], _ s: Script, _ deviceSettings: [DeviceKind: RecognizerSettings]) -> [String] {
        var engine = Engine(EngineConfiguration(triggers: triggers, deviceSettings: deviceSettings))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        engine.advance(to: Instant(milliseconds: 100_000)) { out.append($0) }
        return lines(out)
    }

    @Test func aTouchpadSwipeDistanceAppliesToTouchpadSwipesOnly() {
        var touchpad = RecognizerSettings()
        touchpad.swipeMinPx = 30
        var s = Script(screen: (1280, 800))
        s.touchpadSwipe(fingers: 3, by: 40, 0, time: 0, duration: 60)
        s.drag(fingers: 3, from: 600, 400, by: 40, 0, time: 1000, duration: 60, lift: 10)
        let t = [swipe(.right, f: 3)]
        #expect(run(t, s, [:]) == [])
        #expect(run(t, s, [.touchpad: touchpad]) == ["swipe recognized right f3 touchpad →0"])
    }

    @Test func aPointerLongPressTimeAppliesToThePointerAndItsTimers() {
        var pointer = RecognizerSettings()
        pointer.longPressMs = 1500
        var s = Script()
        s.press(3, 100, 100, at: 0); s.release(3, 100, 100, at: 1000)
        s.down(1, 300, 300, at: 2000); s.up(1, 300, 300, at: 3000)
        let t = [longPress()]
        #expect(run(t, s, [.pointer: pointer]) == [
            "long-press began f1 touchscreen →0", "long-press ended f1 touchscreen",
        ])
        #expect(run(t, s, [:]).count == 4)
    }

    @Test func theSettingsOfADeviceWithoutItsOwnAreTheCommonOnes() {
        var common = RecognizerSettings()
        common.edgePx = 5
        let c = EngineConfiguration(settings: common, triggers: [], deviceSettings: [.touchpad: RecognizerSettings()])
        #expect(c.settings(for: .pointer) == common)
        #expect(c.settings(for: .touchpad) == RecognizerSettings())
    }
}
