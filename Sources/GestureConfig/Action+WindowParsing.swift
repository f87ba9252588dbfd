extension Action {
    /// The words that may follow `window`, in the order docs/config.md lists them.
    static let windowWords = WindowOperation.allCases.map(\.rawValue) + ["tile", "move-to-workspace"]

    /// `window OPERATION`, `window tile SIDE` or `window move-to-workspace TARGET`.
    static func windowAction(_ arguments: [String]) throws(ActionParseError) -> Action {
        switch arguments.first {
        case "tile":
            let sides = TileSide.allCases.map(\.rawValue)
            guard arguments.count == 2 else {
                throw ActionParseError("window tile takes one side: left, right, top or bottom, e.g. 'window tile left'")
            }
            let word = arguments[1]
            guard let side = TileSide(rawValue: word) else {
                throw ActionParseError(
                    "unknown tile side '\(Excerpt.of(word))'\(Suggestion.clause(for: word, among: sides))"
                        + " (expected one of: \(sides.joined(separator: ", ")))")
            }
            return .tile(side)
        case "move-to-workspace":
            return .moveWindowToWorkspace(try workspaceTarget(Array(arguments.dropFirst()), phrase: "window move-to-workspace"))
        default:
            // An unknown or missing word is reported among every window word first.
            let operation = try windowOperation(Array(arguments.prefix(1)))
            guard arguments.count == 1 else {
                throw ActionParseError("window \(operation.rawValue) takes no argument")
            }
            return .window(operation)
        }
    }
}
