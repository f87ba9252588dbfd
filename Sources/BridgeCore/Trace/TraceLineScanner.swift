/// The value of a field the trace format knows, as found on a line. Containers are validated and
/// skipped, never built: no trace field holds one, so their contents only matter for syntax.
enum TraceFieldValue: Hashable, Sendable {
    case number(Double)
    /// A number too large for a Double (`1e999`), with its text as written.
    case nonFiniteNumber(String)
    case string(String)
    case bool(Bool)
    case null
    case array
    case object
    /// The `monitors` of a `screen` event: each element's fields, checked by the reader.
    case monitors([TraceMonitorFields])
    /// An array whose elements are all strings (`mods`), decoded.
    case strings([String])

    /// What the value is, for messages: "a string", "an array".
    var kindDescription: String {
        switch self {
        case .number, .nonFiniteNumber: "a number"
        case .string: "a string"
        case .bool: "a boolean"
        case .null: "null"
        case .array, .monitors, .strings: "an array"
        case .object: "an object"
        }
    }
}

/// The known fields of one line, indexed by ``TraceKey``. Reused from line to line, so parsing a
/// line allocates nothing for its fields.
struct TraceFields {
    private var values = [TraceFieldValue?](repeating: nil, count: TraceKey.allCases.count)

    subscript(key: TraceKey) -> TraceFieldValue? {
        get { values[key.rawValue] }
        set { values[key.rawValue] = newValue }
    }

    /// Forgets every field, keeping the storage.
    mutating func removeAll() {
        for index in values.indices { values[index] = nil }
    }
}

