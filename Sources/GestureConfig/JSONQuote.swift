/// JSON string quoting (RFC 8259): the one escaper of the output lines and of how an action
/// list is shown, so that both print a string the same way.
///
/// ```swift
/// JSONQuote.quoted("say \"hi\"\n")   // "\"say \\\"hi\\\"\\n\""
/// ```
public enum JSONQuote {
    /// Appends `text` as a quoted JSON string: `"` and `\` escaped, control characters as
    /// `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`; everything else stays as it is (UTF-8).
    public static func append(_ text: String, to out: inout String) {
        out.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case "\u{08}": out.append("\\b")
            case "\u{0C}": out.append("\\f")
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }

    /// `text` as a quoted JSON string (see ``append(_:to:)``).
    public static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }
}
