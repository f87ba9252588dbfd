/// Strings, numbers, booleans, dates and times.
extension TOMLParser {
    // MARK: - Strings

    /// `"…"` or `"""…"""`, escapes decoded.
    mutating func parseBasicString() throws(TOMLSyntaxError) -> String {
        try parseString(quote: .quote, escapes: true)
    }

    /// `'…'` or `'''…'''`, which have no escapes.
    mutating func parseLiteralString() throws(TOMLSyntaxError) -> String {
        try parseString(quote: .apostrophe, escapes: false)
    }

    private mutating func parseString(quote: UInt8, escapes: Bool) throws(TOMLSyntaxError) -> String {
        let context = "string"
        let opening = position
        let multiline = starts(with: [quote, quote, quote])
        advance()
        if multiline {
            advance()
            advance()
            // A line end right after the opening quotes is not part of the string.
            if current == .lineFeed || (current == .carriageReturn && peek(1) == .lineFeed) {
                try skipNewlineInString()
            }
        }
        let closing = String(repeating: Character(Unicode.Scalar(quote)), count: multiline ? 3 : 1)
        // Where it starts is where to look: the line it ends on may be far below, or fine.
        let unclosed = TOMLSyntaxError(.syntax(context: context, detail: multiline
            ? "the string that starts here is not closed: the text ends before its closing \(closing)"
            : "the string that starts here has no closing \(closing) on its line: add the \(closing) where the string ends"),
            at: opening)
        var text: [UInt8] = []
        var sawNUL = false
        while true {
            guard let byte = current else { throw unclosed }
            switch byte {
            case quote:
                guard multiline else {
                    advance()
                    return String(decoding: text, as: UTF8.self)
                }
                var quotes = 0
                while peek(quotes) == quote { quotes += 1 }
                if quotes < 3 {
                    for _ in 0..<quotes { text.append(quote); advance() }
                    continue
                }
                // Up to two quotes before the closing three belong to the string.
                guard quotes <= 5 else {
                    for _ in 0..<5 { advance() }
                    throw TOMLSyntaxError(.syntax(context: context, detail: "expected a new line or a comment after the string, saw \(seen)"), at: position)
                }
                for _ in 0..<(quotes - 3) { text.append(quote) }
                for _ in 0..<quotes { advance() }
                return String(decoding: text, as: UTF8.self)
            case .backslash where escapes:
                let escape = position
                advance()
                if try parseEscape(into: &text, multiline: multiline, at: escape), !sawNUL {
                    sawNUL = true
                    recordNUL(at: escape)
                }
            case .lineFeed, .carriageReturn:
                guard multiline else { throw unclosed }
                try skipNewlineInString()
                text.append(.lineFeed)
            case let byte where byte.isControl && byte != .tab:
                throw TOMLSyntaxError(.syntax(context: context, detail:
                    "a string may not contain control characters other than tab\(escapes ? " (write them as escapes)" : ""), saw \(seen)"), at: position)
            default:
                text.append(byte)
                advance()
            }
        }
    }

    /// A line feed or a carriage return and a line feed, in a multi-line string.
    private mutating func skipNewlineInString() throws(TOMLSyntaxError) {
        if current == .carriageReturn {
            guard peek(1) == .lineFeed else {
                throw TOMLSyntaxError(.syntax(context: "string", detail: "a carriage return must be followed by a line feed"), at: position)
            }
            advance()
        }
        advance()
    }

