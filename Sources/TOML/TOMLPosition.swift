/// A place in TOML text: a 1-based line and column.
///
/// Columns count Unicode scalars, so a tab or an `é` is one column; a byte-order mark at the
/// start of the text takes none. Lines end at a line feed (a carriage return before it is the
/// line's last column).
///
/// ```swift
/// TOMLPosition(line: 3, column: 11).description   // "3:11"
/// ```
public struct TOMLPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: TOMLPosition, b: TOMLPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}

/// Where a value of a document is written: the key that names it and the value itself.
///
/// - a key/value pair: `key` is the last key of its (dotted) name, `value` the value's first
///   character;
/// - a table from a header: `key` is the header's last key, `value` the header's `[` (`[[`);
///   for an array of tables, the array is where its first header is;
/// - a table implied by a longer header: `key` is that key, `value` that header's `[`;
/// - a table implied by a dotted key: both are that key;
/// - an inline table: `value` is its `{`; an array element: `key` is `nil`.
///
/// ```swift
/// let document = try TOMLDocument(parsing: "[[bind]]\ngesture = \"tap\"\n")
/// document["bind[0].gesture"]   // key 2:1, value 2:11
/// document["bind[0]"]           // key 1:3, value 1:1
/// ```
public struct TOMLLocation: Hashable, Sendable {
    /// The key naming the value; `nil` for an array element.
    public var key: TOMLPosition?
    /// The value's first character (for a table from a header: the header's `[`).
    public var value: TOMLPosition

    public init(key: TOMLPosition?, value: TOMLPosition) {
        self.key = key
        self.value = value
    }
}
