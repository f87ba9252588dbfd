import GestureEngine

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
    /// Text over 1 MB, nested more than ``TOMLLocator/maximumDepth`` levels, or with what stops
    /// toml++ at an assertion (``TOMLLocator/parserTrap``: a table header that does not begin
    /// with a key, a `}` where an array expects a value) is refused before it is parsed.
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
            // The TOML parser takes the text as a C string, which would end at the NUL.
            let position = Self.position(of: nul, in: text)
            throw failure("a config may not contain NUL characters", line: position.line, column: position.column)
        }
        // Positions first: the locator also refuses nesting too deep for the TOML parser.
        let locator = TOMLLocator(text)
        if let deep = locator.tooDeep {
            throw failure(
                "nested too deeply: keys, tables and arrays may nest at most \(TOMLLocator.maximumDepth) levels "
                    + "(a config needs 3)",
                line: deep.line, column: deep.column)
        }
        if let trap = locator.parserTrap {
            // Before toml++, which would stop at a failed assertion on it.
            throw failure(trap.message, line: trap.position.line, column: trap.position.column)
        }
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            // toml++ says "Error while parsing key-value pair: …"; keep its detail, not its capital.
            let detail = error.description.hasPrefix("Error while parsing ")
                ? "TOML syntax error while parsing " + error.description.dropFirst("Error while parsing ".count)
                : "TOML syntax error: " + error.description
            let position = Self.clamped(line: error.line, column: error.column, in: text)
            throw failure(Excerpt.of(detail, maximumLength: 200), line: position.line, column: position.column)
        }
        var reader = ConfigReader(file: file, locator: locator)
        var config = reader.read(document.root.table!)
        config.notes = reader.notes.sorted { $0.position < $1.position }
        let nulErrors = locator.nulEscapes.map { escape in
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
        throw ConfigErrors([ConfigError(file: path, line: line, column: column, message: "the config is not valid UTF-8")])
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

    /// A position toml++ gave, kept inside `text`: at the end of a text that ends with a line
    /// feed it reports an end of file two columns past the last line's end; that, and anything
    /// else outside the text, becomes the text's end.
    private static func clamped(line: Int, column: Int, in text: String) -> (line: Int, column: Int) {
        var lengths = [0]
        for scalar in text.unicodeScalars {
            if scalar == "\n" { lengths.append(0) } else { lengths[lengths.count - 1] += 1 }
        }
        if line >= 1, line <= lengths.count, column >= 1, column <= lengths[line - 1] + 1 { return (line, column) }
        if line < 1 { return (1, 1) }
        return (lengths.count, lengths[lengths.count - 1] + 1)
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
