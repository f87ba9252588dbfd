/// One problem in a config file, with the place it was found.
///
/// Its description is the documented error format (docs/config.md, «Error messages»), `FILE:LINE:COLUMN: message`, which
/// `check-config` prints and the daemon logs on a failed reload.
///
/// ```swift
/// ConfigError(file: "config.toml", line: 3, column: 1,
///             message: "unknown key 'slop' in [recognizer]; did you mean 'slop_px'?").description
/// // "config.toml:3:1: unknown key 'slop' in [recognizer]; did you mean 'slop_px'?"
/// ```
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as it was named to the loader.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in Unicode scalars.
    public var column: Int
    /// What is wrong, for a person; it names the key and, where it helps, what is allowed.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// Creates an error at a position.
    public init(at position: SourcePosition, message: String) {
        self.init(file: position.file, line: position.line, column: position.column, message: message)
    }

    /// Where the problem is.
    public var position: SourcePosition { SourcePosition(file: file, line: line, column: column) }

    /// `FILE:LINE:COLUMN: message`.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Every problem found in a config, sorted by position; what loading a config throws.
///
/// Loading reports all it can find at once (unknown keys, wrong types, bad values, bad actions,
/// duplicates), so a user fixes a file in one round. A TOML syntax error is the exception: it
/// stops the TOML parser, so it comes alone.
public struct ConfigErrors: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, sorted by line and column; never empty when thrown.
    public var errors: [ConfigError]

    /// Creates the list, sorting it by position (problems at one position keep their order).
    public init(_ errors: [ConfigError]) {
        self.errors = errors.enumerated()
            .sorted { a, b in
                (a.element.position, a.offset) < (b.element.position, b.offset)
            }
            .map(\.element)
    }

    /// One `FILE:LINE:COLUMN: message` line per problem.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
