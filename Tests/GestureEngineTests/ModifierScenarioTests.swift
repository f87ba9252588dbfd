import GestureEngine
import GestureTestKit
import Testing

/// Modifier keys and trigger buttons (docs/interface.md, «Modifier keys and trigger buttons»):
/// a gesture's modifiers are those of its first event; a binding's `modifiers` matches exactly
/// that set and comes first in specificity; a pointer binding's `button` is the button whose
/// press starts it, and presses no binding wants are no gesture at all.
let modifierScenarios: [Scenario] = [
    Scenario("Ctrl + 3-finger swipe picks the ctrl binding over the plain one",
             [swipe(.left, f: 3), swipe(.left, f: 3, mods: .ctrl)], expected: ["swipe recognized left f3 touchscreen mods=ctrl →1"]) {
        $0.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 100, mods: .ctrl)
    },
    Scenario("without Ctrl the same swipe picks the plain binding",
             [swipe(.left, f: 3), swipe(.left, f: 3, mods: .ctrl)], expected: ["swipe recognized left f3 touchscreen →0"]) {
        $0.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 100)
    },
    Scenario("a binding without modifiers matches whatever is held",
             [swipe(.left, f: 3)], expected: ["swipe recognized left f3 touchscreen mods=shift+alt →0"]) {
        $0.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 100, mods: [.shift, .alt])
    },
    Scenario("modifiers match exactly: with ctrl+shift held no ctrl binding applies, and the touches go back",
             [swipe(.left, f: 3, mods: .ctrl)], expected: []) {
        $0.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 100, mods: [.ctrl, .shift])
    },
    Scenario("a two-key set matches in any order",
             [swipe(.left, f: 3, mods: [.shift, .ctrl])], expected: ["swipe recognized left f3 touchscreen mods=shift+ctrl →0"]) {
        $0.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 100, mods: [.ctrl, .shift])
    },
    Scenario("the first touch's modifiers count, not the later fingers'",
             [swipe(.left, f: 2), swipe(.left, f: 2, mods: .super)], expected: ["swipe recognized left f2 touchscreen mods=super →1"]) {
        $0.down(1, 600, 400, at: 0, mods: .super)
        $0.down(2, 630, 400, at: 20)
        for k in 1...10 {
            let dx = -30 * Double(k)
            $0.move(1, 600 + dx, 400, at: 20 + Double(k) * 10)
            $0.move(2, 630 + dx, 400, at: 20 + Double(k) * 10)
        }
        $0.up(1, 300, 400, at: 130); $0.up(2, 330, 400, at: 130)
    },
    Scenario("modifiers come before the application in specificity",
             [swipe(.left, f: 3, app: "firefox"), swipe(.left, f: 3, mods: .ctrl)],
             expected: ["swipe recognized left f3 touchscreen mods=ctrl →1"], app: "firefox") {
        $0.drag(fingers: 3, from: 600, 400, by: -300, 0, time: 0, duration: 100, mods: .ctrl)
    },
    Scenario("a Ctrl binding of more fingers makes only Ctrl touches wait for more",
             [tap(), tap(f: 2, mods: .ctrl)], expected: ["tap recognized taps=1 f1 touchscreen →0"]) {
        // Without Ctrl no binding wants two fingers: the tap settles at once, as with one finger bound.
        $0.tap(at: 100, 100, time: 0)
    },
    Scenario("a Ctrl tap and a plain tap are no Ctrl double tap",
             [tap(mods: .ctrl), tap(2, mods: .ctrl), tap()],
             expected: ["tap recognized taps=1 f1 touchscreen mods=ctrl →0", "tap recognized taps=1 f1 touchscreen →2"]) {
        $0.tap(at: 100, 100, time: 0, mods: .ctrl)
        $0.tap(at: 100, 100, time: 150, firstID: 2)
    },
    Scenario("two Ctrl taps are a Ctrl double tap",
             [tap(mods: .ctrl), tap(2, mods: .ctrl)], expected: ["tap recognized taps=2 f1 touchscreen mods=ctrl →1"]) {
        $0.tap(at: 100, 100, time: 0, mods: .ctrl)
        $0.tap(at: 100, 100, time: 150, firstID: 2, mods: .ctrl)
    },
    Scenario("a Ctrl touchpad swipe picks the Ctrl binding",
             [swipe(.left, f: 3), swipe(.left, f: 3, mods: .ctrl)], expected: ["swipe recognized left f3 touchpad mods=ctrl →1"]) {
        $0.touchpadSwipe(fingers: 3, by: -300, 0, time: 0, duration: 100, mods: .ctrl)
    },
    Scenario("a touchpad pinch with Super held picks the Super binding",
             [pinch(.in), pinch(.in, mods: .super)],
             expected: ["pinch began f2 touchpad mods=super →1"] + Array(repeating: "pinch changed f2 touchpad mods=super", count: 7)
                + ["pinch ended in f2 touchpad mods=super"]) {
        $0.touchpadPinch(scale: 0.5, time: 0, mods: .super)
    },
    Scenario("Super + left-drag is a pointer gesture", [swipe(.right, device: .pointer, mods: .super, button: 1)],
             expected: ["swipe recognized right f1 pointer mods=super →0"]) {
        $0.pointerDrag(1, from: 400, 400, by: 300, 0, time: 0, duration: 150, mods: .super)
    },
    Scenario("a plain left drag beside a Super + left binding is no gesture", [swipe(.right, device: .pointer, mods: .super, button: 1)],
             expected: []) {
        $0.pointerDrag(1, from: 400, 400, by: 300, 0, time: 0, duration: 150)
    },
    Scenario("Super + Shift + left-drag is not Super + left-drag", [swipe(.right, device: .pointer, mods: .super, button: 1)],
             expected: []) {
        $0.pointerDrag(1, from: 400, 400, by: 300, 0, time: 0, duration: 150, mods: [.super, .shift])
    },
    Scenario("a Ctrl right drag beside a plain right binding picks the Ctrl one",
             [swipe(.right, device: .pointer), swipe(.right, device: .pointer, mods: .ctrl)],
             expected: ["swipe recognized right f1 pointer mods=ctrl →1"]) {
        $0.pointerDrag(from: 400, 400, by: 300, 0, time: 0, duration: 150, mods: .ctrl)
    },
    Scenario("a plain right drag beside a Ctrl right binding picks the plain one",
             [swipe(.right, device: .pointer), swipe(.right, device: .pointer, mods: .ctrl)],
             expected: ["swipe recognized right f1 pointer →0"]) {
        $0.pointerDrag(from: 400, 400, by: 300, 0, time: 0, duration: 150)
    },
    Scenario("[pointer] button = 0 leaves the bindings that name a button", [swipe(.right), swipe(.right, device: .pointer, button: 2)],
             expected: ["swipe recognized right f1 pointer →1"], pointerButton: 0) {
        $0.pointerDrag(3, from: 400, 400, by: 300, 0, time: 0, duration: 150)
        $0.pointerDrag(2, from: 400, 400, by: 300, 0, time: 500, duration: 150)
    },
    Scenario("each binding's own button starts its gesture", [swipe(.right, device: .pointer, button: 8), swipe(.right, device: .pointer)],
             expected: ["swipe recognized right f1 pointer →0", "swipe recognized right f1 pointer →1"]) {
        $0.pointerDrag(8, from: 400, 400, by: 300, 0, time: 0, duration: 150)
        $0.pointerDrag(3, from: 400, 400, by: 300, 0, time: 500, duration: 150)
    },
    Scenario("a press of another trigger button during a pointer gesture is ignored",
             [swipe(.right, device: .pointer, button: 1), swipe(.down, device: .pointer)],
             expected: ["swipe recognized right f1 pointer →0"]) {
        $0.press(1, 400, 400, at: 0)
        $0.press(3, 400, 400, at: 20)
        for k in 1...10 { $0.motion(400 + 30 * Double(k), 400, at: 20 + Double(k) * 15) }
        $0.release(3, 700, 400, at: 180)
        $0.release(1, 700, 400, at: 190)
    },
]

