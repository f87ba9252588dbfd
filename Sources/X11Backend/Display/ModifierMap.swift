internal import CX11
import GestureEngine

/// X's modifiers as the keymap has them: which keys set which of the eight modifier bits, and
/// where Num Lock is; and how the four modifiers gestures name (docs/interface.md, «Modifier
/// keys and trigger buttons») map onto those bits.
///
/// Shift, Ctrl, Alt and Super are X's Shift, Control, Mod1 and Mod4; Lock (Caps Lock) and
/// the bit Num Lock sets (usually Mod2) never count, and the others (Mod3, Mod5: AltGr) are not
/// named. A passive grab matches an exact modifier state, so a grab for a set of modifiers is
/// taken with the lock states too (``grabMasks(_:)``): a Super + left drag works whether Caps
/// Lock or Num Lock is on.
///
/// ```swift
/// let map = try display.modifierMap()
/// map.modifiers(state: 0x40 | 0x10)   // .super: Mod4, with Num Lock (Mod2) on
/// map.grabMasks(.super)               // [0x40, 0x42, 0x50, 0x52]
/// ```
struct ModifierMap: Hashable, Sendable {
    static let shiftMask: UInt32 = 1 << 0
    static let lockMask: UInt32 = 1 << 1
    static let controlMask: UInt32 = 1 << 2
    static let mod1Mask: UInt32 = 1 << 3
    static let mod4Mask: UInt32 = 1 << 6

    /// For each of X's eight modifiers (Shift, Lock, Control, Mod1 … Mod5), the keycodes that
    /// set it.
    var keycodes: [[UInt8]]
    /// The modifier bit Num Lock sets; 0 when no key is Num Lock.
    var numLockMask: UInt32

    init(keycodes: [[UInt8]] = Array(repeating: [], count: 8), numLockMask: UInt32 = 0) {
        self.keycodes = keycodes
        self.numLockMask = numLockMask
    }

    /// The bits of the locks, which never count.
    var lockingMask: UInt32 { Self.lockMask | numLockMask }

    /// The X bits each named modifier is.
    private static let bits: [(Modifiers, UInt32)] = [
        (.shift, shiftMask), (.ctrl, controlMask), (.alt, mod1Mask), (.super, mod4Mask),
    ]

    /// The named modifiers an X modifier state holds (an event's effective state), the locks
    /// left out.
    func modifiers(state: UInt32) -> Modifiers {
        let held = state & ~lockingMask
        var modifiers = Modifiers()
        for (modifier, bit) in Self.bits where held & bit != 0 { modifiers.insert(modifier) }
        return modifiers
    }

    /// The X bits of `modifiers`.
    func mask(of modifiers: Modifiers) -> UInt32 {
        Self.bits.reduce(0) { mask, entry in modifiers.contains(entry.0) ? mask | entry.1 : mask }
    }

    /// The modifier states a grab for exactly `modifiers` is taken with: alone, and with
    /// Caps Lock, Num Lock, or both on.
    func grabMasks(_ modifiers: Modifiers) -> [UInt32] {
        let base = mask(of: modifiers)
        var masks = [base, base | Self.lockMask]
        if numLockMask != 0 { masks += [base | numLockMask, base | Self.lockMask | numLockMask] }
        return masks
    }

    /// The modifier bits `keycode` sets (0 for a key that is no modifier).
    func mask(ofKeycode keycode: UInt8) -> UInt32 {
        var mask: UInt32 = 0
        for (bit, codes) in keycodes.enumerated() where codes.contains(keycode) { mask |= 1 << UInt32(bit) }
        return mask
    }
}

extension X11Display {
    /// The server's modifier map (`XGetModifierMapping`) and Num Lock's bit (two round trips).
    func modifierMap() throws(X11Error) -> ModifierMap {
        try call("XGetModifierMapping") { (handle) throws(X11Error) -> ModifierMap in
            guard let map = XGetModifierMapping(handle) else {
                throw .failed("XGetModifierMapping returned nothing", display: name)
            }
            defer { XFreeModifiermap(map) }
            let perModifier = Int(map.pointee.max_keypermod)
            var keycodes: [[UInt8]] = []
            for modifier in 0..<8 {
                let codes = (0..<perModifier).map { map.pointee.modifiermap[modifier * perModifier + $0] }
                keycodes.append(codes.filter { $0 != 0 })
            }
            // libX11's XKB code dereferences the keyboard description it could not read on a
            // connection lost in the call above (a crash in XkbKeysymToModifiers, seen when a
            // stop gave up a stopped server): no further call then.
            guard !isConnectionLost else { throw .connectionLost(display: name) }
            // XK_Num_Lock.
            let numLock = XkbKeysymToModifiers(handle, 0xff7f)
            return ModifierMap(keycodes: keycodes, numLockMask: UInt32(numLock))
        }
    }

    /// The modifier map, read once and kept until the keyboard mapping changes (a modifier
    /// map change comes as XKB's map notification, which ``keyboardMappingChanges`` counts).
    func currentModifierMap() throws(X11Error) -> ModifierMap {
        if let cached = cachedModifierMap, cached.changes == keyboardMappingChanges { return cached.map }
        let changes = keyboardMappingChanges
        let map = try modifierMap()
        cachedModifierMap = (map, changes)
        return map
    }
}
