internal import CX11
import GestureEngine
import Glibc
import Logging

/// Pointer output that waits until a claimed press no longer holds the pointer: the bridge's
/// own clicks and scrolls, the actions after them, and the presses of other buttons the hand
/// made during the press.
///
/// While a claimed press of a trigger button is held, the pointer is the bridge's (the grab
/// that the press activated lasts until every button is up) and the master pointer has the
/// button down for as long as the hand holds it. Nothing injected then can reach an application
/// cleanly (measured on Xvfb, issue 25):
///
/// - with the grab kept, an injected click or scroll comes back to the bridge: no application
///   gets it;
/// - with the grab let go, the injected press gives the window it lands in the implicit grab,
///   which lasts while any button is down, the held trigger button too: that window then gets
///   the rest of the drag as motion with the button's mask (a drag it never saw begin) and the
///   button's release without its press;
/// - a click of the held button itself (`click right` during a right-drag) is no click at all:
///   the server drops a press of a button the master has down already, and keeps the button
///   down on a release while a device still holds it.
///
/// So such output waits in order, and goes out the moment the pointer is free: after the raw
/// release of the trigger button and of every other button pressed during it. A click or a
/// scroll bound to a pointer gesture thus happens when the button is released; the rest of the
/// gesture's actions stay in order behind it. The other buttons' presses and releases (a left
/// click or a wheel step during a claimed right-drag, which the grab takes) are replayed there,
/// each where it was made, and the pointer put back.
///
/// ```text
/// right press ── claimed ── swipe fires `click middle` ── left click ── right released
///                           held: action                  held: 1 ↓ 1 ↑  pointer free:
///                                                                        middle click, then
///                                                                        the left click where made
/// ```
enum HeldPointerOutput {
    /// A press (or release) of `button` the hand made at root `position` during a claimed press.
    case button(Int, pressed: Bool, at: Point)
    /// An action performed once the pointer is free (errors are the closure's to report).
    case action(() -> Void)
}

extension X11InputCapture {
    /// Whether a claimed press holds the pointer: its grab is in place and the trigger button
    /// or another button pressed during it is down. Pointer output waits meanwhile
    /// (``HeldPointerOutput``).
    public var pointerHeldByGesture: Bool {
        if let press = triggerPress, press.decision == .claimed, !press.released, !press.grabLetGo { return true }
        return !buttonsDownDuringClaim.isEmpty
    }

    /// Whether output waits for the pointer to be free.
    public var holdsPointerOutput: Bool { !heldOutput.isEmpty }

    /// Keeps `work` (an action) until the pointer is free, behind what waits already; past
    /// ``heldActionCapacity`` waiting actions it is dropped (logged once per hold).
    public func holdUntilPointerFree(_ work: @escaping () -> Void) {
        guard heldActions < Self.heldActionCapacity else {
            if droppedHeldActions == 0 {
                logger.warning("\(heldActions) actions wait for the pointer to be free: further ones are dropped until it is")
            }
            droppedHeldActions += 1
            return
        }
        heldActions += 1
        heldOutput.append(.action(work))
    }

    /// The most actions kept waiting for the pointer: a pan bound to `scroll` held for minutes
    /// fires thousands; memory must not grow with how long a hand holds a button. (The hand's
    /// own buttons are always kept: a press without its release would leave a button down.)
    static let heldActionCapacity = 4096

    /// Sends what waited for the pointer, in order, once it is free; does nothing while a
    /// claimed press holds it.
    public func sendHeldPointerOutput() {
        guard mode == .grab, !heldOutput.isEmpty, !pointerHeldByGesture else { return }
        let output = heldOutput
        heldOutput.removeAll()
        heldActions = 0
        if droppedHeldActions > 0 {
            logger.notice("the pointer is free: \(droppedHeldActions) actions that found no room were dropped")
            droppedHeldActions = 0
        }
        sendDeferredClaim()
        let hasButtons = output.contains { if case .button = $0 { true } else { false } }
        // The replayed buttons go where the hand made them; the pointer then goes back. It
        // moves only where it must: a motion is an event for the window, a release at the
        // press's place needs none.
        let back = hasButtons ? pointerState()?.position : nil
        var at = back
        var replayed = false
        var down: Set<Int> = []
        func move(to p: Point) {
            guard at != p else { return }
            // A window manager's synchronous grab of a replayed press (openbox's click to
            // focus) holds what follows it until the manager lets it go, and the server then
            // delivers the held events where the pointer is by then: a motion sent at once
            // moved a replayed release 100 px (measured on Xvfb with openbox). So the pointer
            // moves only once the server shows the replayed buttons as they were left.
            if replayed { waitForButtons(down) }
            fakeMotion(to: p)
            at = p
            replayed = false
        }
        for item in output {
            switch item {
            case .action(let perform):
                // Where the gesture left the pointer, not where a replayed button was made.
                if let back { move(to: back) }
                perform()
                // An action may move the pointer (a click after a touch gesture).
                at = nil
            case .button(let button, let pressed, let position):
                move(to: position)
                replay(button: button, pressed: pressed)
                if pressed { down.insert(button) } else { down.remove(button) }
                replayed = true
            }
        }
        // A press whose release was forgotten (the grab was let go for a screen locker) must
        // not stay down.
        for button in down.sorted() { replay(button: button, pressed: false) }
        if let back { move(to: back) }
        display.flush()
    }

