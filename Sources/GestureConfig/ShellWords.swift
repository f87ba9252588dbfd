/// Splits a command line into words the way a POSIX shell does, without running a shell.
///
/// `exec` actions start programs directly, yet users write their arguments as they would in a
/// terminal. This follows the shell's quoting rules (POSIX "Token Recognition" and "Quoting")
/// and nothing else: there is no variable, tilde, glob or command expansion, no redirection and
/// no pipes — `$HOME`, `~` and `*` are passed on literally. Wrap a command in `sh -c '…'` when
/// you want a shell.
///
/// - Blanks (space, tab, newline) separate words; runs of them count as one.
/// - `'…'` keeps everything up to the next `'` literally.
/// - `"…"` keeps everything literally except that a backslash escapes `"`, `\`, `$` and `` ` ``
///   (and a backslash-newline disappears); before any other character it stays a backslash.
/// - Outside quotes a backslash keeps the next character literally (backslash-newline
///   disappears).
/// - Quoted and unquoted parts that touch form one word; `''` and `""` make an empty word.
///
/// ```swift
/// try ShellWords.split(#"notify-send "Hello, world" it\'s"#)   // ["notify-send", "Hello, world", "it's"]
/// ```
public enum ShellWords {
    /// Splits `text` into words.
    ///
    /// - Throws: ``ActionParseError`` for an unterminated quote or a trailing backslash.
    public static func split(_ text: String) throws(ActionParseError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false  // true once the current word has begun, even if it is still empty ("")
        var scalars = text.unicodeScalars.makeIterator()

        func finishWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }

        while let c = scalars.next() {
            switch c {
            case " ", "\t", "\n":
                finishWord()
            case "'":
                inWord = true
                var closed = false
                while let q = scalars.next() {
                    if q == "'" { closed = true; break }
                    word.unicodeScalars.append(q)
                }
                guard closed else { throw ActionParseError("unterminated single quote: add the closing '") }
            case "\"":
                inWord = true
                var closed = false
                while let q = scalars.next() {
                    if q == "\"" { closed = true; break }
                    guard q == "\\" else { word.unicodeScalars.append(q); continue }
                    guard let escaped = scalars.next() else { break }
                    switch escaped {
                    case "\"", "\\", "$", "`": word.unicodeScalars.append(escaped)
                    case "\n": break
                    default: word.unicodeScalars.append(q); word.unicodeScalars.append(escaped)
                    }
                }
                guard closed else { throw ActionParseError("unterminated double quote: add the closing \"") }
            case "\\":
                guard let escaped = scalars.next() else {
                    throw ActionParseError("a backslash at the end escapes nothing")
                }
                if escaped != "\n" {
                    inWord = true
                    word.unicodeScalars.append(escaped)
                }
            default:
                inWord = true
                word.unicodeScalars.append(c)
            }
        }
        finishWord()
        return words
    }
}
