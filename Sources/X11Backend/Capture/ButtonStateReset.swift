internal import CX11
import Logging

/// Undoes what xorg-server 21.1 leaves behind when a touch grab accepts a pointer-emulating
/// touch after the touch ended (a bound tap is only known once the fingers lifted).
///
/// The server then skips the device-state update of the emulated button 1
/// (`TouchEmitTouchEnd` with a grab listener), so the master pointer keeps button 1 in its
/// touch-class state and in its motion filter: windows that selected only `Button1MotionMask`
/// get plain mouse motion as if a drag were on. No request on the grabbing connection resets
/// that (see docs/design.md). What does, from a **second connection**:
///
/// ```text
/// second: XGrabPointer(root, owner_events false, no events, async)   // swallows the click below
/// second: XTest button 1 press, release; XSync                       // the master's button state
///                                                                     // and motion filter: up
/// main:   XIAllowTouchEvents(accept); XSync                          // the late accept
/// second: XUngrabPointer; XSync                                      // always, on every path
/// ```
///
/// No application sees an event (the active grab takes the XTest click, and passive grabs do
/// not activate under it). What remains until the next emulating touch: `XQueryPointer`, the
/// `state` of core events and XI2 `buttons` still report button 1 (the touch class keeps it;
/// the next touch heals it, because the XTest events switched the master's last slave).
/// Clients that read raw events (`XI_RawButtonPress`) see the XTest click.
///
/// The connection is opened on first use and kept. If it cannot be opened or a step fails,
/// one warning says what the user sees and the accept still happens; if another client holds
/// the pointer grabbed, the reset is skipped (logged at debug).
final class ButtonStateReset {
    /// Touches whose events carry `XITouchEmulatingPointer`: the server emulates the pointer
    /// from them, so only their late accept leaves button 1 down.
    var emulatingTouches: Set<Int> = []
    /// Emulating touches accepted before their end was read, with the serial of the accept
    /// request. The server may have ended the touch before it processed the accept all the
    /// same: the end was queued, unread, behind the update that decided it (the daemon was
    /// stopped or busy), or on its way. The `XI_TouchEnd` tells: an event carries the serial
    /// of the last request the server had processed when it sent it, so an end whose serial is
    /// below the accept's was sent first, and the accept was late (``endedBeforeAccept(_:serial:)``).
    private var acceptedBeforeEndRead: [Int: UInt] = [:]
    /// The second connection; nil until first used, or after it failed.
    private var connection: X11Display?
    /// Opening the connection failed (or it broke): the reset is off for this run.
    private var unavailable = false
    /// The one warning was given.
    private var warned = false

    /// The button whose state the touch leaves down: pointer emulation presses button 1.
    private static let emulatedButton: UInt32 = 1

    /// Runs `accept` (the late `XIAcceptTouch` on the main connection, which must reach the
    /// server before it returns) inside the reset described above, on the second connection to
    /// `displayName`. `accept` runs exactly once, whatever happens to the reset.
    func acceptAfterEnd(displayName: String, logger: Logger, _ accept: () -> Void) {
        let started = ContinuousClock.now
        guard let second = open(displayName, logger: logger) else {
            accept()
            return
        }
        let root = second.root.rawValue
        var grabbed = false, reset = false
        defer {
            if grabbed { ungrab(second, logger: logger) }
            drainEvents(of: second)
            if reset {
                // What the reset adds before the tap's action runs (a plain accept is not waited for).
                let ms = Double((ContinuousClock.now - started) / .microseconds(1)) / 1000
                logger.debug("button 1 state reset after a late touch accept", metadata: ["ms": "\(ms)"])
            }
        }
        do {
            let status = try second.call("XGrabPointer(root)") { handle in
                XGrabPointer(handle, root, 0, 0, GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
            }
            guard status == GrabSuccess else {
                // Another client holds the pointer: its grab would get the click; leave it be.
                logger.debug("button 1 reset skipped: the pointer is grabbed by another client (status \(status))")
                accept()
                return
            }
            grabbed = true
            try second.call("XTest button \(Self.emulatedButton) click", sync: true) { (handle) throws(X11Error) in
                guard XTestFakeButtonEvent(handle, Self.emulatedButton, 1, 0) != 0,
                      XTestFakeButtonEvent(handle, Self.emulatedButton, 0, 0) != 0
                else { throw .missingExtension("XTEST", display: second.name) }
            }
        } catch {
            warn(logger, "\(error)")
            accept()
            return
        }
        accept()
        reset = true
    }

    /// The emulating touch `id` was accepted while, as far as was read, it was down, by the
    /// request of `serial`.
    func accepted(_ id: Int, serial: UInt) {
        acceptedBeforeEndRead[id] = serial
    }

    /// The `XI_TouchEnd` of touch `id`, sent with `serial`: whether it was accepted above and
    /// the server sent the end before it processed that accept — the late accept that leaves
    /// button 1 down, to be reset now (``resetAfterLateAccept(displayName:logger:)``).
    func endedBeforeAccept(_ id: Int, serial: UInt) -> Bool {
        guard let accept = acceptedBeforeEndRead.removeValue(forKey: id) else { return false }
        return serial < accept
    }

    /// Resets button 1 after an accept that turned out late (see ``endedBeforeAccept(_:serial:)``):
    /// the same grabbed XTest click, after the accept instead of around it. The accept skipped
    /// the device-state update altogether, so the click's release still leaves the motion
    /// filter without button 1.
    func resetAfterLateAccept(displayName: String, logger: Logger) {
        acceptAfterEnd(displayName: displayName, logger: logger) {}
    }

    /// Nothing grabbed is pending any more (shutdown, the grab let go).
    func forgetTouches() {
        emulatingTouches = []
        acceptedBeforeEndRead = [:]
    }

    /// The second connection, opened once.
    private func open(_ name: String, logger: Logger) -> X11Display? {
        if let connection, !connection.isConnectionLost { return connection }
        guard !unavailable else { return nil }
        if connection != nil {
            connection = nil
            unavailable = true
            warn(logger, "its second X connection broke")
            return nil
        }
        do {
            connection = try X11Display(name: name)
        } catch {
            unavailable = true
            warn(logger, "cannot open a second X connection: \(error)")
        }
        return connection
    }

    /// Lifts the pointer grab; an error here is logged, never left standing silently.
    private func ungrab(_ second: X11Display, logger: Logger) {
        do {
            try second.call("XUngrabPointer", sync: true) { XUngrabPointer($0, UInt(CurrentTime)) }
        } catch {
            warn(logger, "cannot lift its pointer grab: \(error)")
            // Closing the connection ends every grab it holds.
            connection = nil
            unavailable = true
        }
    }

    /// Events the grab might have queued on the second connection are not read by anyone.
    private func drainEvents(of second: X11Display) {
        while second.nextEvent() != nil {}
    }

    private func warn(_ logger: Logger, _ why: String) {
        guard !warned else { return }
        warned = true
        logger.warning("""
            cannot reset the pointer's button 1 after a bound touch tap (\(why)): until the next \
            touch, applications may take mouse motion for a drag with the left button held \
            (an xorg-server 21.1 limitation, see the README's troubleshooting)
            """)
    }
}
