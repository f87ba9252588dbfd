/// Finds where each key and value of a TOML document is written.
///
/// toml++ (through TOMLKit's C layer) gives values but no positions, and every config error
/// must name a line and column. The locator scans the same text once and maps each
/// ``TOMLPath`` to the position of its key and of its value. It understands what a config can
/// contain: comments, bare, quoted and dotted keys, `[table]` and `[[array.of.tables]]`
/// headers (counting the index of each `[[bind]]`), inline tables, arrays (nested, multi-line,
/// with comments), basic, literal and multi-line strings, and bare values (numbers, booleans,
/// dates).
///
/// It does not validate (toml++ does): on malformed input it still ends and records what it
/// can. It runs before the text goes to toml++, because it also finds what toml++ would not
/// refuse, or not survive:
/// - nesting deeper than ``maximumDepth`` (keys, tables and arrays counted together): a header
///   like `[a.a.a…]` with 500,000 parts overflows toml++'s stack, and every path the locator
///   records would be as long as the nesting is deep (quadratic). The scan stops at the first
///   part that goes too deep and records it in ``tooDeep``.
/// - strings and keys holding a NUL (`\u0000`), which the C layer would silently cut short
///   there (``nulEscapes``).
/// - what toml++ takes for granted without checking, and stops at a failed assertion on (or,
///   built without assertions, goes on from what it wrongly assumed) (``parserTrap``): a table
///   header whose name does not begin with a key (`[!`, `[ [a]]`, `[` then a line break), a `}`
///   where an array expects a value (`a = [}`, `a = [1, }`), a malformed date or time
///   (`1979-05-27T&7:00`).
///
/// Where things point:
/// - a key/value pair: `key` is the last key of its (dotted) name, `value` its value's first
///   character;
/// - a table from a header: `key` is the header's last key, `value` the header's `[` (`[[`);
/// - a table implied by a dotted key or by a longer header: both point at that key;
/// - an inline table: `value` is its `{`; an array element: `key` is `nil`.
///
/// ```swift
/// let locator = TOMLLocator("[[bind]]\ngesture = \"tap\"\n")
/// locator["bind[0].gesture"]   // key 2:1, value 2:11
/// locator["bind[0]"]           // key 1:3, value 1:1
/// ```
struct TOMLLocator {
    /// A 1-based line and column; columns count Unicode scalars, as toml++ does.
    struct Position: Hashable, Sendable {
        var line: Int
        var column: Int
    }

    /// Where a path's key and value are.
    struct Location: Hashable, Sendable {
        /// The key naming the value; `nil` for an array element.
        var key: Position?
        /// The value's first character (for a table from a header: the header's `[`).
        var value: Position
    }

    /// Every path found, with its location.
    private(set) var locations: [TOMLPath: Location] = [:]

    /// How deep keys, tables and arrays may nest: a path of at most this many steps. A config
    /// needs 3 (`bind[0].action`); 32 leaves room for anything TOML is used for, and keeps
    /// every path short.
    static let maximumDepth = 32

    /// Where the first key, table or array deeper than ``maximumDepth`` starts; the scan
    /// stopped there, so the locations are incomplete.
    private(set) var tooDeep: Position?

    /// Where each string or key that holds a NUL has its first `\u0000` (or `\U00000000`).
    private(set) var nulEscapes: [Position] = []

    /// Something toml++ would not survive: where, while parsing what, what should be there
    /// and what is there instead.
    struct ParserTrap: Hashable, Sendable {
        var position: Position
        /// What toml++ was parsing: `table header`, `array`.
        var context: String
        /// What toml++ takes for granted is there: `a key`, `a value`.
        var expected: String
        /// What is there, escaped, in an excerpt.
        var found: String

        /// toml++'s own form of the message, as a syntax error.
        var message: String {
            "TOML syntax error while parsing \(context): expected \(expected), saw '\(found)'"
        }
    }

    /// The first thing found that toml++ would not survive.
    private(set) var parserTrap: ParserTrap?

    /// Scans `text`.
    init(_ text: String) {
        var builder = Builder(text)
        builder.scanDocument()
        locations = builder.locations
        tooDeep = builder.tooDeep
        nulEscapes = builder.nulEscapes
        parserTrap = builder.parserTrap
    }

    /// The location of `path`, if the text defines it.
    subscript(path: TOMLPath) -> Location? { locations[path] }
}

