internal import CX11
import BridgeCore
import GestureConfig
import GestureEngine

extension X11ActionPerformer {
    /// Clicks `button`; after a touchscreen or touchpad gesture the pointer first moves to the
    /// gesture's position (so a long press opens the menu under the finger).
    func click(button: Int, context: ActionContext) throws(X11Error) {
        guard (1...255).contains(button) else { throw refuse("there is no X button \(button) (buttons are 1 to 255)") }
        switch context.device {
        case .touchscreen, .touchpad:
            try movePointer(to: (Int32(context.position.x.rounded()), Int32(context.position.y.rounded())))
        case .pointer:
            break
        }
        try pressButton(button)
        try releaseButton(button)
    }

    /// Clicks the scroll button for `direction` `steps` times.
    func scroll(_ direction: ScrollDirection, steps: Int) throws(X11Error) {
        for _ in 0..<max(steps, 0) {
            try pressButton(direction.button)
            try releaseButton(direction.button)
        }
    }

    /// Moves the pointer to root coordinates through XTest.
    func movePointer(to position: (x: Int32, y: Int32)) throws(X11Error) {
        // Screen -1: the screen the pointer is on.
        try display.call("XTestFakeMotionEvent") { XTestFakeMotionEvent($0, -1, position.x, position.y, 0) }
    }

    /// Presses a button through XTest and writes it down as held.
    func pressButton(_ button: Int) throws(X11Error) {
        try display.call("XTestFakeButtonEvent(press \(button))") { XTestFakeButtonEvent($0, UInt32(button), 1, 0) }
        held.buttons.append(button)
    }

    /// Releases a button through XTest.
    func releaseButton(_ button: Int) throws(X11Error) {
        try display.call("XTestFakeButtonEvent(release \(button))") { XTestFakeButtonEvent($0, UInt32(button), 0, 0) }
        if let index = held.buttons.lastIndex(of: button) { held.buttons.remove(at: index) }
    }

    /// Presses a button and leaves it held (for tests of ``releaseEverything()``).
    func hold(button: Int) throws(X11Error) {
        try pressButton(button)
        display.flush()
    }
}
