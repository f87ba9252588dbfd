/// X keysym names and values, without a display.
///
/// The config checks every `key` action when it loads, long before (and without) an X
/// connection, and the live backend turns the same names into keysyms; both use this table,
/// generated from the X headers by `scripts/generate-keysyms.py` (see `KeysymTable.swift`).
/// Lookups go through dictionaries built once, on first use.
///
/// Besides the names, ``value(named:)`` accepts the spellings `XStringToKeysym` accepts for
/// keysyms that have no name: `0x` followed by hex digits (`0x1008ff13`), and a Unicode code
/// point as `U20AC` or `U+20AC` (the `U+` form is ours).
///
/// ```swift
/// Keysym.value(named: "XF86AudioRaiseVolume")   // 0x1008FF13
/// Keysym.value(named: "U+20AC")                 // 0x010020AC (EuroSign's Unicode keysym)
/// Keysym.name(of: 0xFF53)                       // "Right"
/// ```
public enum Keysym {
    /// The largest keysym value: keysyms are 29-bit.
    public static let maximumValue: UInt32 = 0x1FFF_FFFF

    /// The offset of Unicode keysyms: U+0100 … U+10FFFF are keysyms `0x0100_0100` … `0x0110_FFFF`.
    public static let unicodeOffset: UInt32 = 0x0100_0000

    /// The keysym a name stands for, as `XStringToKeysym` reads it; `nil` when there is none.
    ///
    /// Names are case-sensitive (`a` and `A` are different keys). A name in the table wins over
    /// the numeric forms, so `U` is the letter U, not a malformed code point.
    ///
    /// - Parameter name: a keysym name (`Right`, `XF86AudioMute`), `0x…` hex, or `U…`/`U+…`.
    public static func value(named name: String) -> UInt32? {
        if let value = byName[name] { return value }
        if let value = unicodeKeysym(name) { return value }
        return hexKeysym(name)
    }

    /// The name of a keysym, as `XKeysymToString` would give it: the table's current
    /// (non-deprecated) name, `U` + hex for an unnamed Unicode keysym, otherwise `nil`.
    public static func name(of keysym: UInt32) -> String? {
        if let name = byValue[keysym] { return name }
        if keysym >= unicodeOffset + 0x100, keysym <= unicodeOffset + 0x10_FFFF {
            return "U" + hex(keysym - unicodeOffset, minimumDigits: 4)
        }
        return nil
    }

    /// True when `name` is a keysym name in the table (not a numeric spelling).
    public static func isName(_ name: String) -> Bool { byName[name] != nil }

    /// Every name in the table, in header order (for suggestions).
    public static var allNames: some Collection<String> { table.lazy.map(\.name) }

    // MARK: - Tables, built on first use (static lets are lazy and thread-safe)

    /// One line of ``tableText``.
    typealias Entry = (name: String, value: UInt32, deprecated: Bool, character: Unicode.Scalar?)

    /// ``tableText`` read into entries, in header order.
    static let table: [Entry] =
        tableText.split(separator: "\n").compactMap {
            let fields = $0.split(separator: " ")
            guard fields.count >= 2, let value = UInt32(fields[1], radix: 16) else { return nil }
            let rest = fields.dropFirst(2)
            let character = rest.first { $0.hasPrefix("U+") }.flatMap { UInt32($0.dropFirst(2), radix: 16) }.flatMap(Unicode.Scalar.init)
            return (String(fields[0]), value, rest.contains("d"), character)
        }

    private static let byName: [String: UInt32] = {
        var names = [String: UInt32](minimumCapacity: table.count)
        for entry in table { names[entry.name] = entry.value }
        return names
    }()

    private static let byValue: [UInt32: String] = preferredEntries(by: \.value).mapValues(\.name)

    /// One table entry per key (a value, a character): header order decides among equals, and a
    /// current name beats a deprecated one.
    static func preferredEntries<Key: Hashable>(by key: (Entry) -> Key?) -> [Key: Entry] {
        var entries = [Key: Entry](minimumCapacity: table.count)
        for pass in [false, true] {
            for entry in table where entry.deprecated == pass {
                if let k = key(entry), entries[k] == nil { entries[k] = entry }
            }
        }
        return entries
    }

    // MARK: - Numeric spellings

    /// `U20AC` / `U+20AC`: like libX11, C0 and C1 controls have no keysym, Latin-1 code points
    /// are their own keysyms, and the rest sit at ``unicodeOffset``.
    private static func unicodeKeysym(_ name: String) -> UInt32? {
        var digits = Substring(name)
        guard digits.first == "U" else { return nil }
        digits = digits.dropFirst()
        if digits.first == "+" { digits = digits.dropFirst() }
        guard let code = hexNumber(digits), code <= 0x10_FFFF else { return nil }
        if code < 0x20 || (0x7F..<0xA0).contains(code) { return nil }
        return code < 0x100 ? code : code + unicodeOffset
    }

    /// `0x1008ff13`: any non-zero 29-bit value.
    private static func hexKeysym(_ name: String) -> UInt32? {
        guard name.hasPrefix("0x") || name.hasPrefix("0X") else { return nil }
        guard let value = hexNumber(name.dropFirst(2)), value != 0, value <= maximumValue else { return nil }
        return value
    }

    private static func hexNumber(_ digits: Substring) -> UInt32? {
        guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(digits, radix: 16)
    }

    private static func hex(_ value: UInt32, minimumDigits: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, minimumDigits - digits.count)) + digits
    }
}
