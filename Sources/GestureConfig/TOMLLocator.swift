import TOML

/// Where the config finds each key and value it reports a problem at: the parsed document
/// itself, which keeps the position of every key and value (``TOMLDocument/subscript(_:)``).
///
/// Before the config had a parser of its own, a second scanner of the text found the
/// positions that the parser did not keep; this name is what `ConfigReader` calls the
/// document in that role.
typealias TOMLLocator = TOMLDocument

extension TOMLDocument {
    /// How deep keys, tables and arrays may nest in a config: a path of at most this many
    /// steps. A config needs 3 (`bind[0].action`); 32 leaves room for anything TOML is used
    /// for, and keeps every path short.
    static let maximumDepth = 32
}
