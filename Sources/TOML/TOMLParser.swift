/// Reads TOML 1.0 text into the tables of a ``TOMLDocument``, keeping where every key and
/// value is written.
///
/// A recursive-descent parser over the text's UTF-8 bytes, in one pass. It recurses only
/// into arrays and inline tables, and checks the depth before each step down, so nesting
/// never goes past ``maximumDepth`` (in recursion or in the length of any path). It stops at
/// the first problem with a ``TOMLSyntaxError`` at the character that is wrong.
///
/// What TOML forbids besides its grammar is checked as each key or header is resolved: a key
/// defined twice, a table defined twice by headers, a header or a dotted key that reopens a
/// table defined another way (an inline table, a table of dotted keys under a header, a
/// header's table through dotted keys), a `[[a]]` for an `a` written as a plain array.
struct TOMLParser {
    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    /// The column of the scalar that starts at `offset`.
    private var column = 1
    private let maximumDepth: Int
    let root = Table(origin: .header, depth: 0)
    private(set) var nulEscapes: [TOMLPosition] = []

    init(_ text: String, maximumDepth: Int) {
        bytes = Array(text.utf8)
        self.maximumDepth = maximumDepth
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }  // a byte-order mark takes no column
    }

    // MARK: - The document

    mutating func parseDocument() throws(TOMLSyntaxError) {
        var table = root
        var path = TOMLPath()
        while true {
            skipBlanks()
            guard let byte = current else { return }
            switch byte {
            case .lineFeed, .carriageReturn:
                try skipNewline(context: "document")
            case .hash:
                try skipComment()
            case .openBracket:
                (table, path) = try parseHeader()
                try endOfLine(after: "the header", context: "table header")
            default:
                let value = try parseKeyValue(into: table, at: path, context: "key-value pair")
                try endOfLine(after: "the value", context: "key-value pair", value: value)
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`; returns the table it opens, and its path.
    private mutating func parseHeader() throws(TOMLSyntaxError) -> (Table, TOMLPath) {
        let start = position
        advance()
        let isArray = current == .openBracket
        if isArray { advance() }
        let context = "table header"
        let (parts, overflow) = try parseKey(context: context, limit: maximumDepth)
        if overflow == nil {
            skipBlanks()
            for _ in isArray ? 1...2 : 1...1 {
                guard current == .closeBracket else { throw expected("']'", context: context, hint: headerHint(parts, isArray: isArray)) }
                advance()
            }
        }

        var table = root
        var path = TOMLPath()
        for (n, part) in parts.enumerated() {
            // With an overflow, the last part read is not the header's last.
            let isLast = n == parts.count - 1 && overflow == nil
            guard table.depth < maximumDepth else { throw tooDeep(at: part.position) }
            guard let index = table.index[part.name] else {
                if isLast && isArray {
                    // The array, then its first table: one step for the key, one for the index.
                    guard table.depth + 1 < maximumDepth else { throw tooDeep(at: part.position) }
                    let element = Table(origin: .header, depth: table.depth + 2)
                    let array = ArrayOfValues([TOMLNode(value: .table(element), keyPosition: part.position, position: start)], ofTables: true)
                    table.add(part.name, TOMLNode(value: .array(array), keyPosition: part.position, position: start))
                    table = element
                    path = path.appending(part.name).appending(index: 0)
                } else {
                    let created = Table(origin: isLast ? .header : .implicit, depth: table.depth + 1)
                    table.add(part.name, TOMLNode(value: .table(created), keyPosition: part.position, position: start))
                    table = created
                    path = path.appending(part.name)
                }
                continue
            }
            path = path.appending(part.name)
            let existing = table.entries[index].value
            switch existing.value {
            case .table(let found) where isLast:
                guard !isArray else {
                    throw TOMLSyntaxError(.syntax(context: context, detail:
                        "'\(part.name)' is a table (\(Self.origin(of: found, existing))), not an array of tables"), at: part.position)
                }
                guard found.origin == .implicit else {
                    throw TOMLSyntaxError(.syntax(context: context, detail:
                        "the table '\(part.name)' is already defined (\(Self.origin(of: found, existing)))"), at: part.position)
                }
                // A table a longer header implied, defined now: it is where this header is.
                found.origin = .header
                table.entries[index].value.keyPosition = part.position
                table.entries[index].value.position = start
                table = found
            case .table(let found):
                guard found.origin != .inline else {
                    throw TOMLSyntaxError(.syntax(context: context, detail:
                        "'\(part.name)' is an inline table (\(existing.position)), which is complete as written"), at: part.position)
                }
                table = found
            case .array(let array) where array.ofTables:
                guard table.depth + 1 < maximumDepth else { throw tooDeep(at: part.position) }
                if isLast {
                    guard isArray else {
                        throw TOMLSyntaxError(.tableHeaderForArrayOfTables(array: path, first: existing.position), at: part.position)
                    }
                    let element = Table(origin: .header, depth: table.depth + 2)
                    array.elements.append(TOMLNode(value: .table(element), keyPosition: part.position, position: start))
                    table = element
                } else {
                    // A header below an array of tables is in its latest table.
                    guard case .table(let latest) = array.elements[array.elements.count - 1].value else { preconditionFailure("an array of tables holds tables") }
                    table = latest
                }
                path = path.appending(index: array.elements.count - 1)
            default:
                throw TOMLSyntaxError(.syntax(context: context, detail:
                    "'\(part.name)' is already \(existing.kind.noun) (\(existing.position)), not a table"), at: part.position)
            }
        }
        if let overflow { throw tooDeep(at: overflow) }
        return (table, path)
    }

    /// `a.b = value`, into `table`, whose path is `path` (`nil`: an inline table's, which the
    /// parser does not follow). Returns the value's first character.
    @discardableResult
    private mutating func parseKeyValue(into table: Table, at path: TOMLPath?, context: String) throws(TOMLSyntaxError) -> UInt8? {
        let (parts, overflow) = try parseKey(context: context, limit: maximumDepth - table.depth)
        if let overflow { throw tooDeep(at: overflow) }
        skipBlanks()
        try expect(.equals, after: parts, context: context)
        skipBlanks()

        var target = table
        for part in parts.dropLast() {
            guard let index = target.index[part.name] else {
                let created = Table(origin: .dotted, depth: target.depth + 1)
                target.add(part.name, TOMLNode(value: .table(created), keyPosition: part.position, position: part.position))
                target = created
                continue
            }
            let existing = target.entries[index].value
            guard case .table(let found) = existing.value else {
                throw TOMLSyntaxError(.syntax(context: context, detail:
                    "'\(part.name)' is already \(existing.kind.noun) (\(existing.position)), not a table"), at: part.position)
            }
            switch found.origin {
            case .dotted: break
            case .implicit: found.origin = .dotted
            case .header, .inline:
                throw TOMLSyntaxError(.syntax(context: context, detail:
                    "a dotted key cannot add to the table '\(part.name)' (\(Self.origin(of: found, existing)))"), at: part.position)
            }
            target = found
        }
        let last = parts[parts.count - 1]
        if let index = target.index[last.name] {
            let first = target.entries[index].value.keyPosition ?? target.entries[index].value.position
            let keyPath = path.map { parts.reduce($0) { $0.appending($1.name) } }
            throw TOMLSyntaxError(.duplicateKey(name: last.name, path: keyPath, first: first), at: last.position)
        }
        let start = position
        let opener = current
        let value = try parseValue(depth: target.depth + 1, context: context)
        target.add(last.name, TOMLNode(value: value, keyPosition: last.position, position: start))
        return opener
    }

    /// A possibly dotted key: its parts, unquoted and unescaped, each with where it starts.
    /// A part past `limit` is not read: where it starts comes back as `overflow`.
    private mutating func parseKey(context: String, limit: Int) throws(TOMLSyntaxError) -> (parts: [KeyPart], overflow: TOMLPosition?) {
        var parts: [KeyPart] = []
        while true {
            skipBlanks()
            let start = position
            if parts.count >= limit { return (parts, start) }
            let name: String
            switch current {
            case .quote:
                guard !starts(with: [.quote, .quote, .quote]) else {
                    throw TOMLSyntaxError(.syntax(context: context, detail: "a key cannot be a multi-line string"), at: start)
                }
                name = try parseBasicString()
            case .apostrophe:
                guard !starts(with: [.apostrophe, .apostrophe, .apostrophe]) else {
                    throw TOMLSyntaxError(.syntax(context: context, detail: "a key cannot be a multi-line string"), at: start)
                }
                name = try parseLiteralString()
            case let byte? where byte.isBareKey:
                let first = offset
                while let byte = current, byte.isBareKey { advance() }
                name = String(decoding: bytes[first..<offset], as: UTF8.self)
            default:
                throw expected("a key", context: context)
            }
            parts.append(KeyPart(name: name, position: start))
            skipBlanks()
            guard current == .dot else { return (parts, nil) }
            advance()
        }
    }

    struct KeyPart {
        var name: String
        var position: TOMLPosition
    }

    // MARK: - Values

    /// A value whose own path has `depth` steps.
    mutating func parseValue(depth: Int, context: String) throws(TOMLSyntaxError) -> TOMLNode.Value {
        switch current {
        case .quote: .string(try parseBasicString())
        case .apostrophe: .string(try parseLiteralString())
        case .openBracket: try parseArray(depth: depth)
        case .openBrace: try parseInlineTable(depth: depth)
        default: try parseBareValue(context: context)
        }
    }

    private mutating func parseArray(depth: Int) throws(TOMLSyntaxError) -> TOMLNode.Value {
        let context = "array"
        let opening = position
        advance()
        let array = ArrayOfValues([], ofTables: false)
        while true {
            try skipTrivia(context: context)
            if current == .closeBracket {
                advance()
                break
            }
            let start = position
            guard depth < maximumDepth else { throw tooDeep(at: start) }
            let value = try parseValue(depth: depth + 1, context: context)
            array.elements.append(TOMLNode(value: value, keyPosition: nil, position: start))
            try skipTrivia(context: context)
            switch current {
            case .comma: advance()
            case .closeBracket:
                advance()
                return .array(array)
            default:
                // An array may span lines: what is found on a later line may be the next key.
                let unclosed = position.line != opening.line || current == nil
                let hint = unclosed ? ": the array that starts at \(opening) is not closed"
                    : current.map { $0.isBareKey || $0 == .quote || $0 == .apostrophe || $0 == .openBracket || $0 == .openBrace } == true
                    ? ": the values of an array are separated by ','" : ""
                throw expected("',' or ']'", context: context, hint: hint)
            }
        }
        return .array(array)
    }

    /// `{ a = 1, b.c = 2 }`: on one line, without a trailing comma (TOML 1.0).
    private mutating func parseInlineTable(depth: Int) throws(TOMLSyntaxError) -> TOMLNode.Value {
        let context = "inline table"
        advance()
        let table = Table(origin: .inline, depth: depth)
        skipBlanks()
        if current == .closeBrace {
            advance()
            return .table(table)
        }
        while true {
            try parseKeyValue(into: table, at: nil, context: context)
            skipBlanks()
            switch current {
            case .comma: advance()
            case .closeBrace:
                advance()
                return .table(table)
            case .lineFeed?, .carriageReturn?, nil:
                throw expected("',' or '}'", context: context, hint: ": an inline table { … } is written on one line; a table over several lines is a [header] and its keys")
            default: throw expected("',' or '}'", context: context)
            }
        }
    }

    // MARK: - Blanks, comments, line ends

    private mutating func skipBlanks() {
        while let byte = current, byte == .space || byte == .tab { advance() }
    }

    /// A line feed, or a carriage return and a line feed.
    private mutating func skipNewline(context: String) throws(TOMLSyntaxError) {
        if current == .carriageReturn {
            guard peek(1) == .lineFeed else {
                throw TOMLSyntaxError(.syntax(context: context, detail: "a carriage return must be followed by a line feed"), at: position)
            }
            advance()
        }
        advance()
    }

    /// `# …` to the end of the line (not the line feed).
    private mutating func skipComment() throws(TOMLSyntaxError) {
        advance()
        while let byte = current, byte != .lineFeed {
            if byte.isControl && byte != .tab && !(byte == .carriageReturn && peek(1) == .lineFeed) {
                throw TOMLSyntaxError(.syntax(context: "comment", detail:
                    "a comment may not contain control characters other than tab, saw \(seen)"), at: position)
            }
            advance()
        }
    }

    /// Blanks, line ends and comments, between the values of an array.
    private mutating func skipTrivia(context: String) throws(TOMLSyntaxError) {
        while let byte = current {
            switch byte {
            case .space, .tab: advance()
            case .lineFeed, .carriageReturn: try skipNewline(context: context)
            case .hash: try skipComment()
            default: return
            }
        }
    }

    /// After a header or a key/value pair: blanks, a comment, then the end of the line.
    /// `value`: the first character of the pair's value (what it was, for the message).
    private mutating func endOfLine(after what: String, context: String, value: UInt8? = nil) throws(TOMLSyntaxError) {
        skipBlanks()
        if current == .hash { try skipComment() }
        guard let byte = current else { return }
        guard byte == .lineFeed || byte == .carriageReturn else {
            throw expected("a new line or a comment after \(what)", context: context, hint: afterValueHint(value: value))
        }
        try skipNewline(context: context)
    }

    // MARK: - Hints for the common slips

    /// Why more follows a value or a header on its line, as far as the text says.
    private func afterValueHint(value: UInt8?) -> String {
        guard let byte = current else { return "" }
        if value == .quote, restOfLine.contains(.quote) {
            return ": the string ended at the \" before it; write a \" inside a string as \\\" (or put the string in '…')"
        }
        if value == .apostrophe, restOfLine.contains(.apostrophe) {
            return ": the string ended at the ' before it; a string in '…' cannot hold a ' (put it in \"…\")"
        }
        if byte == .comma || byte == UInt8(ascii: ";") {
            return ": nothing but a comment follows a value on its line (no ',' or ';')"
        }
        return value == nil ? ": a header stands on a line of its own" : ": each key = value is on a line of its own"
    }

    /// A header's missing `]`: how the header is written, when the line ended too soon.
    private func headerHint(_ parts: [KeyPart], isArray: Bool) -> String {
        switch current {
        case nil, .lineFeed?, .carriageReturn?, .hash?:
            let name = Self.written(parts)
            return ": write the header as " + (isArray ? "[[\(name)]]" : "[\(name)]")
        case let byte? where byte.isBareKey || byte == .quote || byte == .apostrophe:
            return ": a key without quotes has no spaces"
        default:
            return ""
        }
    }

    /// A key/value pair's missing `=`: what was likely meant.
    private func equalsHint(_ parts: [KeyPart]) -> String {
        switch current {
        case .colon?:
            let key = Self.written(parts)
            return ": TOML writes \(key) = value, not \(key): value"
        case nil, .lineFeed?, .carriageReturn?, .hash?:
            return ": a line holds a key = value, a [header] or a comment"
        case let byte? where byte.isBareKey:
            return ": a key without quotes has no spaces"
        default:
            return ": put = between the key and its value"
        }
    }

    /// The bytes from here to the end of the line.
    var restOfLine: ArraySlice<UInt8> {
        let end = bytes[offset...].firstIndex(of: .lineFeed) ?? bytes.endIndex
        return bytes[offset..<end]
    }

    /// A key as a message quotes it: its parts joined by `.`, as a path describes them.
    static func written(_ parts: [KeyPart]) -> String {
        TOMLPath(parts.map { .key($0.name) }).description
    }

    // MARK: - Characters and positions

    var position: TOMLPosition { TOMLPosition(line: line, column: column) }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func peek(_ distance: Int) -> UInt8? {
        offset + distance < bytes.count ? bytes[offset + distance] : nil
    }

    func starts(with prefix: [UInt8]) -> Bool {
        offset + prefix.count <= bytes.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
    }

    /// The byte at `offset`, which must exist.
    func byte(at offset: Int) -> UInt8 { bytes[offset] }

    var endOffset: Int { bytes.count }
    var currentOffset: Int { offset }

    func text(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    mutating func advance() {
        guard offset < bytes.count else { return }
        let byte = bytes[offset]
        offset += 1
        if byte == .lineFeed {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1  // the first byte of a scalar
        }
    }

    /// Moves over `count` ASCII bytes on one line.
    mutating func advance(overASCII count: Int) {
        offset += count
        column += count
    }

    mutating func recordNUL(at position: TOMLPosition) { nulEscapes.append(position) }

    /// What is at the current position, as a message quotes it: `'}'`, `'\n'`, or the end.
    var seen: String {
        guard offset < bytes.count else { return "the end of the text" }
        var decoder = UTF8()
        var iterator = bytes[offset...].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return "?" }
        switch scalar {
        case "\"": return "'\"'"
        case "'": return "\"'\""
        default: return "'" + scalar.escaped(asASCII: false) + "'"
        }
    }

    /// The `=` after the key `parts`.
    private mutating func expect(_ byte: UInt8, after parts: [KeyPart], context: String) throws(TOMLSyntaxError) {
        guard current == byte else {
            throw expected("'\(Character(Unicode.Scalar(byte)))' after the key '\(Self.written(parts))'", context: context, hint: equalsHint(parts))
        }
        advance()
    }

    /// `expected WHAT, saw …`, then `hint` (which starts with its own `: `).
    func expected(_ what: String, context: String, hint: String = "") -> TOMLSyntaxError {
        TOMLSyntaxError(.syntax(context: context, detail: "expected \(what), saw \(seen)\(hint)"), at: position)
    }

    func tooDeep(at position: TOMLPosition) -> TOMLSyntaxError {
        TOMLSyntaxError(.tooDeep(limit: maximumDepth), at: position)
    }

    /// How a table was defined, and where, for messages.
    static func origin(of table: Table, _ node: TOMLNode) -> String {
        switch table.origin {
        case .header: "by its header at \(node.position)"
        case .dotted: "by dotted keys at \(node.position)"
        case .inline: "inline at \(node.position)"
        case .implicit: "by a longer header at \(node.position)"
        }
    }
}

// MARK: - Storage

extension TOMLParser {
    /// A table as it is built. Only the parser changes it, before any view of it exists.
    final class Table: @unchecked Sendable {
        /// How a table came to be, which decides what may add to it later.
        enum Origin {
            /// Implied by a longer header (`[a]` for `[a.b]`): a header may still define it.
            case implicit
            /// Defined by its header, or the root.
            case header
            /// Made by dotted keys: more dotted keys may add to it, a header not.
            case dotted
            /// Written inline: complete as written.
            case inline
        }

        var origin: Origin
        /// The number of steps in its path.
        let depth: Int
        var entries: [(key: String, value: TOMLNode)] = []
        var index: [String: Int] = [:]

        init(origin: Origin, depth: Int) {
            self.origin = origin
            self.depth = depth
        }

        func add(_ key: String, _ node: TOMLNode) {
            index[key] = entries.count
            entries.append((key, node))
        }

        /// Sorts the entries by key, here and below.
        func finish() {
            if !entries.indices.dropFirst().allSatisfy({ entries[$0 - 1].key.utf8.lexicographicallyPrecedes(entries[$0].key.utf8) }) {
                entries.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                for (position, entry) in entries.enumerated() { index[entry.key] = position }
            }
            for entry in entries { entry.value.finish() }
        }
    }

    /// An array as it is built; an array of tables grows with each `[[…]]` header.
    final class ArrayOfValues: @unchecked Sendable {
        var elements: [TOMLNode]
        /// Made by `[[…]]` headers (which may add to it), not written as a value.
        let ofTables: Bool

        init(_ elements: [TOMLNode], ofTables: Bool) {
            self.elements = elements
            self.ofTables = ofTables
        }
    }
}

extension TOMLNode {
    func finish() {
        switch value {
        case .table(let table): table.finish()
        case .array(let array): for element in array.elements { element.finish() }
        default: break
        }
    }
}

extension UInt8 {
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let apostrophe = UInt8(ascii: "'")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let colon = UInt8(ascii: ":")
    static let equals = UInt8(ascii: "=")
    static let openBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let closeBracket = UInt8(ascii: "]")
    static let underscore = UInt8(ascii: "_")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    /// `A-Z a-z 0-9 _ -`.
    var isBareKey: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || isDigit || self == .underscore || self == .minus
    }

    var isDigit: Bool { (0x30...0x39).contains(self) }

    /// U+0000–U+001F and U+007F.
    var isControl: Bool { self < 0x20 || self == 0x7F }
}
