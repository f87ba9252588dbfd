internal import CX11
import Logging

// `key` actions while the user holds modifier keys (docs/config.md, «Modifier keys and trigger
// buttons»): a Super + drag bound to `key ctrl+c` must reach the application as Ctrl+C.
//
// XTest injects into the server's XTest keyboard, a slave of the same master keyboard as the
// user's. The master's state is what applications see: a key is down on the master from the
// press of any of its slaves until the release of any of them. So (measured on Xorg 21.1 with an
// inputtest keyboard holding Super):
//
//   - an XTest press of a key the user holds changes nothing the application sees (the master
//     has it down already), and the XTest release after it lets it go on the master: the
//     application sees Super released while the finger is still on it — the way to lift it;
//   - an XTest press puts it back down on the master, and the XTest keyboard then holds a copy;
//   - when the user lets go, the master lets go (the application sees it), and an XTest release
//     of the copy afterwards changes nothing the application sees;
//   - until that copy is released, an XTest press of the key would change nothing.
//
// Today's injection pressed and released Ctrl over a Ctrl the user held (the application saw it
// released under the finger) and added its keys to the user's Super or Alt.

extension X11ActionPerformer {
    /// Runs `body` with the modifier keys the user holds lifted — all but those whose modifier
    /// bits `wanted` has (a combo's Ctrl stays the user's Ctrl) — and puts them back after,
    /// also when `body` throws. `body` gets the bits of the keys kept.
    ///
    /// The user's keys are the master keyboard's keys down (`XQueryKeymap`, the one round trip
    /// of this path) that are modifiers other than the locks and that this performer does not
    /// hold itself. A key put back is *borrowed* until the user lets go of it: raw key releases
    /// are followed from before the keys are read, so a release during the injection is seen
    /// too, and the copy is let go then (``userReleased(_:)``).
    func withHeldModifiersLifted(keeping wanted: UInt32, _ body: (UInt32) throws(X11Error) -> Void) throws(X11Error) {
        let map = try display.currentModifierMap()
        setFollowingKeyReleases(true)
        let down = try keysDown()
        // A copy whose key is up on the master: its user let go unseen (an XTest client's
        // release, which is the copy's own device). Let go of it, which nobody sees.
        for keycode in borrowedKeys where !down.contains(keycode.rawValue) {
            try display.withinCall { XTestFakeKeyEvent($0, UInt32(keycode.rawValue), 0, 0) }
        }
        borrowedKeys.removeAll { !down.contains($0.rawValue) }
        let users = down.filter { keycode in
            map.mask(ofKeycode: keycode) & ~map.lockingMask != 0 && !held.keys.contains(KeyCode(rawValue: keycode))
        }
        let lifted = users.filter { map.mask(ofKeycode: $0) & wanted == 0 }
        let kept = users.filter { !lifted.contains($0) }.reduce(UInt32(0)) { $0 | map.mask(ofKeycode: $1) }
        try display.withinCall { handle in
            for keycode in lifted {
                XTestFakeKeyEvent(handle, UInt32(keycode), 1, 0)
                XTestFakeKeyEvent(handle, UInt32(keycode), 0, 0)
            }
        }
        var failure: X11Error?
        do {
            try body(kept)
        } catch {
            failure = error
        }
        try display.withinCall { handle in
            for keycode in lifted { XTestFakeKeyEvent(handle, UInt32(keycode), 1, 0) }
        }
        for keycode in lifted.map(KeyCode.init) where !borrowedKeys.contains(keycode) { borrowedKeys.append(keycode) }
        if !lifted.isEmpty { logger.debug("lifted \(lifted) the user holds around a key action, and put them back") }
        if borrowedKeys.isEmpty { setFollowingKeyReleases(false) }
        if let failure { throw failure }
    }

    /// The user let go of `keycode` on a keyboard of theirs (a raw key release of a device that
    /// is not an XTest one): a copy of it this performer put back is let go too, which nobody
    /// sees (the master let go with the user).
    public func userReleased(_ keycode: UInt8) {
        let key = KeyCode(rawValue: keycode)
        guard let index = borrowedKeys.firstIndex(of: key) else { return }
        borrowedKeys.remove(at: index)
        if !display.isConnectionLost {
            do {
                try display.call("release the put-back \(key)") { XTestFakeKeyEvent($0, UInt32(keycode), 0, 0) }
            } catch {
                logger.error("could not let go of the put-back \(key): \(error)")
            }
        }
        if borrowedKeys.isEmpty { setFollowingKeyReleases(false) }
    }

    /// Lets go of every borrowed key (shutdown): a key the user still holds is then up for
    /// applications until it is pressed again, which is better than a key left down for good
    /// (XTest keys outlive their client).
    func releaseBorrowedKeys() {
        let keys = borrowedKeys
        borrowedKeys = []
        setFollowingKeyReleases(false)
        guard !keys.isEmpty, !display.isConnectionLost else { return }
        do {
            try display.call("release the put-back keys", sync: true) { handle in
                for key in keys.reversed() { XTestFakeKeyEvent(handle, UInt32(key.rawValue), 0, 0) }
            }
            logger.notice("released the modifier keys put back for the user", metadata: ["keys": "\(keys.map(\.rawValue))"])
        } catch {
            logger.error("could not release the modifier keys put back for the user: \(error)")
        }
    }

    /// The keycodes down on the master keyboard (`XQueryKeymap`, a round trip).
    private func keysDown() throws(X11Error) -> [UInt8] {
        try display.call("XQueryKeymap") { handle -> [UInt8] in
            var bits = [CChar](repeating: 0, count: 32)
            XQueryKeymap(handle, &bits)
            return (8...255).filter { UInt8(bitPattern: bits[$0 / 8]) & (1 << UInt8($0 % 8)) != 0 }.map { UInt8($0) }
        }
    }

    private func setFollowingKeyReleases(_ on: Bool) {
        guard on != followingKeyReleases else { return }
        followingKeyReleases = on
        followKeyReleases?(on)
    }
}
