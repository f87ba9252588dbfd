import GestureEngine
import GestureTestKit
import Testing

/// Pointer (trigger-button drags) and touchpad (XI 2.4 gesture events), after libinput's
/// `test/test-gestures.c` and easystroke's button-drag behaviour.
let pointerScenarios: [Scenario] = [
    Scenario("a pointer click is not a gesture", [swipe(.left), longPress()], expected: []) {
        $0.press(3, 100, 100, at: 0); $0.release(3, 100, 100, at: 80)
    },
    Scenario("a fast right-button drag right is a pointer swipe", [swipe(.left, device: .pointer), swipe(.right, device: .pointer)],
             expected: ["swipe recognized right f1 pointer →1"]) {
        $0.pointerDrag(from: 400, 400, by: 300, 0, time: 0, duration: 150)
    },
    Scenario("a right-button hold is a pointer long press", [longPress(device: .pointer)],
             expected: ["long-press began f1 pointer →0", "long-press ended f1 pointer"]) {
        $0.press(3, 100, 100, at: 0); $0.release(3, 100, 100, at: 800)
    },
    Scenario("a slow right-button drag is a pointer pan", [pan()],
             expected: ["pan began f1 pointer →0", "pan changed f1 pointer", "pan changed f1 pointer", "pan ended f1 pointer"]) {
        $0.pointerDrag(from: 400, 400, by: 200, 0, time: 0, duration: 1000, steps: 3)
    },
    Scenario("other buttons are not pointer gestures", [swipe(.right)], expected: []) {
        $0.pointerDrag(1, from: 400, 400, by: 300, 0, time: 0, duration: 150)
    },
    Scenario("button 0 turns pointer gestures off", [swipe(.right)], expected: [], pointerButton: 0) {
        $0.pointerDrag(from: 400, 400, by: 300, 0, time: 0, duration: 150)
    },
    Scenario("a configured trigger button", [swipe(.right)], expected: ["swipe recognized right f1 pointer →0"], pointerButton: 2) {
        $0.pointerDrag(2, from: 400, 400, by: 300, 0, time: 0, duration: 150)
    },
    Scenario("device = touchscreen keeps right-drags out", [swipe(.right, device: .touchscreen)], expected: []) {
        $0.pointerDrag(from: 400, 400, by: 300, 0, time: 0, duration: 150)
    },
    Scenario("a binding without device matches pointer gestures", [swipe(.right)], expected: ["swipe recognized right f1 pointer →0"]) {
        $0.pointerDrag(from: 400, 400, by: 300, 0, time: 0, duration: 150)
    },
    Scenario("a pointer never taps", [tap()], expected: []) {
        $0.press(3, 100, 100, at: 0); $0.release(3, 100, 100, at: 50)
    },
    Scenario("pointer motion without the button is nothing", [swipe(.right)], expected: []) {
        $0.motion(100, 100, at: 0); $0.motion(400, 100, at: 50)
    },
    Scenario("a pointer edge swipe", [swipe(.right, edge: .left, device: .pointer)],
             expected: ["swipe recognized right f1 pointer edge=left →0"], screen: (1280, 800)) {
        $0.pointerDrag(from: 2, 300, by: 300, 0, time: 0, duration: 150)
    },
]