extension TOMLLocator {
    /// The single-pass scanner behind ``TOMLLocator``.
    private struct Builder {
        private let scalars: [Unicode.Scalar]
        private var index = 0
        private var line = 1
        private var column = 1
        /// How many `[[…]]` headers each array of tables has had so far, by resolved path.
        private var arrayTableCounts: [TOMLPath: Int] = [:]
        private(set) var locations: [TOMLPath: Location] = [:]
        private(set) var tooDeep: Position?
        private(set) var nulEscapes: [Position] = []
        private(set) var parserTrap: ParserTrap?

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
            if scalars.first == "\u{FEFF}" { index = 1 }  // a byte-order mark takes no column
        }

        // MARK: Document structure

        mutating func scanDocument() {
            var table = TOMLPath()
            while true {
                skipTrivia(newlines: true)
                guard let c = current else { return }
                let before = index
                if c == "[" {
                    table = scanHeader()
                } else {
                    scanKeyValue(in: table)
                }
                if index == before { advance() }  // never stall on malformed input
            }
        }

        /// `[a.b]` or `[[a.b]]`; returns the resolved path of the table it opens.
        private mutating func scanHeader() -> TOMLPath {
            let start = position
            let isArray = peek(1) == "["
            advance()
            if isArray { advance() }
            skipSpaces()
            // toml++ reports an end of text or a `]` here itself, and asserts anything else it
            // finds is the start of a key.
            if parserTrap == nil, let c = current, c != "]", c != "\"", c != "'", !TOMLPath.isBareKeyScalar(c) {
                parserTrap = ParserTrap(position: position, context: "table header", expected: "a key", found: c.escaped(asASCII: false))
            }
            let keys = scanKey()
            skipSpaces()
            while current == "]" { advance() }

            var path = TOMLPath()
            for (n, (name, keyPosition)) in keys.enumerated() {
                guard fitsDepth(path, at: keyPosition) else { return path }
                path = path.appending(name)
                let here = Location(key: keyPosition, value: start)
                guard n == keys.count - 1 else {
                    if locations[path] == nil { locations[path] = here }
                    // A header inside an array of tables refers to its latest element.
                    if let count = arrayTableCounts[path] {
                        guard fitsDepth(path, at: keyPosition) else { return path }
                        path = path.appending(index: count - 1)
                    }
                    continue
                }
                if isArray {
                    guard fitsDepth(path, at: keyPosition) else { return path }
                    if locations[path] == nil { locations[path] = here }
                    let count = arrayTableCounts[path, default: 0]
                    arrayTableCounts[path] = count + 1
                    path = path.appending(index: count)
                }
                locations[path] = here
            }
            return path
        }

        /// `a.b = value`, relative to `table`.
        private mutating func scanKeyValue(in table: TOMLPath) {
            let keys = scanKey()
            skipSpaces()
            guard !keys.isEmpty, current == "=" else { return }
            advance()
            skipSpaces()
            var path = table
            for (n, (name, keyPosition)) in keys.enumerated() {
                guard fitsDepth(path, at: keyPosition) else { return }
                path = path.appending(name)
                if n < keys.count - 1, locations[path] == nil {
                    locations[path] = Location(key: keyPosition, value: keyPosition)
                }
            }
            scanValue(at: path, key: keys.last?.position)
        }

        /// Whether one more step below `path` stays within ``TOMLLocator/maximumDepth``. When
        /// it does not, records where and ends the scan: every loop stops at the end of the text.
        private mutating func fitsDepth(_ path: TOMLPath, at where: Position) -> Bool {
            guard tooDeep == nil else { return false }
            guard path.components.count >= TOMLLocator.maximumDepth else { return true }
            tooDeep = `where`
            index = scalars.count
            return false
        }

        /// A possibly dotted key: its parts, unquoted, each with where it starts. Parts past
        /// one more than ``TOMLLocator/maximumDepth`` are read over but not kept: that many is
        /// too deep wherever the key stands, and the caller reports it.
        private mutating func scanKey() -> [(name: String, position: Position)] {
            var parts: [(name: String, position: Position)] = []
            while true {
                skipSpaces()
                let start = position
                let name: String
                switch current {
                case "\"": name = scanBasicString()
                case "'": name = scanLiteralString()
                default:
                    var bare = String.UnicodeScalarView()
                    while let c = current, TOMLPath.isBareKeyScalar(c) {
                        bare.append(c)
                        advance()
                    }
                    guard !bare.isEmpty else { return parts }
                    name = String(bare)
                }
                if parts.count <= TOMLLocator.maximumDepth { parts.append((name, start)) }
                skipSpaces()
                guard current == "." else { return parts }
                advance()
            }
        }

