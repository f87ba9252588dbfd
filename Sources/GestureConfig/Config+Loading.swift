import Foundation
import GestureEngine
import TOMLKit

extension Config {
    /// Reads and checks the config file at `path`.
    ///
    /// - Parameter path: the file; it also names the file in every error.
    /// - Throws: ``ConfigErrors`` with every problem: the file cannot be read or is not UTF-8,
    ///   a TOML syntax error, or any number of problems in its content (see ``parse(_:file:)``).
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
    /// Everything the contract's section 4 asks is checked here, and every problem is
    /// collected before throwing: unknown tables and keys (with a suggestion), wrong types
    /// (an integer is fine where a number is expected), values out of range, unknown gesture,
    /// direction, edge, device and `on` values, keys that do not fit the gesture, bad
    /// actions, missing `gesture` or `action`, and duplicate bindings.
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
        if let nul = text.unicodeScalars.firstIndex(of: "\0") {
            // TOMLKit hands the text to C++ as a C string, which would end at the NUL.
            let position = Self.position(of: nul, in: text)
            throw ConfigErrors([
                ConfigError(file: file, line: position.line, column: position.column,
                            message: "a config may not contain NUL characters")
            ])
        }
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            // toml++ says "Error while parsing key-value pair: …"; keep its detail, not its capital.
            let detail = error.description.hasPrefix("Error while parsing ")
                ? "TOML syntax error while parsing " + error.description.dropFirst("Error while parsing ".count)
                : "TOML syntax error: " + error.description
            throw ConfigErrors([
                ConfigError(file: file, line: max(1, error.source.begin.line), column: max(1, error.source.begin.column),
                            message: detail)
            ])
        } catch {
            throw ConfigErrors([ConfigError(file: file, line: 1, column: 1, message: "TOML syntax error: \(error)")])
        }
        var reader = ConfigReader(file: file, locator: TOMLLocator(text))
        let config = reader.read(root)
        guard reader.errors.isEmpty else { throw ConfigErrors(reader.errors) }
        return config
    }

    // MARK: - Reading files

    private static func readText(_ path: String) throws(ConfigErrors) -> String {
        func failure(_ message: String, line: Int = 1, column: Int = 1) -> ConfigErrors {
            ConfigErrors([ConfigError(file: path, line: line, column: column, message: message)])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw failure("cannot read the config: no such file")
        }
        guard !isDirectory.boolValue else { throw failure("cannot read the config: it is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw failure("cannot read the config: permission denied or an I/O error")
        }
        if let text = String(validating: data, as: UTF8.self) { return text }
        let (line, column) = firstInvalidUTF8(in: data)
        throw failure("the config is not valid UTF-8", line: line, column: column)
    }

    /// Where the first byte that is not UTF-8 is, counting columns in scalars.
    private static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int) {
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
