import GestureEngine

// The `mods` of a `touch-begin`, `button-press`, `touchpad-swipe-begin` or
// `touchpad-pinch-begin` (docs/interface.md, «Modifier keys and trigger buttons»): an array of
// the modifier keys held, each named once. The reader and the writer both go through here.

enum TraceModifiers {
    /// The modifiers a `mods` value names.
    ///
    /// - Throws: ``TraceProblem`` for a value that is not an array of strings, an unknown name
    ///   or a name given twice.
    static func modifiers(from value: TraceFieldValue) throws(TraceProblem) -> Modifiers {
        guard case .strings(let names) = value else {
            throw TraceProblem("field \"mods\" must be an array of strings (\(example)), found \(value.kindDescription)"
                + (value == .array ? " holding something else" : ""))
        }
        var modifiers = Modifiers()
        for name in names {
            guard let modifier = Modifiers(name: name) else {
                throw TraceProblem("unknown modifier \(TraceReader.excerpt(name, quoted: true)) in \"mods\" "
                    + "(allowed: \(Modifiers.allNames.joined(separator: ", ")))")
            }
            guard !modifiers.contains(modifier) else {
                throw TraceProblem("modifier \"\(name)\" is named twice in \"mods\"")
            }
            modifiers.insert(modifier)
        }
        return modifiers
    }

    private static let example = "[\"ctrl\", \"shift\"]"
}