let touchpadScenarios: [Scenario] = [
    Scenario("a touchpad 3-finger swipe left", [swipe(.left, f: 3), swipe(.right, f: 3)], expected: ["swipe recognized left f3 touchpad →0"]) {
        $0.touchpadSwipe(fingers: 3, by: -300, 0, time: 0, duration: 100)
    },
    Scenario("a touchpad 4-finger swipe up", [swipe(.up, f: 4)], expected: ["swipe recognized up f4 touchpad →0"]) {
        $0.touchpadSwipe(fingers: 4, by: 0, -200, time: 0, duration: 100)
    },
    Scenario("a touchpad swipe needs the bound finger count", [swipe(.left, f: 3)], expected: []) {
        $0.touchpadSwipe(fingers: 4, by: -300, 0, time: 0, duration: 100)
    },
    Scenario("a slow touchpad swipe with a pan bound is a pan", [pan(f: 3)],
             expected: ["pan began f3 touchpad →0"] + Array(repeating: "pan changed f3 touchpad", count: 9) + ["pan ended f3 touchpad"]) {
        $0.touchpadSwipe(fingers: 3, by: 0, 150, time: 0, duration: 1000)
    },
    Scenario("a cancelled touchpad pan fires no end binding", [pan(f: 3, on: .end)],
             expected: ["pan began f3 touchpad"] + Array(repeating: "pan changed f3 touchpad", count: 9) + ["pan cancelled f3 touchpad"]) {
        $0.touchpadSwipe(fingers: 3, by: 0, 150, time: 0, duration: 1000, cancelled: true)
    },
    Scenario("a touchpad swipe that fired before a cancel keeps its firing", [swipe(.right, f: 3)],
             expected: ["swipe recognized right f3 touchpad →0"]) {
        $0.touchpadSwipe(fingers: 3, by: 300, 0, time: 0, duration: 100, cancelled: true)
    },
    Scenario("a touchpad pinch in", [pinch(.in), pinch(.out)],
             expected: ["pinch began f2 touchpad →0"] + Array(repeating: "pinch changed f2 touchpad", count: 7) + ["pinch ended in f2 touchpad"]) {
        $0.touchpadPinch(scale: 0.5, time: 0)
    },
    Scenario("a touchpad rotate clockwise", [rotate(.cw)],
             expected: ["rotate began f2 touchpad →0"] + Array(repeating: "rotate changed f2 touchpad", count: 8) + ["rotate ended cw f2 touchpad"]) {
        $0.touchpadPinch(scale: 1, degrees: 90, time: 0)
    },
    Scenario("a touchpad swipe is never a pinch", [pinch()], expected: []) {
        $0.touchpadSwipe(fingers: 2, by: 300, 0, time: 0, duration: 100)
    },
    Scenario("a touchpad pinch is never a swipe", [swipe(.right, f: 2)], expected: []) {
        $0.touchpadPinch(scale: 2, time: 0)
    },
    Scenario("device = touchpad ignores the touchscreen", [swipe(.left, f: 3, device: .touchpad)], expected: []) {
        $0.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 100)
    },
    Scenario("a cancelled touchpad pinch fires no end binding", [pinch(on: .end)],
             expected: ["pinch began f2 touchpad"] + Array(repeating: "pinch changed f2 touchpad", count: 7) + ["pinch cancelled f2 touchpad"]) {
        $0.touchpadPinch(scale: 0.5, time: 0, cancelled: true)
    },
]

@Suite struct DeviceScenarioTests {
    @Test(arguments: pointerScenarios) func pointer(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }
    @Test(arguments: touchpadScenarios) func touchpad(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }

    @Test func aPlainClickIsReleasedForReplayAtItsRelease() {
        var s = Script()
        s.press(3, 100, 100, at: 0); s.release(3, 100, 100, at: 80)
        let out = run([swipe(.left)], s)
        #expect(out == [.pointer(button: 3, .release)])
    }

    @Test func aPressWithNothingBoundForThePointerIsNoGesture() {
        // No binding names the button (docs/interface.md, «Modifier keys and trigger buttons»):
        // live it is not even grabbed, so the engine has nothing to decide.
        var s = Script()
        s.press(3, 100, 100, at: 0)
        var engine = Engine(EngineConfiguration(triggers: [swipe(.left, device: .touchscreen)]))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        #expect(out.isEmpty)
    }

    @Test func aPressOfTheTriggerButtonWithNothingBoundHereIsReleasedAtOnce() {
        var s = Script(app: "xterm")
        s.press(3, 100, 100, at: 0)
        var engine = Engine(EngineConfiguration(triggers: [swipe(.left, device: .pointer, app: "firefox")]))
        var out: [EngineOutput] = []
        for e in s.events { engine.handle(e) { out.append($0) } }
        #expect(out == [.pointer(button: 3, .release)])
    }

    @Test func aPointerSwipeClaimsThePress() {
        var s = Script()
        s.pointerDrag(from: 400, 400, by: 300, 0, time: 0, duration: 150)
        #expect(run([swipe(.right)], s).filter { if case .pointer = $0 { true } else { false } } == [.pointer(button: 3, .claim)])
    }

    @Test func aTouchpadGesturesPositionIsThePointerWhereItBegan() throws {
        var s = Script()
        s.motion(321, 123, at: 0)
        s.touchpadSwipe(fingers: 3, by: 300, 0, time: 10, duration: 100)
        let r = try #require(reports(run([swipe(.right, f: 3)], s)).first)
        #expect(r.position == Point(x: 321, y: 123))
    }
}