    /// After a backslash at `escape`; returns whether the escape was a NUL.
    private mutating func parseEscape(into text: inout [UInt8], multiline: Bool, at escape: TOMLPosition) throws(TOMLSyntaxError) -> Bool {
        guard let letter = current else { throw expected("an escape", context: "string") }
        func append(_ scalar: Unicode.Scalar) { text.append(contentsOf: UTF8.encode(scalar)!) }
        switch letter {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(.tab)
        case UInt8(ascii: "n"): text.append(.lineFeed)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(.carriageReturn)
        case .quote: text.append(.quote)
        case .backslash: text.append(.backslash)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = letter == UInt8(ascii: "u") ? 4 : 8
            advance()
            var value: UInt32 = 0
            for _ in 0..<digits {
                guard let byte = current, let digit = byte.hexValue else {
                    throw TOMLSyntaxError(.syntax(context: "string", detail:
                        "\\\(Character(Unicode.Scalar(letter))) takes \(digits) hexadecimal digits, saw \(seen)"), at: escape)
                }
                value = value << 4 | UInt32(digit)
                advance()
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw TOMLSyntaxError(.syntax(context: "string", detail:
                    "\\\(Character(Unicode.Scalar(letter)))\(String(value, radix: 16, uppercase: true)) is not a Unicode scalar value"), at: escape)
            }
            append(scalar)
            return value == 0
        case .space, .tab, .lineFeed, .carriageReturn:
            // A backslash that ends a line removes the line end and the blanks after it.
            guard multiline else { throw unknownEscape(at: escape) }
            while current == .space || current == .tab { advance() }
            guard current == .lineFeed || current == .carriageReturn else {
                throw TOMLSyntaxError(.syntax(context: "string", detail:
                    "a backslash followed by a blank must end the line"), at: escape)
            }
            while let byte = current, byte == .space || byte == .tab || byte == .lineFeed || byte == .carriageReturn {
                if byte == .carriageReturn { try skipNewlineInString() } else { advance() }
            }
            return false
        default:
            throw unknownEscape(at: escape)
        }
        advance()
        return false
    }

    /// The escape at `escape`, whose letter is the current character, is not TOML's.
    private func unknownEscape(at escape: TOMLPosition) -> TOMLSyntaxError {
        TOMLSyntaxError(.syntax(context: "string", detail:
            "unknown escape \\\(seen.dropFirst().dropLast()): a basic string knows \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX and \\UXXXXXXXX"),
            at: escape)
    }

    // MARK: - Numbers, booleans, dates and times

    /// A value that is not a string, an array or a table: one token of letters, digits and
    /// `+ - . _ :`, and for a date with a time after a space, the time too.
    mutating func parseBareValue(context: String) throws(TOMLSyntaxError) -> TOMLNode.Value {
        let start = position
        let first = currentOffset
        var end = first
        while end < endOffset, byte(at: end).isValueToken { end += 1 }
        // `1979-05-27 07:32:00`: a full date, one space, and a digit after it.
        if end - first == 10, end + 1 < endOffset, byte(at: end) == .space, byte(at: end + 1).isDigit,
           byte(at: first + 4) == .minus, byte(at: first + 7) == .minus {
            end += 1
            while end < endOffset, byte(at: end).isValueToken { end += 1 }
        }
        guard end > first else { throw expected("a value", context: context, hint: missingValueHint) }
        let token = text(first..<end)
        advance(overASCII: end - first)

        switch token.count {
        case 4 where token.elementsEqual("true".utf8): return .boolean(true)
        case 5 where token.elementsEqual("false".utf8): return .boolean(false)
        default: break
        }
        if let special = Self.specialFloat(token) { return .float(special) }
        guard let lead = token.first, lead.isDigit || lead == .plus || lead == .minus else {
            throw TOMLSyntaxError(.syntax(context: context, detail:
                "expected a value (a string, number, boolean, date, array or inline table), saw '\(Self.excerpt(token))'"
                    + Self.bareWordHint(token, line: text(first..<restOfLine.endIndex), inArray: context != "key-value pair")), at: start)
        }
        // The token is ASCII, on one line: its n-th byte is n columns on.
        func at(_ index: Int) -> TOMLPosition { TOMLPosition(line: start.line, column: start.column + index) }
        if lead.isDigit, Self.looksLikeDateOrTime(token) {
            switch Self.dateTime(token) {
            case .value(let dateTime): return .dateTime(dateTime)
            case .outOfRange(let field, let index, let range, let value):
                throw TOMLSyntaxError(.syntax(context: "date-time", detail:
                    "the \(field) must be from \(range.lowerBound) to \(range.upperBound), not \(value)"), at: at(index))
            case .malformed:
                throw TOMLSyntaxError(.syntax(context: "date-time", detail:
                    "expected a date or time as TOML writes one (1979-05-27, 07:32:00, 1979-05-27T07:32:00Z), saw '\(Self.excerpt(token))'"),
                    at: start)
            }
        }
        switch Self.number(token) {
        case .integer(let integer): return .integer(integer)
        case .float(let float): return .float(float)
        case .outOfRange:
            throw TOMLSyntaxError(.syntax(context: "integer", detail:
                "'\(Self.excerpt(token))' is out of range: TOML integers are 64-bit, from -9223372036854775808 to 9223372036854775807"),
                at: start)
        case .malformed(let index):
            let what = index < token.count ? "'\(Character(Unicode.Scalar(token[token.startIndex + index])))'" : "its end"
            // `10px`, `1.5s`: a number with its unit, which the key's name already says.
            let rest = token.dropFirst(index)
            let radixPrefix = token.count > 1 && token.first == UInt8(ascii: "0") && "xob".utf8.contains(token[token.startIndex + 1])
            let unit = index > 0 && !radixPrefix && !rest.isEmpty && rest.allSatisfy { (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) }
            throw TOMLSyntaxError(.syntax(context: "number", detail:
                "'\(Self.excerpt(token))' is not a TOML integer or float (such as 42, -17, 1_000, 0x1F, 3.14, -2e-3): \(what) is not expected there"
                    + (unit ? "; a number is written without a unit" : "")),
                at: at(index))
        }
    }

