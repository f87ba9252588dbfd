import GestureEngine
import TOML

extension Config {
    /// Reads and checks the config file at `path`.
    ///
    /// - Parameter path: the file; it also names the file in every error.
    /// - Throws: ``ConfigErrors`` with every problem: the file cannot be read, is refused
    ///   (another user could change it, it is over 1 MB or not a regular file: see
    ///   ``ConfigFile``), or is not UTF-8, a TOML syntax error, or any number of problems in its
    ///   content (see ``parse(_:file:)``).
    public static func load(contentsOf path: String) throws(ConfigErrors) -> Config {
        try parse(try readText(path), file: path)
    }

    /// Loads a config from where ``ConfigLocator`` found it: a file, or the embedded default.
    public static func load(from source: ConfigSource) throws(ConfigErrors) -> Config {
        switch source {
        case .file(let path): try load(contentsOf: path)
        case .embedded: try parse(DefaultConfig.text, file: DefaultConfig.fileName)
        }
    }

    /// Parses and checks config text.
    ///
    /// Everything docs/config.md promises is checked here, and every problem is
    /// collected before throwing: unknown tables and keys (with a suggestion), wrong types
    /// (an integer is fine where a number is expected), values out of range, unknown gesture,
    /// direction, edge, device and `on` values, keys that do not fit the gesture, bad
    /// actions, missing `gesture` or `action`, duplicate bindings, and NUL in strings or keys.
    /// Text over 1 MB is refused before it is parsed, and text nested more than
    /// ``TOMLLocator/maximumDepth`` levels where the parser finds the first level too deep.
    ///
    /// ```swift
    /// do {
    ///     let config = try Config.parse(text, file: "config.toml")
    /// } catch {
    ///     for problem in error.errors { print(problem) }   // config.toml:3:1: unknown key …
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - text: the TOML text.
    ///   - file: the name errors give for it.
    /// - Throws: ``ConfigErrors``, sorted by position.
    public static func parse(_ text: String, file: String) throws(ConfigErrors) -> Config {
        func failure(_ message: String, line: Int = 1, column: Int = 1) -> ConfigErrors {
            ConfigErrors([ConfigError(file: file, line: line, column: column, message: message)])
        }
        if text.utf8.count > ConfigFile.maximumSize {
            throw failure(ConfigFile.tooLarge(text.utf8.count))
        }
        if let nul = text.unicodeScalars.firstIndex(of: "\0") {
            // A raw NUL is never TOML; said plainly rather than as a syntax error, wherever it is.
            let position = Self.position(of: nul, in: text)
            // UTF-16 without a byte-order mark: a NUL after every ASCII character.
            let utf16 = text.utf8.count > 1 && text.utf8.dropFirst().first == 0 ? "; the file looks like UTF-16: save it as UTF-8" : ""
            throw failure("a config may not contain NUL characters\(utf16)", line: position.line, column: position.column)
        }
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text, maximumDepth: TOMLLocator.maximumDepth)
        } catch {
            throw failure(ConfigReader.message(for: error), line: error.position.line, column: error.position.column)
        }
        var reader = ConfigReader(file: file, locator: document)
        var config = Suggestion.whileReading { reader.read(document.root) }
        config.notes = reader.notes.sorted { $0.position < $1.position }
        let nulErrors = document.nulEscapes.map { escape in
            ConfigError(
                file: file, line: escape.line, column: escape.column,
                message: "a string or key may not contain NUL (\\u0000): programs and X would see it cut short there")
        }
        guard reader.errors.isEmpty, nulErrors.isEmpty else { throw ConfigErrors(reader.errors + nulErrors) }
        return config
    }

    // MARK: - Reading files

    /// The text of the config file at `path`, read as ``load(contentsOf:)`` reads it (refusing
    /// what it refuses), for `print-config --config FILE`.
    public static func text(contentsOf path: String) throws(ConfigErrors) -> String {
        try readText(path)
    }

    private static func readText(_ path: String) throws(ConfigErrors) -> String {
        let bytes = try ConfigFile.read(path)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let (line, column) = firstInvalidUTF8(in: bytes)
        // What Windows editors save as "Unicode": UTF-16 with its byte-order mark.
        let utf16 = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let message = utf16 ? "the config is UTF-16 (it starts with UTF-16's byte-order mark): save it as UTF-8" : "the config is not valid UTF-8"
        throw ConfigErrors([ConfigError(file: path, line: line, column: column, message: message)])
    }

    /// Where the first byte that is not UTF-8 is, counting columns in scalars.
    private static func firstInvalidUTF8(in data: [UInt8]) -> (line: Int, column: Int) {
        var bytes = data.makeIterator()
        var decoder = UTF8()
        var line = 1
        var column = 1
        while case .scalarValue(let scalar) = decoder.decode(&bytes) {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    private static func position(of index: String.UnicodeScalarView.Index, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars[..<index] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
