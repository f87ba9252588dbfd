/// Why a text is not a TOML document, and where.
///
/// The parser stops at the first problem, so there is one. Its position is the character that
/// is wrong (or the end of the text, when the text stops too soon); for a malformed number,
/// date or time, the value's first character.
///
/// ```swift
/// do {
///     _ = try TOMLDocument(parsing: "[[bind]\n")
/// } catch {
///     error.position      // 1:8
///     error.description   // "while parsing table header: expected ']', saw '\n'"
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
        }
    }
}
