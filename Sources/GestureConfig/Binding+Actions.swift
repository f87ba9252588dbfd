extension Binding {
    /// The most actions one binding's `action` array may list (docs/config.md).
    public static let maximumActions = 8

    /// An action array as output prints it: its strings quoted and escaped as JSON strings, in
    /// a JSON array (`["key ctrl+c", "workspace 2"]`), which is also how TOML writes it.
    static func listText(_ texts: [String]) -> String {
        "[" + texts.map(JSONQuote.quoted).joined(separator: ", ") + "]"
    }
}

extension KeyCombo {
    /// Parses a `hold` value: key names joined by `+`, as `key` takes them (`alt`,
    /// `ctrl+shift`, `Super_L`).
    ///
    /// ```swift
    /// let held = try KeyCombo(holding: "ctrl+alt")   // Control_L, Alt_L
    /// ```
    ///
    /// - Throws: ``ActionParseError`` naming what is wrong (an empty value, blanks, an unknown
    ///   or repeated key name).
    public init(holding text: String) throws(ActionParseError) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        guard words.count == 1 else {
            throw ActionParseError(
                words.isEmpty
                    ? "'hold' needs the keys to hold down, e.g. 'alt' or 'ctrl+shift'"
                    : "'hold' takes one combination without blanks, e.g. 'alt' or 'ctrl+shift'")
        }
        self = try Action.keyCombo(words)
    }
}

extension KeyCombo {
    /// The key names of a `hold` value as written, one per key: `"ctrl+alt"` → `["ctrl", "alt"]`.
    static func spellings(ofHold text: String) -> [String] {
        let word = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.map(String.init) ?? ""
        return Action.comboParts(word).map(String.init)
    }
}