        private mutating func scanValue(at path: TOMLPath, key: Position?) {
            locations[path] = Location(key: key, value: position)
            switch current {
            case "{":
                advance()
                while true {
                    skipTrivia(newlines: true)  // TOML 1.1 allows newlines in inline tables
                    guard let c = current, c != "}" else { break }
                    let before = index
                    if c == "," { advance() } else { scanKeyValue(in: path) }
                    if index == before { advance() }
                }
                if current == "}" { advance() }
            case "[":
                advance()
                var element = 0
                var expectingValue = true
                while true {
                    skipTrivia(newlines: true)
                    guard let c = current, c != "]" else { break }
                    let before = index
                    if c == "," {
                        advance()
                        expectingValue = true
                    } else if c == "}" {
                        // toml++ reports a `}` after a value, and asserts one never comes where
                        // a value is expected.
                        if expectingValue && parserTrap == nil {
                            parserTrap = ParserTrap(position: position, context: "array", expected: "a value", found: "}")
                        }
                        advance()
                    } else {
                        expectingValue = false
                        guard fitsDepth(path, at: position) else { return }
                        scanValue(at: path.appending(index: element), key: nil)
                        element += 1
                    }
                    if index == before { advance() }
                }
                if current == "]" { advance() }
            case "\"":
                _ = scanBasicString()
            case "'":
                _ = scanLiteralString()
            default:
                // Numbers, booleans, dates and times (which may contain one space).
                let start = position
                var text = String.UnicodeScalarView()
                while let c = current, !",]}#\n\r".unicodeScalars.contains(c) {
                    text.append(c)
                    advance()
                }
                // toml++'s date and time parsers assume digits where its first look promised
                // them (`1979-05-27T&7:00` stops it at an assertion): what looks like a date or
                // a time goes to it only when well formed.
                if parserTrap == nil, Self.looksLikeDateOrTime(text), !Self.isWellFormedDateOrTime(text) {
                    parserTrap = ParserTrap(
                        position: start, context: "date-time",
                        expected: "a date or time as TOML writes one (1979-05-27, 07:32:00, 1979-05-27T07:32:00Z)",
                        found: Excerpt.of(String(text), maximumLength: 30))
                }
            }
        }

        /// A bare value that starts with a digit and has a `:`, or a `-` that is not an
        /// exponent's sign: what toml++ would read as a date or a time.
        private static func looksLikeDateOrTime(_ text: String.UnicodeScalarView) -> Bool {
            guard let first = text.first, ("0"..."9").contains(first) else { return false }
            var previous = first
            for c in text.dropFirst() {
                if c == ":" || (c == "-" && previous != "e" && previous != "E") { return true }
                previous = c
            }
            return false
        }

        /// TOML 1.0's dates and times: `1979-05-27`, `07:32:00.999`, and a date, `T` (or a
        /// space), a time and an optional offset (`Z`, `+01:00`). Trailing blanks are allowed.
        private static func isWellFormedDateOrTime(_ text: String.UnicodeScalarView) -> Bool {
            var s = Array(text)
            while let last = s.last, last == " " || last == "\t" { s.removeLast() }
            var i = 0
            func digits(_ n: Int) -> Bool {
                guard i + n <= s.count, s[i..<(i + n)].allSatisfy({ ("0"..."9").contains($0) }) else { return false }
                i += n
                return true
            }
            func take(_ c: Unicode.Scalar) -> Bool {
                guard i < s.count, s[i] == c else { return false }
                i += 1
                return true
            }
            func time() -> Bool {
                guard digits(2), take(":"), digits(2), take(":"), digits(2) else { return false }
                if take(".") {
                    guard digits(1) else { return false }
                    while digits(1) {}
                }
                return true
            }
            if s.count >= 3, s[2] == ":" { return time() && i == s.count }
            guard digits(4), take("-"), digits(2), take("-"), digits(2) else { return false }
            if i == s.count { return true }
            guard take("T") || take("t") || take(" "), time() else { return false }
            if i == s.count { return true }
            if take("Z") || take("z") { return i == s.count }
            guard take("+") || take("-"), digits(2), take(":"), digits(2) else { return false }
            return i == s.count
        }