    /// Where a value should be and is not: what was likely meant.
    private var missingValueHint: String {
        switch current {
        case nil, .lineFeed?, .carriageReturn?, .hash?:
            ": write the value after the ="
        case .equals?:
            ": one = joins a key and its value"
        case 0xE2? where peek(1) == 0x80 && [0x98, 0x99, 0x9C, 0x9D].contains(peek(2)):
            // ‘ ’ “ ”: quotes a word processor or a web page made.
            ": TOML's quotes are the straight \" and ', not curly ones"
        default:
            ""
        }
    }

    /// A word where a value should be: `swipe` for `"swipe"`, `yes` for `true`.
    ///
    /// - Parameters:
    ///   - token: the word.
    ///   - line: the text from the word to the end of its line.
    ///   - inArray: the word is in an array or inline table, where a `,` ends a value.
    private static func bareWordHint(_ token: ArraySlice<UInt8>, line: ArraySlice<UInt8>, inArray: Bool) -> String {
        let word = String(decoding: token, as: UTF8.self)
        if ["yes", "no", "on", "off", "true", "false"].contains(word.lowercased())
            || (token.count >= 2 && ("true".hasPrefix(word) || "false".hasPrefix(word))) {
            return ": a boolean is written true or false"
        }
        // The text a person meant: up to a comment, or to the next element in an array.
        var end = line.firstIndex(of: .hash) ?? line.endIndex
        if inArray, let stop = line.firstIndex(where: { $0 == .comma || $0 == .closeBracket || $0 == .closeBrace }), stop < end { end = stop }
        var meant = line[line.startIndex..<end]
        while let last = meant.last, last == .space || last == .tab || last == .carriageReturn { meant = meant.dropLast() }
        let quote = meant.contains(.quote) && !meant.contains(.apostrophe) ? "'" : "\""
        return ": text is written in quotes: \(quote)\(excerpt(meant))\(quote)"
    }

    /// At most 30 characters of a token, for a message.
    private static func excerpt(_ token: ArraySlice<UInt8>) -> String {
        token.count <= 30 ? String(decoding: token, as: UTF8.self) : String(decoding: token.prefix(30), as: UTF8.self) + "…"
    }

