import CX11
import GestureConfig
import Testing
@testable import X11Backend

@Suite("pointer output held while a claimed press holds the pointer")
struct HeldPointerOutputTests {
    /// An XI2 button state with `buttons` down (bit N: button N; bit 0 is no button).
    func state(_ buttons: [Int], _ body: (XIButtonState) -> Void) {
        var bytes = [UInt8](repeating: 0, count: 4)
        for b in buttons { bytes[b / 8] |= UInt8(1 << (b % 8)) }
        bytes.withUnsafeMutableBufferPointer { buffer in
            body(XIButtonState(mask_len: Int32(buffer.count), mask: buffer.baseAddress))
        }
    }

    @Test("a press with another button down is one made during a grab; alone, it activates one", arguments: [
        ([3], 3, false), ([], 3, false), ([3, 1], 1, true), ([1], 3, true), ([3, 9], 4, true), ([0], 3, false), ([4, 12], 12, true),
    ])
    func otherButtonsDown(down: [Int], button: Int, expected: Bool) {
        state(down) { #expect($0.otherButtonsDown(than: button) == expected) }
    }

    @Test("clicks and scrolls inject pointer input; keys, window actions and programs do not", arguments: [
        (Action.click(button: 3), true), (.scroll(.down, steps: 2), true),
        (.workspace(.next), false), (.exec(argv: ["true"]), false),
    ])
    func pointerActions(action: Action, injects: Bool) {
        #expect(action.injectsPointerInput == injects)
    }
}
