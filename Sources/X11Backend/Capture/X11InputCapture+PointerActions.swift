internal import CX11
import Logging

extension X11InputCapture {
    /// Runs `body` — an injection of pointer input (a click, a scroll) — so that what it injects
    /// reaches the applications, also in the middle of a press of the trigger button that a
    /// gesture claimed.
    ///
    /// A claimed press keeps its grab until the physical release, and that active grab takes
    /// every event of the master pointer, the XTest device's included: a click or a scroll
    /// injected during the press (a right-drag bound to `scroll down`, a right-button hold bound
    /// to `click middle`) came back to the bridge and reached no application. So the grab is
    /// let go first (the press's raw events still end it for the engine). It cannot be taken
    /// back: the injected press gives the window it lands in the implicit grab, which lasts
    /// while any button is down — the held trigger button too. The rest of the press (its
    /// motion and its release, never its press) then goes to that window; applications ignore
    /// a release without its press.
    public func lettingPointerInputThrough<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        sendDeferredClaim()
        do {
            if let press = try letGoOfHeldPress(sync: false) {
                logger.debug("the held press of button \(press.button) is let go for an injected click or scroll")
            }
        } catch {
            logger.warning("the held press\(triggerPress.map { " of button \($0.button)" } ?? "") could not be let go for an injected click or scroll: \(error)")
        }
        return try body()
    }

    /// Lets go of the active grab that a claimed press of the trigger button holds until its
    /// physical release (for a screen locker, an injected click, shutdown); the press's raw
    /// release still ends it for the engine. Returns the press, or nil when no claimed press is
    /// held with its grab.
    @discardableResult
    func letGoOfHeldPress(sync: Bool) throws(X11Error) -> TriggerPress? {
        guard mode == .grab, let press = triggerPress, press.decision == .claimed, !press.released, !press.grabLetGo else { return nil }
        try display.call("XIUngrabDevice(\(press.master))", sync: sync) { _ = XIUngrabDevice($0, press.master, UInt(CurrentTime)) }
        triggerPress?.grabLetGo = true
        return press
    }
}
