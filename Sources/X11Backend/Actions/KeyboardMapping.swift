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
    let minKeycode: Int
    /// Keysyms per keycode (columns).
    let keysymsPerKeycode: Int
    /// The keysyms, `keysymsPerKeycode` per keycode, from `minKeycode` on.
    private(set) var keysyms: [UInt]
    /// ``locate(_:)``'s answers, made with the mapping: a key action looks its keysyms up on
    /// the way from the motion that completed its gesture to the key, where a scan of column 0
    /// (one cache line per keycode, cold after the pause between two steps of a drag) cost the
    /// key microseconds (docs/performance.md, «Latency by drag shape»).
    private var located: [UInt: Location]

    /// Where a keysym is: its keycode, and whether it needs Shift (column 1).
    struct Location: Hashable, Sendable {
        var keycode: UInt8
        var needsShift: Bool
    }

    init(minKeycode: Int, keysymsPerKeycode: Int, keysyms: [UInt]) {
        self.minKeycode = minKeycode
        self.keysymsPerKeycode = keysymsPerKeycode
        self.keysyms = keysyms
        located = Self.locations(minKeycode: minKeycode, keysymsPerKeycode: keysymsPerKeycode, keysyms: keysyms)
    }

    /// For each keysym of columns 0 and 1: the lowest keycode with it in column 0, else the
    /// lowest with it in column 1.
    private static func locations(minKeycode: Int, keysymsPerKeycode: Int, keysyms: [UInt]) -> [UInt: Location] {
        guard keysymsPerKeycode > 0 else { return [:] }
        let count = keysyms.count / keysymsPerKeycode
        var located: [UInt: Location] = [:]
        located.reserveCapacity(2 * count)
        // Column 1 first and column 0 over it, each from the highest keycode down: what stays is
        // column 0's lowest keycode, else column 1's.
        for column in (0..<min(2, keysymsPerKeycode)).reversed() {
            for index in (0..<count).reversed() {
                let keysym = keysyms[index * keysymsPerKeycode + column]
                guard keysym != noSymbol, let keycode = UInt8(exactly: minKeycode + index) else { continue }
                located[keysym] = Location(keycode: keycode, needsShift: column == 1)
            }
        }
        return located
    }

    /// Gives `keycode` the keysyms `replacement` (one per column).
    mutating func replace(_ keycode: KeyCode, with replacement: [UInt]) {
        let start = (Int(keycode.rawValue) - minKeycode) * keysymsPerKeycode
        keysyms.replaceSubrange(start..<(start + keysymsPerKeycode), with: replacement)
        located = Self.locations(minKeycode: minKeycode, keysymsPerKeycode: keysymsPerKeycode, keysyms: keysyms)
    }

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
        guard keysym != Self.noSymbol, let location = located[keysym] else { return nil }
        return (KeyCode(rawValue: location.keycode), location.needsShift)
    }

    /// Keycodes with no keysym at all, highest first: where an unmapped keysym can be mapped
    /// for a moment without taking a key from anyone.
    func spareKeycodes() -> [KeyCode] {
        keycodes.reversed().map { KeyCode(rawValue: UInt8($0)) }.filter { code in
            keysyms(of: code).allSatisfy { $0 == Self.noSymbol }
        }
    }
}