    private static func specialFloat(_ token: ArraySlice<UInt8>) -> Double? {
        var rest = token
        var sign = 1.0
        if let lead = rest.first, lead == .plus || lead == .minus {
            sign = lead == .minus ? -1 : 1
            rest = rest.dropFirst()
        }
        if rest.elementsEqual("inf".utf8) { return sign * .infinity }
        if rest.elementsEqual("nan".utf8) { return sign < 0 ? -.nan : .nan }
        return nil
    }

    /// A token that starts with a digit and has a `:`, or a `-` that is not an exponent's sign.
    private static func looksLikeDateOrTime(_ token: ArraySlice<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in token {
            if byte == .colon || (byte == .minus && previous != UInt8(ascii: "e") && previous != UInt8(ascii: "E")) { return true }
            previous = byte
        }
        return false
    }

    enum Number {
        case integer(Int), float(Double), outOfRange
        /// Neither: the token is wrong from its `index`-th byte on.
        case malformed(at: Int)
    }

    /// An integer (decimal, or `0x`, `0o`, `0b`) or a float, as TOML 1.0 writes them: `_` only
    /// between digits, no leading zeros in decimal.
    static func number(_ token: ArraySlice<UInt8>) -> Number {
        let bytes = Array(token)
        var i = 0
        func digits(radix: UInt8) -> [UInt8]? {
            var kept: [UInt8] = []
            var afterDigit = false
            while i < bytes.count {
                let byte = bytes[i]
                if let value = byte.hexValue, value < radix {
                    kept.append(byte)
                    afterDigit = true
                } else if byte == .underscore, afterDigit, i + 1 < bytes.count, bytes[i + 1].hexValue.map({ $0 < radix }) == true {
                    afterDigit = false
                } else {
                    break
                }
                i += 1
            }
            return kept.isEmpty ? nil : kept
        }
        // 0x, 0o, 0b: no sign, leading zeros allowed.
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let radix: UInt8? = switch bytes[1] {
            case UInt8(ascii: "x"): 16
            case UInt8(ascii: "o"): 8
            case UInt8(ascii: "b"): 2
            default: nil
            }
            if let radix {
                i = 2
                guard let kept = digits(radix: radix), i == bytes.count else { return .malformed(at: i) }
                guard let value = Int(String(decoding: kept, as: UTF8.self), radix: Int(radix)) else { return .outOfRange }
                return .integer(value)
            }
        }
        var sign: [UInt8] = []
        if bytes.first == .plus || bytes.first == .minus {
            if bytes[0] == .minus { sign = [.minus] }
            i = 1
        }
        let integerStart = i
        guard let integerPart = digits(radix: 10) else { return .malformed(at: i) }
        // No leading zeros: `0` alone, or a digit from 1.
        if integerPart.count > 1, bytes[integerStart] == UInt8(ascii: "0") { return .malformed(at: integerStart + 1) }
        if i == bytes.count {
            guard let value = Int(String(decoding: sign + integerPart, as: UTF8.self)) else { return .outOfRange }
            return .integer(value)
        }
        var text = sign + integerPart
        if bytes[i] == .dot {
            i += 1
            guard let fraction = digits(radix: 10) else { return .malformed(at: i) }
            text += [.dot] + fraction
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            text.append(UInt8(ascii: "e"))
            if i < bytes.count, bytes[i] == .plus || bytes[i] == .minus {
                text.append(bytes[i])
                i += 1
            }
            guard let exponent = digits(radix: 10) else { return .malformed(at: i) }
            text += exponent
        }
        guard i == bytes.count else { return .malformed(at: i) }
        guard let value = Double(String(decoding: text, as: UTF8.self)) else { return .malformed(at: 0) }
        return .float(value)
    }

    enum DateTimeReading {
        case value(TOMLDateTime)
        /// Not written as TOML writes dates and times.
        case malformed
        /// Well formed, but a field is out of its range: which, where in the token, its range
        /// and its value.
        case outOfRange(field: String, at: Int, range: ClosedRange<Int>, value: Int)
    }

    /// TOML 1.0's dates and times (RFC 3339's, with a space allowed for the `T`): `1979-05-27`,
    /// `07:32:00.999`, and a date, `T`, a time and an optional offset (`Z`, `+01:00`); each
    /// field within its range (February 29th in leap years only).
    static func dateTime(_ token: ArraySlice<UInt8>) -> DateTimeReading {
        let s = Array(token)
        var i = 0
        var outOfRange: DateTimeReading? = nil
        func number(_ count: Int) -> Int? {
            guard i + count <= s.count, s[i..<(i + count)].allSatisfy(\.isDigit) else { return nil }
            defer { i += count }
            return s[i..<(i + count)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        /// A number of `count` digits, noting the first one out of `range`.
        func field(_ name: String, _ count: Int, _ range: ClosedRange<Int>) -> Int? {
            let start = i
            guard let value = number(count) else { return nil }
            if !range.contains(value), outOfRange == nil {
                outOfRange = .outOfRange(field: name, at: start, range: range, value: value)
            }
            return value
        }
        func take(_ characters: String) -> Bool {
            guard i < s.count, characters.utf8.contains(s[i]) else { return false }
            i += 1
            return true
        }
        func time() -> TOMLDateTime.Time? {
            guard let hour = field("hour", 2, 0...23), take(":"), let minute = field("minute", 2, 0...59),
                  take(":"), let second = field("second", 2, 0...60)
            else { return nil }
            var nanosecond = 0
            if take(".") {
                let first = i
                while i < s.count, s[i].isDigit { i += 1 }
                guard i > first else { return nil }
                for (n, digit) in s[first..<min(i, first + 9)].enumerated() {
                    nanosecond += Int(digit - 0x30) * [100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1][n]
                }
            }
            return TOMLDateTime.Time(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
        }
        /// The value read, unless a field was out of range.
        func checked(_ value: TOMLDateTime?) -> DateTimeReading {
            guard let value, i == s.count else { return .malformed }
            return outOfRange ?? .value(value)
        }
        if s.count > 2, s[2] == .colon {
            return checked(time().map { TOMLDateTime(date: nil, time: $0, offsetMinutes: nil) })
        }
        let dayStart = 8
        guard let year = number(4), take("-"), let month = field("month", 2, 1...12), take("-"), let day = number(2)
        else { return .malformed }
        if outOfRange == nil, !(1...daysIn(month: month, year: year)).contains(day) {
            outOfRange = .outOfRange(field: "day", at: dayStart, range: 1...daysIn(month: month, year: year), value: day)
        }
        let date = TOMLDateTime.Date(year: year, month: month, day: day)
        if i == s.count { return checked(TOMLDateTime(date: date, time: nil, offsetMinutes: nil)) }
        guard take("Tt "), let time = time() else { return .malformed }
        if i == s.count { return checked(TOMLDateTime(date: date, time: time, offsetMinutes: nil)) }
        if take("Zz") { return checked(TOMLDateTime(date: date, time: time, offsetMinutes: 0)) }
        let sign = i < s.count && s[i] == .minus ? -1 : 1
        guard take("+-"), let hours = field("hour of the offset", 2, 0...23), take(":"),
              let minutes = field("minute of the offset", 2, 0...59)
        else { return .malformed }
        return checked(TOMLDateTime(date: date, time: time, offsetMinutes: sign * (hours * 60 + minutes)))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension UInt8 {
    /// What a bare value (number, boolean, date, time) is made of: letters, digits, `+ - . _ :`.
    var isValueToken: Bool {
        isBareKey || self == .plus || self == .dot || self == .colon
    }

    /// The value of a hexadecimal digit.
    var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }
}