@Suite struct ModifierScenarioTests {
    @Test(arguments: modifierScenarios) func scenario(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }

    @Test func aPressNoBindingWantsGetsNoDecision() {
        // Live it is never grabbed: the engine must not answer for it either.
        var s = Script()
        s.pointerDrag(1, from: 400, 400, by: 300, 0, time: 0, duration: 150)
        s.press(1, 100, 100, at: 500, mods: [.super, .ctrl]); s.release(1, 100, 100, at: 560)
        let out = run([swipe(.right, device: .pointer, mods: .super, button: 1)], s)
        #expect(out.isEmpty, "\(out)")
    }

    @Test func aPressWhoseModifiersNoBindingOfTheAppWantsIsGivenBack() {
        // Grabbed whatever the application (the grab is global), then given back at once.
        var s = Script(app: "xterm")
        s.press(1, 100, 100, at: 0, mods: .super); s.release(1, 100, 100, at: 60)
        let out = run([Trigger(gesture: .swipe, device: .pointer, app: "firefox", modifiers: .super, button: 1)], s)
        #expect(out == [.pointer(button: 1, .release)])
    }

    @Test func reportsCarryTheModifiersAndThePointersButton() throws {
        var s = Script()
        s.pointerDrag(1, from: 400, 400, by: 300, 0, time: 0, duration: 150, mods: [.super, .shift])
        s.touchpadSwipe(fingers: 3, by: -300, 0, time: 1_000, duration: 100, mods: .ctrl)
        let r = reports(run([swipe(.right, device: .pointer, button: 1), swipe(.left, f: 3)], s))
        #expect(r.map(\.modifiers) == [[.shift, .super], .ctrl])
        #expect(r.map(\.button) == [1, nil])
    }

