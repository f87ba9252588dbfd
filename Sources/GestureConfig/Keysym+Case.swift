extension Keysym {
    /// The character a keysym types, where the X headers name one (`T` → "T", `Cyrillic_A` →
    /// "А", `EuroSign` → "€"), or a Unicode keysym's code point; `nil` for keys that type no
    /// character (`Return`, `Control_L`, `XF86AudioMute`).
    ///
    /// ```swift
    /// Keysym.character(of: 0x6E1)   // "А" (U+0410), Cyrillic_A
    /// ```
    public static func character(of keysym: UInt32) -> Unicode.Scalar? {
        if let character = byValueCharacter[keysym] { return character }
        guard keysym >= unicodeOffset + 0x100, keysym <= unicodeOffset + 0x10_FFFF else { return nil }
        return Unicode.Scalar(keysym - unicodeOffset)
    }

    /// The keysym that types `character`: the one the headers name for it (a current name before
    /// a deprecated one), else its Unicode keysym.
    public static func keysym(typing character: Unicode.Scalar) -> UInt32 {
        byCharacter[character] ?? (character.value < 0x100 ? character.value : character.value + unicodeOffset)
    }

    /// The small letter of a capital letter's keysym (`T` → `t`, `Cyrillic_A` → `Cyrillic_a`,
    /// `Aogonek` → `aogonek`); `nil` for every other keysym.
    ///
    /// A keyboard types a capital letter as its small letter's key with Shift held, which is
    /// why a combination that names one presses Shift (see ``Action/shiftedLetterNote(_:)``).
    public static func smallLetter(of keysym: UInt32) -> UInt32? {
        guard let character = character(of: keysym), character.properties.isUppercase else { return nil }
        // One scalar, or it is no single key (`İ` lowercases to i + a combining dot).
        let lowered = character.properties.lowercaseMapping.unicodeScalars
        guard lowered.count == 1, let small = lowered.first, small != character else { return nil }
        return self.keysym(typing: small)
    }

    /// Each keysym's character, from the table.
    private static let byValueCharacter: [UInt32: Unicode.Scalar] = {
        var characters: [UInt32: Unicode.Scalar] = [:]
        for entry in table { if let character = entry.character { characters[entry.value] = character } }
        return characters
    }()

    /// Each character's keysym, from the table.
    private static let byCharacter: [Unicode.Scalar: UInt32] = preferredEntries(by: \.character).mapValues(\.value)
}

extension Action {
    /// What a `key` action really sends when it names a capital letter with a modifier but no
    /// `shift`, as a note (the config stays valid): `key ctrl+T` presses Shift to type the T, so
    /// applications see Ctrl+Shift+T (which reopens a closed tab), not the Ctrl+T it looks like.
    /// `nil` for any other action, and for a capital letter typed on its own (`key T` types a T,
    /// as written).
    ///
    /// ```swift
    /// Action.shiftedLetterNote("key ctrl+T")
    /// // "'key ctrl+T' sends ctrl+shift+t (T is typed with Shift); write ctrl+shift+t to say so, or ctrl+t"
    /// ```
    ///
    /// - Parameter text: the action as written, already known to parse.
    public static func shiftedLetterNote(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard words.count == 2, words[0] == "key" else { return nil }
        let combo = String(words[1])
        // The modifiers as written, then the other keys in their order with each capital letter
        // as its small letter: the combination as the keyboard types it, Shift aside.
        var modifiers: [String] = [], keys: [String] = [], capital: Substring?
        for part in comboParts(combo) {
            switch modifierRole(of: part) {
            case .shift: return nil
            case .other: modifiers.append(String(part))
            case nil:
                if let keysym = Keysym.value(named: String(part)), let small = Keysym.smallLetter(of: keysym), let name = Keysym.name(of: small) {
                    keys.append(name)
                    capital = capital ?? part
                } else {
                    keys.append(String(part))
                }
            }
        }
        guard !modifiers.isEmpty, let capital else { return nil }
        let plain = (modifiers + keys).joined(separator: "+")
        let sent = (modifiers + ["shift"] + keys).joined(separator: "+")
        return "'key \(Excerpt.of(combo))' sends \(Excerpt.of(sent)) (\(capital) is typed with Shift); "
            + "write \(Excerpt.of(sent)) to say so, or \(Excerpt.of(plain))"
    }

    private enum ModifierRole { case shift, other }

    /// Whether a part of a combination is Shift, another modifier, or neither: a modifier word
    /// (any case, as ``keyCombo(_:)`` reads them) or a modifier's keysym name.
    private static func modifierRole(of part: Substring) -> ModifierRole? {
        let lowered = part.lowercased()
        if let word = modifierWords.first(where: { $0.word == lowered }) { return word.word == "shift" ? .shift : .other }
        switch part {
        case "Shift_L", "Shift_R": return .shift
        case "Control_L", "Control_R", "Alt_L", "Alt_R", "Super_L", "Super_R", "Meta_L", "Meta_R", "Hyper_L", "Hyper_R":
            return .other
        default: return nil
        }
    }
}
