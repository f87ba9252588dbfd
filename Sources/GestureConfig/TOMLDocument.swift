import CTOML
import Glibc

/// A parsed TOML document that owns its toml++ tree and frees it.
///
/// The tree comes from toml++ through TOMLKit's C layer (`CTOML`); TOMLKit's Swift classes are
/// not used, because they never free what they are given: a `TOMLTable` made from a string has
/// no `deinit` (the whole `toml::table` tree stays allocated), and every value read through
/// them (`.keys`, `.string`, `.int`, `.double`, `.bool`) is a `malloc`ed copy nobody frees —
/// about 6.5 KB lost per load of a five-binding config. Here the document owns the tree and
/// deletes it when the last view of it goes; each read frees the C layer's copy at once.
///
/// ```swift
/// let document = try TOMLDocument(parsing: "[recognizer]\nslop_px = 12\n")
/// document.root.table?["recognizer"]?.table?["slop_px"]?.int   // 12
/// ```
final class TOMLDocument {
    /// The `toml::table` at the root, allocated by `tableCreateFromString`.
    fileprivate let rootPointer: OpaquePointer

    /// A TOML syntax error: toml++'s message and where it starts.
    struct SyntaxError: Error, Sendable {
        /// toml++'s description, e.g. `Error while parsing table header: expected ']', saw '\n'`.
        var description: String
        /// 1-based line and column; 0 when toml++ gave none.
        var line: Int
        var column: Int
    }

    /// Parses `text`, which must not contain NUL (the C layer takes a C string).
    init(parsing text: String) throws(SyntaxError) {
        // The C layer writes the error here only when parsing fails; its description is strdup'ed.
        let error = UnsafeMutablePointer<CTOMLParseError>.allocate(capacity: 1)
        defer { error.deallocate() }
        guard let root = text.withCString({ tableCreateFromString($0, error) }) else {
            let description = String(cString: error.pointee.description)
            free(UnsafeMutablePointer(mutating: error.pointee.description))
            let begin = error.pointee.source.begin
            throw SyntaxError(description: description, line: Int(begin.line), column: Int(begin.column))
        }
        rootPointer = root
    }

    deinit { Self.delete(rootPointer) }

    /// The root table.
    var root: TOMLNode { TOMLNode(rootPointer, in: self) }

    /// Deletes a `toml::table` made with `new`, children and all.
    ///
    /// The C layer has no function that deletes a table, so this does what C++'s `delete node`
    /// compiles to under the Itanium C++ ABI (Linux and macOS, x86-64 and ARM64): it calls the
    /// node's virtual *deleting* destructor. A class's virtual destructor takes two vtable
    /// slots where it is declared — the complete-object destructor, then the deleting one —
    /// and `~node()` is the first virtual function `toml::node` (a class without bases)
    /// declares, so the deleting destructor is slot 1. `toml::table` derives from `toml::node`
    /// alone, so its address is the node's. The memory test (`ConfigMemoryTests`) would catch a
    /// TOMLKit update that broke this.
    private static func delete(_ table: OpaquePointer) {
        typealias Destructor = @convention(c) (OpaquePointer) -> Void
        let vtable = UnsafeRawPointer(table).load(as: UnsafePointer<Destructor>.self)
        let deletingDestructor = vtable[1]
        deletingDestructor(table)
    }
}

/// The kind of a TOML value.
enum TOMLKind: Hashable, Sendable {
    case table, array, string, integer, float, boolean, date, time, dateTime
}

/// A read-only view of one value of a ``TOMLDocument``; it keeps the document alive.
struct TOMLNode {
    /// A `toml::node` inside the document's tree.
    private let pointer: OpaquePointer
    private let document: TOMLDocument

    fileprivate init(_ pointer: OpaquePointer, in document: TOMLDocument) {
        self.pointer = pointer
        self.document = document
    }

    var kind: TOMLKind {
        switch nodeType(pointer) {
        case .table: .table
        case .array: .array
        case .string: .string
        case .integer: .integer
        case .floatingPoint: .float
        case .boolean: .boolean
        case .date: .date
        case .timeType: .time
        case .dateTime: .dateTime
        }
    }

    /// The table's entries, in toml++'s order (sorted by key), or `nil` if this is not a table.
    var table: TOMLTableView? {
        guard kind == .table, let table = nodeAsTable(pointer) else { return nil }
        return TOMLTableView(table, in: document)
    }

    /// The array's elements, or `nil` if this is not an array.
    var array: [TOMLNode]? {
        guard kind == .array, let array = nodeAsArray(pointer) else { return nil }
        return (0..<arraySize(array)).map { TOMLNode(arrayGetNode(array, Int64($0)), in: document) }
    }

    /// The string, or `nil`. A string holding NUL reads only up to it (the C layer hands out C
    /// strings); ``TOMLLocator`` finds such strings so that the config can refuse them.
    var string: String? {
        guard kind == .string, let copy = nodeAsString(pointer) else { return nil }
        defer { free(UnsafeMutablePointer(mutating: copy)) }
        return String(cString: copy)
    }

    var int: Int? {
        guard kind == .integer, let copy = nodeAsInt(pointer) else { return nil }
        defer { free(UnsafeMutablePointer(mutating: copy)) }
        return Int(copy.pointee)
    }

    var double: Double? {
        guard kind == .float, let copy = nodeAsDouble(pointer) else { return nil }
        defer { free(UnsafeMutablePointer(mutating: copy)) }
        return copy.pointee
    }

    var bool: Bool? {
        guard kind == .boolean, let copy = nodeAsBool(pointer) else { return nil }
        defer { free(UnsafeMutablePointer(mutating: copy)) }
        return copy.pointee
    }
}

/// The entries of a TOML table, read once; keys are unescaped (a key holding NUL reads only up
/// to it, as strings do).
struct TOMLTableView: RandomAccessCollection {
    private let entries: [(key: String, value: TOMLNode)]

    fileprivate init(_ table: OpaquePointer, in document: TOMLDocument) {
        let count = tableSize(table)
        // Both arrays are malloc'ed by the C layer, the keys strdup'ed; all of it is ours to free.
        let keys = tableGetKeys(table)
        let values = tableGetValues(table)
        defer {
            for i in 0..<count { free(UnsafeMutablePointer(mutating: keys[i])) }
            free(UnsafeMutableRawPointer(mutating: keys))
            free(UnsafeMutableRawPointer(mutating: values))
        }
        entries = (0..<count).map { i in
            (String(cString: keys[i]), TOMLNode(values[i], in: document))
        }
    }

    var startIndex: Int { entries.startIndex }
    var endIndex: Int { entries.endIndex }
    subscript(position: Int) -> (key: String, value: TOMLNode) { entries[position] }

    /// The keys, in order.
    var keys: [String] { entries.map(\.key) }

    /// The value at `key` (the first, should NUL make two keys read alike).
    subscript(key: String) -> TOMLNode? { entries.first { $0.key == key }?.value }
}
