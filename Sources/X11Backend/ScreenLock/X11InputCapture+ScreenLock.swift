internal import CX11
import Logging

extension X11InputCapture {
    /// Lets go of the active grab that a claimed press of the trigger button holds (a long
    /// press that ran `exec i3lock` is still held when the locker starts), so that a screen
    /// locker can grab the pointer: lockers try for about a second, then give up and leave the
    /// screen unlocked. The press's raw release still ends it for the engine.
    public func yieldClaimedPress() {
        do {
            if let press = try letGoOfHeldPress(sync: true) {
                logger.debug("the screen locked: the held press of button \(press.button) is no longer grabbed")
            }
        } catch {
            logger.warning("the screen locked, but the held press\(triggerPress.map { " of button \($0.button)" } ?? "") could not be let go: \(error)")
        }
    }
}