        // MARK: Strings

        /// `"…"` or `"""…"""`, with escapes decoded (keys need their real text).
        private mutating func scanBasicString() -> String {
            let multiline = starts(with: "\"\"\"")
            advance(by: multiline ? 3 : 1)
            if multiline { skipNewline() }
            var text = String.UnicodeScalarView()
            var hasNUL = false
            while let c = current {
                if multiline, starts(with: "\"\"\"") {
                    advance(by: 3)
                    // Up to two more quotes belong to the content (`""""a"""""`).
                    var extra = 0
                    while extra < 2, current == "\"" {
                        text.append("\"")
                        advance()
                        extra += 1
                    }
                    break
                }
                if !multiline, c == "\"" { advance(); break }
                if !multiline, c == "\n" { break }
                let escape = position
                advance()
                guard c == "\\" else { text.append(c); continue }
                if scanEscape(into: &text, multiline: multiline), !hasNUL {
                    hasNUL = true
                    nulEscapes.append(escape)
                }
            }
            return String(text)
        }

        /// After a backslash in a basic string; returns whether the escape was a NUL.
        @discardableResult
        private mutating func scanEscape(into text: inout String.UnicodeScalarView, multiline: Bool) -> Bool {
            guard let e = current else { return false }
            advance()
            switch e {
            case "b": text.append("\u{08}")
            case "t": text.append("\t")
            case "n": text.append("\n")
            case "f": text.append("\u{0C}")
            case "r": text.append("\r")
            case "e": text.append("\u{1B}")
            case "\"": text.append("\"")
            case "\\": text.append("\\")
            case "x": return appendHexScalar(digits: 2, to: &text) == "\0"
            case "u": return appendHexScalar(digits: 4, to: &text) == "\0"
            case "U": return appendHexScalar(digits: 8, to: &text) == "\0"
            case " ", "\t", "\r", "\n":
                // In a multi-line string a line-ending backslash swallows the newline and the
                // blanks after it.
                guard multiline else { text.append(e); return false }
                while let c = current, c == " " || c == "\t" || c == "\r" || c == "\n" { advance() }
            default: text.append(e)
            }
            return false
        }

        /// Reads up to `digits` hex digits and appends the scalar they make, which it returns.
        @discardableResult
        private mutating func appendHexScalar(digits: Int, to text: inout String.UnicodeScalarView) -> Unicode.Scalar? {
            var value: UInt32 = 0
            for _ in 0..<digits {
                guard let c = current, let digit = Int(String(c), radix: 16) else { break }
                value = value * 16 + UInt32(digit)
                advance()
            }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            text.append(scalar)
            return scalar
        }

        /// `'…'` or `'''…'''`, which have no escapes.
        private mutating func scanLiteralString() -> String {
            let multiline = starts(with: "'''")
            advance(by: multiline ? 3 : 1)
            if multiline { skipNewline() }
            var text = String.UnicodeScalarView()
            while let c = current {
                if multiline, starts(with: "'''") {
                    advance(by: 3)
                    var extra = 0
                    while extra < 2, current == "'" {
                        text.append("'")
                        advance()
                        extra += 1
                    }
                    break
                }
                if !multiline, c == "'" || c == "\n" {
                    if c == "'" { advance() }
                    break
                }
                text.append(c)
                advance()
            }
            return String(text)
        }

        // MARK: Characters and positions

        private var position: Position { Position(line: line, column: column) }

        private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        private func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        private func starts(with text: String) -> Bool {
            var i = index
            for c in text.unicodeScalars {
                guard i < scalars.count, scalars[i] == c else { return false }
                i += 1
            }
            return true
        }

        private mutating func advance(by count: Int = 1) {
            for _ in 0..<count {
                guard index < scalars.count else { return }
                if scalars[index] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
            }
        }

        private mutating func skipSpaces() {
            while current == " " || current == "\t" { advance() }
        }

        private mutating func skipNewline() {
            if current == "\r" { advance() }
            if current == "\n" { advance() }
        }

        /// Blanks and comments, and newlines too when `newlines` is set.
        private mutating func skipTrivia(newlines: Bool) {
            while let c = current {
                if c == " " || c == "\t" || (newlines && (c == "\n" || c == "\r")) {
                    advance()
                } else if c == "#" {
                    while let c = current, c != "\n" { advance() }
                } else {
                    return
                }
            }
        }
    }
}
