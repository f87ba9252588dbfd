/// A parsed TOML 1.0 document, with the position of every key and value in its text.
///
/// The document is read once by ``TOMLDocument/init(parsing:maximumDepth:)`` and is immutable
/// afterwards; its values are read through ``TOMLNode`` and ``TOMLTableView`` views, and where
/// each is written through ``subscript(_:)``, by ``TOMLPath``. A syntax error is thrown with
/// its position (``TOMLSyntaxError``).
///
/// Nesting is bounded (``TOMLDocument/init(parsing:maximumDepth:)``): the parser recurses only
/// into arrays and inline tables, and never deeper than the limit, so no text can exhaust the
/// stack, and a path is never longer than the limit.
///
/// ```swift
/// let document = try TOMLDocument(parsing: "[recognizer]\nslop_px = 12\n")
/// document.root["recognizer"]?.table?["slop_px"]?.int   // 12
/// document["recognizer.slop_px"]?.value                 // 2:11
/// ```
public struct TOMLDocument: Sendable {
    /// The root table.
    public let root: TOMLTableView

    /// Where each string or key that holds a NUL has its first `\u0000` (or `\U00000000`)
    /// escape, in the order written. A NUL is valid TOML; programs and C strings cut text
    /// short at it, which is why a reader may want to refuse it.
    public let nulEscapes: [TOMLPosition]

    /// Parses `text`.
    ///
    /// - Parameters:
    ///   - text: the TOML text. A byte-order mark at its start is skipped.
    ///   - maximumDepth: how many steps (keys and array indices) a path may have at most;
    ///     the first key, table or array deeper than that is refused as
    ///     ``TOMLSyntaxError/Problem/tooDeep(limit:)``.
    /// - Throws: ``TOMLSyntaxError`` at the first problem.
    public init(parsing text: String, maximumDepth: Int = 64) throws(TOMLSyntaxError) {
        var parser = TOMLParser(text, maximumDepth: maximumDepth)
        try parser.parseDocument()
        parser.root.finish()
        root = TOMLTableView(parser.root)
        nulEscapes = parser.nulEscapes
    }

    /// Where the value at `path` is written, or `nil` when the document has no such value.
    public subscript(path: TOMLPath) -> TOMLLocation? {
        var node: TOMLNode? = nil
        var table: TOMLTableView? = root
        for component in path.components {
            switch component {
            case .key(let key): node = table?[key]
            case .index(let index):
                guard let elements = node?.array, elements.indices.contains(index) else { return nil }
                node = elements[index]
            }
            guard let found = node else { return nil }
            table = found.table
        }
        return node.map { TOMLLocation(key: $0.keyPosition, value: $0.position) }
    }
}

/// The kind of a TOML value.
public enum TOMLKind: Hashable, Sendable {
    case table, array, string, integer, float, boolean
    /// A local date: `1979-05-27`.
    case date
    /// A local time: `07:32:00`.
    case time
    /// A date with a time, with or without an offset: `1979-05-27T07:32:00Z`.
    case dateTime

    /// The kind as a message names a value of it: `a table`, `an integer`, `a date-time`.
    public var noun: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }
}

/// A TOML date, time or date-time, as written (nothing is converted between offsets).
///
/// ```swift
/// // 1979-05-27T07:32:00.5-07:00
/// TOMLDateTime(date: .init(year: 1979, month: 5, day: 27),
///              time: .init(hour: 7, minute: 32, second: 0, nanosecond: 500_000_000),
///              offsetMinutes: -420)
/// ```
public struct TOMLDateTime: Hashable, Sendable {
    public struct Date: Hashable, Sendable {
        public var year: Int, month: Int, day: Int
        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }
    }

    public struct Time: Hashable, Sendable {
        public var hour: Int, minute: Int, second: Int
        /// The fraction of the second, in nanoseconds (digits past the ninth are dropped).
        public var nanosecond: Int
        public init(hour: Int, minute: Int, second: Int, nanosecond: Int) {
            self.hour = hour
            self.minute = minute
            self.second = second
            self.nanosecond = nanosecond
        }
    }

    /// `nil` for a local time.
    public var date: Date?
    /// `nil` for a local date.
    public var time: Time?
    /// Minutes east of UTC (`Z` is 0); `nil` for a local date, time or date-time.
    public var offsetMinutes: Int?

    public init(date: Date?, time: Time?, offsetMinutes: Int?) {
        self.date = date
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    /// ``TOMLKind/date``, ``TOMLKind/time`` or ``TOMLKind/dateTime``.
    public var kind: TOMLKind {
        date == nil ? .time : time == nil ? .date : .dateTime
    }
}

/// A read-only view of one value of a ``TOMLDocument``, with where it is written.
public struct TOMLNode: Sendable {
    enum Value: Sendable {
        case table(TOMLParser.Table)
        case array(TOMLParser.ArrayOfValues)
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case dateTime(TOMLDateTime)
    }

    let value: Value
    /// The key that names the value; `nil` for an array element (see ``TOMLLocation``).
    public internal(set) var keyPosition: TOMLPosition?
    /// The value's first character (see ``TOMLLocation``).
    public internal(set) var position: TOMLPosition

    public var kind: TOMLKind {
        switch value {
        case .table: .table
        case .array: .array
        case .string: .string
        case .integer: .integer
        case .float: .float
        case .boolean: .boolean
        case .dateTime(let dateTime): dateTime.kind
        }
    }

    /// The table's entries, sorted by key, or `nil` if this is not a table.
    public var table: TOMLTableView? {
        if case .table(let table) = value { return TOMLTableView(table) }
        return nil
    }

    /// The array's elements, or `nil` if this is not an array.
    public var array: [TOMLNode]? {
        if case .array(let array) = value { return array.elements }
        return nil
    }

    /// The string (which may hold a NUL: see ``TOMLDocument/nulEscapes``), or `nil`.
    public var string: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    /// The integer (TOML's are 64-bit), or `nil`.
    public var int: Int? {
        if case .integer(let integer) = value { return integer }
        return nil
    }

    /// The float, or `nil` (an integer is not a float).
    public var double: Double? {
        if case .float(let float) = value { return float }
        return nil
    }

    public var bool: Bool? {
        if case .boolean(let flag) = value { return flag }
        return nil
    }

    /// The date, time or date-time, or `nil`.
    public var dateTime: TOMLDateTime? {
        if case .dateTime(let dateTime) = value { return dateTime }
        return nil
    }
}

/// The entries of a TOML table, sorted by key (by the bytes of its UTF-8, as toml++ sorts
/// them, so that problems found at one position are reported in the same order as before).
public struct TOMLTableView: RandomAccessCollection, Sendable {
    private let storage: TOMLParser.Table

    init(_ storage: TOMLParser.Table) { self.storage = storage }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.entries.count }
    public subscript(position: Int) -> (key: String, value: TOMLNode) { storage.entries[position] }

    /// The keys, in order.
    public var keys: [String] { storage.entries.map(\.key) }

    /// The value at `key`.
    public subscript(key: String) -> TOMLNode? {
        storage.index[key].map { storage.entries[$0].value }
    }
}