/// A small strict JSON (RFC 8259) parser for one trace line: exactly one object, whose known
/// fields it captures and whose other fields it validates and skips.
///
/// It works on the line's UTF-8 bytes (already checked by ``firstInvalidUTF8Offset(in:)``) and
/// reports problems with a 1-based column counted in characters (Unicode scalars).
struct TraceLineScanner {
    /// How deeply unknown fields may nest arrays and objects; deeper is refused rather than
    /// risking the stack on hostile input.
    static let maximumDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses `line` as one JSON object and stores its known fields in `fields` (which must
    /// start empty).
    static func scan(_ line: UnsafeBufferPointer<UInt8>, into fields: inout TraceFields) throws(TraceProblem) {
        var scanner = TraceLineScanner(line)
        try scanner.scanLine(into: &fields)
    }

    private mutating func scanLine(into fields: inout TraceFields) throws(TraceProblem) {
        skipWhitespace()
        if peek == ASCII.openBrace {
            try scanTopObject(into: &fields)
            skipWhitespace()
            guard position == bytes.count else {
                throw syntaxError("unexpected \(describeCurrent()) after the object")
            }
        } else {
            let kind = try scanValue(depth: 0, capture: false).kindDescription
            skipWhitespace()
            guard position == bytes.count else {
                throw syntaxError("unexpected \(describeCurrent()) after the value")
            }
            throw TraceProblem("expected a JSON object, found \(kind)")
        }
    }

    // MARK: Objects and arrays

    private mutating func scanTopObject(into fields: inout TraceFields) throws(TraceProblem) {
        position += 1
        skipWhitespace()
        if peek == ASCII.closeBrace {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            let keyStart = position
            let key = try scanKey()
            try scanColon()
            if let key {
                guard fields[key] == nil else {
                    throw TraceProblem("duplicate field \"\(key.name)\" at column \(column(of: keyStart))")
                }
                switch key {
                case .monitors where peek == ASCII.openBracket: fields[key] = try scanMonitors()
                case .mods where peek == ASCII.openBracket: fields[key] = try scanStrings()
                default: fields[key] = try scanValue(depth: 1, capture: true)
                }
            } else {
                _ = try scanValue(depth: 1, capture: false)
            }
            guard try scanObjectSeparator() else { return }
        }
    }

    private mutating func skipObject(depth: Int) throws(TraceProblem) {
        try checkDepth(depth)
        position += 1
        skipWhitespace()
        if peek == ASCII.closeBrace {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek == ASCII.quote else {
                throw syntaxError("expected a field name in double quotes, found \(describeCurrent())")
            }
            _ = try scanString()
            try scanColon()
            _ = try scanValue(depth: depth, capture: false)
            guard try scanObjectSeparator() else { return }
        }
    }

    /// Scans an array from its `[` to its `]`: `element` scans each element (from its first
    /// character); the commas and the closing bracket are checked here.
    private mutating func scanElements(
        _ element: (inout TraceLineScanner) throws(TraceProblem) -> Void
    ) throws(TraceProblem) {
        position += 1
        skipWhitespace()
        if peek == ASCII.closeBracket {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            switch peek ?? 0 {
            case ASCII.comma: position += 1
            case ASCII.closeBracket:
                position += 1
                return
            default: throw syntaxError("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    /// Scans the `monitors` array: objects whose known fields (`name`, `x`, `y`, `width`,
    /// `height`) are captured; other fields are validated and skipped, as on the line.
    private mutating func scanMonitors() throws(TraceProblem) -> TraceFieldValue {
        var monitors: [TraceMonitorFields] = []
        try scanElements { (scanner) throws(TraceProblem) in
            monitors.append(try scanner.scanMonitor(number: monitors.count + 1))
        }
        return .monitors(monitors)
    }

    /// One object of `monitors`, the `number`th.
    private mutating func scanMonitor(number: Int) throws(TraceProblem) -> TraceMonitorFields {
        guard peek == ASCII.openBrace else {
            let kind = try scanValue(depth: 2, capture: false).kindDescription
            throw TraceProblem("monitor \(number) in \"monitors\" must be an object, found \(kind)")
        }
        var monitor = TraceMonitorFields()
        position += 1
        skipWhitespace()
        if peek == ASCII.closeBrace {
            position += 1
            return monitor
        }
        while true {
            skipWhitespace()
            let keyStart = position
            guard peek == ASCII.quote else {
                throw syntaxError("expected a field name in double quotes, found \(describeCurrent())")
            }
            let (content, escaped) = try scanString()
            let name = escaped ? String(decoding: decode(content), as: UTF8.self)
                : String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)
            try scanColon()
            if let field = TraceMonitorFields.Field(rawValue: name) {
                guard monitor[field] == nil else {
                    throw TraceProblem("duplicate field \"\(name)\" at column \(column(of: keyStart))")
                }
                monitor[field] = try scanValue(depth: 2, capture: true)
            } else {
                _ = try scanValue(depth: 2, capture: false)
            }
            guard try scanObjectSeparator() else { return monitor }
        }
    }

    /// Scans an array that should hold strings (`mods`): `.strings` with them decoded when it
    /// does, a plain `.array` (which the reader refuses by its kind) when an element is not one.
    private mutating func scanStrings() throws(TraceProblem) -> TraceFieldValue {
        var strings: [String] = []
        var allStrings = true
        try scanElements { (scanner) throws(TraceProblem) in
            if scanner.peek == ASCII.quote, allStrings, case .string(let text) = try scanner.scanValue(depth: 2, capture: true) {
                strings.append(text)
            } else {
                allStrings = false
                _ = try scanner.scanValue(depth: 2, capture: false)
            }
        }
        return allStrings ? .strings(strings) : .array
    }

    private mutating func skipArray(depth: Int) throws(TraceProblem) {
        try checkDepth(depth)
        try scanElements { (scanner) throws(TraceProblem) in _ = try scanner.scanValue(depth: depth, capture: false) }
    }

    /// Scans a field name; returns the known key it spells, or `nil` for an unknown field.
    private mutating func scanKey() throws(TraceProblem) -> TraceKey? {
        guard peek == ASCII.quote else {
            throw syntaxError("expected a field name in double quotes, found \(describeCurrent())")
        }
        let (content, escaped) = try scanString()
        if !escaped { return TraceKey(utf8: UnsafeBufferPointer(rebasing: bytes[content])) }
        return decode(content).withUnsafeBufferPointer { TraceKey(utf8: $0) }
    }

    private mutating func scanColon() throws(TraceProblem) {
        skipWhitespace()
        guard peek == ASCII.colon else {
            throw syntaxError("expected ':' after a field name, found \(describeCurrent())")
        }
        position += 1
        skipWhitespace()
    }

    /// After a field's value: `true` when a comma announces another field, `false` at `}`.
    private mutating func scanObjectSeparator() throws(TraceProblem) -> Bool {
        skipWhitespace()
        switch peek ?? 0 {
        case ASCII.comma:
            position += 1
            return true
        case ASCII.closeBrace:
            position += 1
            return false
        default: throw syntaxError("expected ',' or '}' after a field value, found \(describeCurrent())")
        }
    }

    private func checkDepth(_ depth: Int) throws(TraceProblem) {
        guard depth <= Self.maximumDepth else {
            throw syntaxError("arrays and objects nested deeper than \(Self.maximumDepth) levels")
        }
    }

    // MARK: Values

    /// Scans any value inside a container at `depth` (the line's object is depth 1). With
    /// `capture`, strings are decoded and numbers converted; without, they are only validated
    /// (unknown fields cost no allocation).
    private mutating func scanValue(depth: Int, capture: Bool) throws(TraceProblem) -> TraceFieldValue {
        switch peek ?? 0 {
        case ASCII.quote:
            let (content, escaped) = try scanString()
            guard capture else { return .string("") }
            if !escaped { return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)) }
            return .string(String(decoding: decode(content), as: UTF8.self))
        case ASCII.openBrace:
            try skipObject(depth: depth + 1)
            return .object
        case ASCII.openBracket:
            try skipArray(depth: depth + 1)
            return .array
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return try scanNumber(convert: capture)
        case UInt8(ascii: "t"):
            try scanLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try scanLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return .null
        default:
            throw syntaxError("expected a value, found \(describeWord())")
        }
    }

    private mutating func scanLiteral(_ literal: StaticString) throws(TraceProblem) {
        let start = position
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in text {
            guard peek == expected else {
                position = start
                throw syntaxError("expected a value, found \(describeWord())")
            }
            position += 1
        }
    }

    /// Scans a number per the JSON grammar (`-? int frac? exp?`; no `+`, no leading zeros, no
    /// `.5`, no `NaN`). Converts it when `convert` is set.
    private mutating func scanNumber(convert: Bool) throws(TraceProblem) -> TraceFieldValue {
        let start = position
        if peek == ASCII.minus { position += 1 }
        guard isDigit(peek) else { throw syntaxError("invalid number: expected a digit, found \(describeCurrent())") }
        if peek == ASCII.zero {
            position += 1
            guard !isDigit(peek) else { throw syntaxError("invalid number: leading zero", at: start) }
        } else {
            while isDigit(peek) { position += 1 }
        }
        var isPlainInteger = true
        if peek == ASCII.dot {
            isPlainInteger = false
            position += 1
            guard isDigit(peek) else {
                throw syntaxError("invalid number: expected a digit after '.', found \(describeCurrent())")
            }
            while isDigit(peek) { position += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isPlainInteger = false
            position += 1
            if peek == ASCII.plus || peek == ASCII.minus { position += 1 }
            guard isDigit(peek) else {
                throw syntaxError("invalid number: expected a digit in the exponent, found \(describeCurrent())")
            }
            while isDigit(peek) { position += 1 }
        }
        guard convert else { return .number(0) }

        let negative = bytes[start] == ASCII.minus
        let digitsStart = negative ? start + 1 : start
        // Up to 15 digits an integer is exact in a Double: skip the string round trip.
        if isPlainInteger && position - digitsStart <= 15 {
            var value = 0
            for index in digitsStart..<position { value = value * 10 + Int(bytes[index] - ASCII.zero) }
            return .number(negative ? -Double(value) : Double(value))
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else { throw syntaxError("invalid number", at: start) }
        return value.isFinite ? .number(value) : .nonFiniteNumber(text)
    }

    /// Scans a string from its opening quote, checking every escape (including `\uXXXX`
    /// surrogate pairs) and refusing raw control characters. Returns the range of its content
    /// between the quotes and whether it holds escapes.
    private mutating func scanString() throws(TraceProblem) -> (content: Range<Int>, escaped: Bool) {
        let opening = position
        position += 1
        let contentStart = position
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case ASCII.quote:
                position += 1
                return (contentStart..<(position - 1), escaped)
            case ASCII.backslash:
                escaped = true
                try scanEscape()
            case 0x00..<0x20:
                throw syntaxError("control character \(Self.scalarName(UInt32(byte))) in a string (write it as an escape)")
            default:
                position += 1
            }
        }
        throw syntaxError("unterminated string", at: opening)
    }

    private mutating func scanEscape() throws(TraceProblem) {
        let escapeStart = position
        position += 1
        guard position < bytes.count else { throw syntaxError("unterminated string") }
        switch bytes[position] {
        case ASCII.quote, ASCII.backslash, ASCII.slash,
            UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            position += 1
            let unit = try scanHex4(escapeStart: escapeStart)
            switch unit {
            case 0xD800...0xDBFF:
                let lowStart = position
                guard peek == ASCII.backslash, peek(at: position + 1) == UInt8(ascii: "u") else {
                    throw syntaxError("unpaired surrogate \\u\(Self.hex(unit)) in a string", at: escapeStart)
                }
                position += 2
                let low = try scanHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw syntaxError("unpaired surrogate \\u\(Self.hex(unit)) in a string", at: escapeStart)
                }
            case 0xDC00...0xDFFF:
                throw syntaxError("unpaired surrogate \\u\(Self.hex(unit)) in a string", at: escapeStart)
            default:
                break
            }
        default:
            let escape = (0x21...0x7E).contains(bytes[position])
                ? "'\\\(Character(Unicode.Scalar(bytes[position])))'" : "'\\' before \(describeCurrent())"
            throw syntaxError("invalid escape \(escape) in a string", at: escapeStart)
        }
    }

    private mutating func scanHex4(escapeStart: Int) throws(TraceProblem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = peek.flatMap(Self.hexValue) else {
                throw syntaxError("invalid \\u escape: expected 4 hex digits", at: escapeStart)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// The bytes a string's content stands for, escapes resolved. Only for content that
    /// ``scanString()`` accepted.
    private func decode(_ content: Range<Int>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        var index = content.lowerBound
        while index < content.upperBound {
            let byte = bytes[index]
            guard byte == ASCII.backslash else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var value = hex4(at: index)
                index += 4
                if (0xD800...0xDBFF).contains(value) {
                    let low = hex4(at: index + 2)
                    index += 6
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                }
                UTF8.encode(Unicode.Scalar(value)!) { out.append($0) }
            default: out.append(escape)  // " \ /
            }
        }
        return out
    }

    private func hex4(at index: Int) -> UInt32 {
        (index..<(index + 4)).reduce(0) { $0 << 4 | Self.hexValue(bytes[$1])! }
    }

    // MARK: Bytes

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private func peek(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return (ASCII.zero...ASCII.nine).contains(byte)
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case ASCII.zero...ASCII.nine: UInt32(byte - ASCII.zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func scalarName(_ value: UInt32) -> String { "U+" + hex(value) }

    // MARK: Encoding

    /// Checks that `line` is well-formed UTF-8, naming the first bad byte and its column.
    static func checkUTF8(_ line: UnsafeBufferPointer<UInt8>) throws(TraceProblem) {
        guard let invalid = firstInvalidUTF8Offset(in: line) else { return }
        let hex = String(line[invalid], radix: 16, uppercase: true)
        let byte = "0x" + (hex.count == 1 ? "0" : "") + hex
        throw TraceProblem("not valid UTF-8: byte \(byte) at column \(column(of: invalid, in: line))")
    }

    /// The offset of the first byte that is not part of well-formed UTF-8 (Unicode table 3-7: no
    /// overlong forms, no surrogates, nothing above U+10FFFF), or `nil` when all of it is.
    static func firstInvalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            default: return index
            }
            guard index + 1 < count, secondRange.contains(bytes[index + 1]) else { return index }
            for offset in 2..<length {
                guard index + offset < count, (0x80...0xBF).contains(bytes[index + offset]) else { return index }
            }
            index += length
        }
        return nil
    }

    // MARK: Messages

    private func syntaxError(_ what: String, at offset: Int? = nil) -> TraceProblem {
        TraceProblem("bad JSON at column \(column(of: offset ?? position)): \(what)")
    }

    private func column(of offset: Int) -> Int { Self.column(of: offset, in: bytes) }

    /// The 1-based character column of a byte offset: continuation bytes don't start a character.
    private static func column(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var column = 1
        for index in 0..<min(offset, bytes.count) where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// The character at the current position, for messages: `'x'`, `U+00A0`, `end of line`.
    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of line" }
        let byte = bytes[position]
        if (0x20...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        var iterator = UnsafeBufferPointer(rebasing: bytes[position...]).makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return Self.scalarName(scalar.value) }
        return Self.scalarName(UInt32(byte))
    }

    /// The word at the current position (letters and digits), for messages about misspelt
    /// literals: `'nul'`, `'True'`.
    private func describeWord() -> String {
        var end = position
        while end < bytes.count, end - position < 16 {
            let byte = bytes[end]
            let isWordByte = (ASCII.zero...ASCII.nine).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            guard isWordByte else { break }
            end += 1
        }
        guard end > position else { return describeCurrent() }
        return "'" + String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self) + "'"
    }
}

/// The ASCII bytes the scanner cares about.
private enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
}
