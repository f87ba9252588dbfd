/// The start of a text that a message or a log line repeats, kept short and on one line.
///
/// Error messages quote what the user wrote (`unknown action 'launch'`) and the daemon logs the
/// action of every binding that fires; a value can be as long as the config (a 900 KB number, a
/// 1 MB `exec` command) and hold newlines. Whatever repeats user text goes through here, so that
/// no message or log line grows with the input or breaks into several lines. Output lines
/// (`replay`, `--dry-run`) are not messages: they carry the action exactly as written.
///
/// ```swift
/// Excerpt.of(String(repeating: "9", count: 900_000))   // 60 nines, then "…"
/// Excerpt.of("workspace next")                         // "workspace next"
/// Excerpt.of("exec printf 'a\nb'")                     // "exec printf 'a\\nb'"
/// ```
public enum Excerpt {
    /// The characters kept of a longer text, before the `…` that marks the cut.
    public static let maximumLength = 60

    /// `text` itself when it has at most `maximumLength` characters, else its first
    /// `maximumLength` characters and `…`; control characters written as TOML escapes
    /// (`\n`, `\t`, `\r`, `\u001B`).
    public static func of(_ text: some StringProtocol, maximumLength: Int = Excerpt.maximumLength) -> String {
        let cut = text.index(text.startIndex, offsetBy: maximumLength, limitedBy: text.endIndex) ?? text.endIndex
        let kept = text[..<cut]
        let suffix = cut < text.endIndex ? "…" : ""
        guard kept.unicodeScalars.contains(where: isControl) else { return String(kept) + suffix }
        var escaped = ""
        for scalar in kept.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + suffix
    }

    /// C0 controls and DEL.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }
}