    @Test func aClaimNamesTheButtonThatWasPressed() {
        var s = Script()
        s.pointerDrag(9, from: 400, 400, by: 300, 0, time: 0, duration: 150, mods: .alt)
        let decisions = run([swipe(.right, device: .pointer, mods: .alt, button: 9)], s).filter { if case .pointer = $0 { true } else { false } }
        #expect(decisions == [.pointer(button: 9, .claim)])
    }

    @Test func aStrokeDrawnWithSuperOnTheLeftButtonFires() {
        var s = Script()
        let points = [Point(x: 100, y: 100), Point(x: 150, y: 200), Point(x: 200, y: 100)]
        s.press(1, 100, 100, at: 0, mods: .super)
        for (k, p) in points.enumerated().dropFirst() { s.motion(p.x, p.y, at: Double(k) * 100) }
        s.release(1, 200, 100, at: 310)
        #expect(firings(run([stroke("v", device: .pointer, mods: .super, button: 1)], s)) == ["stroke recognized v f1 pointer mods=super →0"])
    }

    static let heldAtPress: [(Modifiers, Bool)] = [(.super, true), ([], false), ([.super, .shift], false), (.ctrl, false)]

    @Test(arguments: heldAtPress)
    func pointerPressesStartOnlyWithTheNamedModifiers(_ held: Modifiers, _ starts: Bool) {
        let presses = PointerPresses(triggers: [swipe(.right, device: .pointer, mods: .super, button: 1)], defaultButton: 3)
        #expect(presses.starts(button: 1, modifiers: held) == starts)
        #expect(!presses.starts(button: 3, modifiers: held))
        #expect(presses.buttons.map(\.button) == [1])
        #expect(presses.buttons.first?.modifierSets == [.super])
    }

    @Test func aButtonWithAPlainBindingStartsWithAnyModifiers() {
        let presses = PointerPresses(triggers: [swipe(.right), swipe(.left, device: .pointer, mods: .ctrl), tap(mods: .alt)], defaultButton: 3)
        #expect(presses.buttons.count == 1)
        #expect(presses.buttons[0].anyModifiers)
        for raw in 0..<UInt8(Modifiers.combinations) { #expect(presses.starts(button: 3, modifiers: Modifiers(rawValue: raw))) }
        // A tap is no pointer gesture, and button 0 none at all.
        #expect(PointerPresses(triggers: [tap(mods: .alt)], defaultButton: 3).isEmpty)
        #expect(PointerPresses(triggers: [swipe(.right)], defaultButton: 0).isEmpty)
    }

    @Test func specificityPutsModifiersFirst() {
        let withModifiers = Trigger(gesture: .swipe, modifiers: .ctrl)
        let everythingElse = Trigger(gesture: .swipe, direction: .left, edge: .left, device: .touchscreen, app: "x", monitor: "m")
        #expect(withModifiers.specificity > everythingElse.specificity)
    }
}
