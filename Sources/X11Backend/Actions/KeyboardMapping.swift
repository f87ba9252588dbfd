/// An X keycode (8…255).
public struct KeyCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static func < (a: KeyCode, b: KeyCode) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "keycode \(rawValue)" }
}

/// The server's core keyboard mapping (`XGetKeyboardMapping`): for each keycode, its keysyms
/// by column.
///
/// Column 0 is the unshifted keysym and column 1 the shifted one (of the first group); later
/// columns belong to other groups and levels (AltGr), which XTest cannot select reliably, so
/// gesture-bridge treats keysyms found only there as unmapped.
struct KeyboardMapping: Hashable, Sendable {
    /// X's `NoSymbol`.
    static let noSymbol: UInt = 0

    /// The first keycode described.
    var minKeycode: Int
    /// Keysyms per keycode (columns).
    var keysymsPerKeycode: Int
    /// The keysyms, `keysymsPerKeycode` per keycode, from `minKeycode` on.
    var keysyms: [UInt]

    /// The keycodes described.
    var keycodes: ClosedRange<Int> {
        minKeycode...(minKeycode + keysyms.count / max(keysymsPerKeycode, 1) - 1)
    }

    /// The keysyms of one keycode, by column.
    func keysyms(of keycode: KeyCode) -> ArraySlice<UInt> {
        let start = (Int(keycode.rawValue) - minKeycode) * keysymsPerKeycode
        guard keycodes.contains(Int(keycode.rawValue)) else { return [] }
        return keysyms[start..<(start + keysymsPerKeycode)]
    }

    /// Where to find `keysym` without changing the mapping: the lowest keycode with it in
    /// column 0, else the lowest with it in column 1 (which needs Shift).
    func locate(_ keysym: UInt) -> (keycode: KeyCode, needsShift: Bool)? {
        guard keysym != Self.noSymbol else { return nil }
        for column in 0..<min(2, keysymsPerKeycode) {
            for keycode in keycodes where keysyms[(keycode - minKeycode) * keysymsPerKeycode + column] == keysym {
                return (KeyCode(rawValue: UInt8(keycode)), column == 1)
            }
        }
        return nil
    }

    /// Keycodes with no keysym at all, highest first: where an unmapped keysym can be mapped
    /// for a moment without taking a key from anyone.
    func spareKeycodes() -> [KeyCode] {
        keycodes.reversed().map { KeyCode(rawValue: UInt8($0)) }.filter { code in
            keysyms(of: code).allSatisfy { $0 == Self.noSymbol }
        }
    }
}
