/// Why a text is not a TOML document, and where.
///
/// The parser stops at the first problem, so there is one. Its position is the character that
/// is wrong (or the end of the text, when the text stops too soon); for a malformed number,
/// date or time, the value's first character; for a string without its closing quote, its
/// opening quote.
///
/// ```swift
/// do {
///     _ = try TOMLDocument(parsing: "[[bind]\n")
/// } catch {
///     error.position      // 1:8
///     error.description   // "while parsing table header: expected ']', saw '\n': write the header as [[bind]]"
/// }
/// ```
public struct TOMLSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Hashable, Sendable {
        /// Not TOML: what the parser was reading (`table header`, `array`, `string` …) and
        /// what it found there (`expected ']', saw '\n'`).
        case syntax(context: String, detail: String)
        /// Keys, tables and arrays nest deeper than the limit the parser was given: this one
        /// would have a path of more than `limit` steps.
        case tooDeep(limit: Int)
        /// A key defined a second time in its table (the error is at the second).
        ///
        /// - `name`: the key's last part, as the message names it;
        /// - `path`: the key's whole path from the root (`bind[1].gesture`), or `nil` inside an
        ///   inline table, where the parser does not follow paths;
        /// - `first`: where the first definition's key is.
        case duplicateKey(name: String, path: TOMLPath?, first: TOMLPosition)
        /// A `[a]` header for an `a` that `[[a]]` headers made an array of tables (the error is
        /// at the header's key): `array` is the array's path, `first` its first header's `[[`.
        case tableHeaderForArrayOfTables(array: TOMLPath, first: TOMLPosition)
    }

    public var problem: Problem
    public var position: TOMLPosition

    public init(_ problem: Problem, at position: TOMLPosition) {
        self.problem = problem
        self.position = position
    }

    /// `while parsing CONTEXT: DETAIL`, or what nests too deeply.
    public var description: String {
        switch problem {
        case .syntax(let context, let detail): "while parsing \(context): \(detail)"
        case .tooDeep(let limit): "nested too deeply: keys, tables and arrays may nest at most \(limit) levels"
        case .duplicateKey(let name, let path, let first):
            "while parsing \(path == nil ? "inline table" : "key-value pair"): '\(name)' is already defined (\(first))"
        case .tableHeaderForArrayOfTables(let array, let first):
            "while parsing table header: '\(array.lastKey ?? "")' is an array of tables (\(first)); [[\(array.lastKey ?? "")]] adds a table to it"
        }
    }
}