    /// A button event a grab delivered, when it is one to give to the application later: a
    /// press made during a claimed press (another button was down, and the grab is the claimed
    /// one, not one this press activates), and the release of such a press. Returns whether it
    /// was kept. Also follows when the claimed press's grab ends: at the release of the last
    /// button down, or when a press with no other button down activates a grab anew.
    func keepButtonDuringClaim(_ type: Int32, _ e: XIDeviceEvent) -> Bool {
        let button = Int(e.detail)
        let others = e.buttons.otherButtonsDown(than: button)
        defer { if !others { forgetButtonsDuringClaim() } }
        switch type {
        case XI_ButtonPress where others && claimedGrab:
            buttonsDownDuringClaim.insert(button)
        case XI_ButtonRelease where buttonsDownDuringClaim.contains(button):
            buttonsDownDuringClaim.remove(button)
        default:
            return false
        }
        logger.debug("button \(button) \(type == XI_ButtonPress ? "pressed" : "released") during a claimed press: replayed once the pointer is free")
        heldOutput.append(.button(button, pressed: type == XI_ButtonPress, at: Point(x: e.root_x, y: e.root_y)))
        return true
    }

    /// Forgets the claimed press's grab and the other buttons held during it (the grab ended,
    /// was let go, or their device vanished): their releases will not come through the grab,
    /// and the pointer must not wait for them.
    func forgetButtonsDuringClaim() {
        claimedGrab = false
        buttonsDownDuringClaim.removeAll()
    }

    /// Forgets the output that waited (shutdown).
    func dropHeldPointerOutput() {
        guard !heldOutput.isEmpty else { return }
        logger.notice("\(heldOutput.count) pointer actions or button events waiting for the pointer are dropped: the bridge stops")
        heldOutput.removeAll()
        heldActions = 0
    }

    /// Presses or releases `button` through XTest, with the button's own grab lifted (it may
    /// be another trigger button) so that the application gets it.
    private func replay(button: Int, pressed: Bool) {
        suspendingButtonGrab(button) {
            _ = try? display.call("XTestFakeButtonEvent(\(pressed ? "press" : "release") \(button))") {
                XTestFakeButtonEvent($0, UInt32(button), pressed ? 1 : 0, 0)
            }
        }
    }

    /// Waits until the pointer's buttons 1–5 (those the core state shows) are `down` and no
    /// other, at most ``replayDeliveryTimeout``.
    private func waitForButtons(_ down: Set<Int>) {
        let masks: [UInt32] = [UInt32(Button1Mask), UInt32(Button2Mask), UInt32(Button3Mask), UInt32(Button4Mask), UInt32(Button5Mask)]
        let all = masks.reduce(0, |)
        let wanted = down.reduce(UInt32(0)) { (1...5).contains($1) ? $0 | masks[$1 - 1] : $0 }
        let deadline = ContinuousClock.now + Self.replayDeliveryTimeout
        while let state = pointerState(), state.modifiers & all != wanted, ContinuousClock.now < deadline {
            usleep(1_000)
        }
    }

    /// The longest wait for a replayed button to be delivered before the pointer moves on: a
    /// window manager lets a synchronous grab go within milliseconds; one that does not is
    /// not waited for longer than the engine waits for a still press.
    static let replayDeliveryTimeout = Duration.milliseconds(250)

    private func fakeMotion(to p: Point) {
        _ = try? display.call("XTestFakeMotionEvent") {
            XTestFakeMotionEvent($0, -1, Int32(p.x.rounded()), Int32(p.y.rounded()), 0)
        }
    }

    /// Lets go of the active grab that a claimed press of the trigger button holds until its
    /// physical release (for a screen locker, shutdown); the press's raw release still ends it
    /// for the engine. Returns the press, or nil when no claimed press is held with its grab.
    @discardableResult
    func letGoOfHeldPress(sync: Bool) throws(X11Error) -> TriggerPress? {
        forgetButtonsDuringClaim()
        guard mode == .grab, let press = triggerPress, press.decision == .claimed, !press.released, !press.grabLetGo else { return nil }
        try display.call("XIUngrabDevice(\(press.master))", sync: sync) { _ = XIUngrabDevice($0, press.master, UInt(CurrentTime)) }
        triggerPress?.grabLetGo = true
        return press
    }
}

extension XIButtonState {
    /// Whether a button other than `button` is down in this state.
    func otherButtonsDown(than button: Int) -> Bool {
        let bytes = UnsafeBufferPointer(start: mask, count: Int(mask_len))
        for (index, byte) in bytes.enumerated() {
            var bits = byte
            if button / 8 == index { bits &= ~UInt8(1 << (button % 8)) }
            // Bit 0 is no button.
            if index == 0 { bits &= ~1 }
            if bits != 0 { return true }
        }
        return false
    }
}
