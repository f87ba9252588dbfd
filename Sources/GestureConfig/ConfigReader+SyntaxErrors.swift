import TOML

extension ConfigReader {
    /// A TOML syntax error as a config error says it: `TOML syntax error while parsing …`, or
    /// for the slips a config invites, what they mean in a config — `[bind]` after `[[bind]]`
    /// is told like a lone `[bind]`, and a binding key set twice in one `[[bind]]` table (two
    /// bindings without the `[[bind]]` line between them) asks for the missing line.
    ///
    /// ```text
    /// config.toml:4:2: bindings are an array of tables: write [[bind]], not [bind]
    /// config.toml:6:1: 'gesture' is set twice in this binding (first at 2:1): a binding starts with [[bind]] on …
    /// ```
    static func message(for error: TOMLSyntaxError) -> String {
        switch error.problem {
        case .tooDeep(let limit):
            return "nested too deeply: keys, tables and arrays may nest at most \(limit) levels (a config needs 3)"
        case .tableHeaderForArrayOfTables(let array, _) where array == "bind":
            return arrayOfTablesWrittenAsTable("bind", plural: "bindings")
        case .tableHeaderForArrayOfTables(let array, _) where array == "shape":
            return arrayOfTablesWrittenAsTable("shape", plural: "shapes")
        case .duplicateKey(let name, let path?, let first)
        where path.components.count == 3 && path.components.first == .key("bind") && bindingKeys.contains(name):
            return "'\(name)' is set twice in this binding (first at \(first)): \(startsABinding)"
        case .syntax, .duplicateKey, .tableHeaderForArrayOfTables:
            return Excerpt.of("TOML syntax error \(error)", maximumLength: 300)
        }
    }
}
