/// The modifier keys a gesture can be qualified by: Shift, Ctrl, Alt and Super
/// (docs/interface.md, «Modifier keys and trigger buttons»).
///
/// A gesture's modifiers are those held when it began — at its first touch, its trigger press,
/// its touchpad begin event — never counting keys the bridge itself holds or injects. Live they
/// are X's Shift, Control, Mod1 and Mod4 as the keymap maps them; Lock and NumLock (and the
/// other modifiers) are never listed. A binding's `modifiers` matches a gesture whose set is
/// exactly its own.
///
/// A set of four bits: comparing two sets, or finding whether a press starts a gesture, costs
/// a byte comparison.
///
/// ```swift
/// let held: Modifiers = [.ctrl, .super]
/// held.names            // ["ctrl", "super"]
/// held.description      // "ctrl+super"
/// Modifiers(name: "alt") // .alt
/// ```
public struct Modifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue & Self.validBits }

    /// X's Shift.
    public static let shift = Modifiers(rawValue: 1 << 0)
    /// X's Control.
    public static let ctrl = Modifiers(rawValue: 1 << 1)
    /// X's Mod1 (Alt in the usual keymap).
    public static let alt = Modifiers(rawValue: 1 << 2)
    /// X's Mod4 (Super, the Windows key, in the usual keymap).
    public static let `super` = Modifiers(rawValue: 1 << 3)

    /// The bits a set can have.
    @usableFromInline static let validBits: UInt8 = 0b1111

    /// How many different sets there are (each a subset of the four keys): 16.
    public static let combinations = 1 << 4

    /// Each modifier with its name, in the order output lists them: shift, ctrl, alt, super.
    public static let named: [(modifier: Modifiers, name: String)] = [
        (.shift, "shift"), (.ctrl, "ctrl"), (.alt, "alt"), (.super, "super"),
    ]

    /// The names, in the order output lists them.
    public static let allNames = named.map(\.name)

    /// The one modifier `name` spells (`shift`, `ctrl`, `alt`, `super`), or nil.
    public init?(name: String) {
        guard let found = Self.named.first(where: { $0.name == name }) else { return nil }
        self = found.modifier
    }

    /// The names of the modifiers in the set, in the order output lists them.
    public var names: [String] {
        Self.named.compactMap { contains($0.modifier) ? $0.name : nil }
    }

    /// The names joined by `+` (`ctrl+super`); `none` for the empty set.
    public var description: String {
        isEmpty ? "none" : names.joined(separator: "+")
    }
}
