extension Action: CustomStringConvertible {
    /// The action in its canonical config spelling, for logs and the performer's messages;
    /// parsing it gives the same action. The one rendering of an action.
    ///
    /// Key names are the keysyms' (`ctrl` reads back as `Control_L`), buttons 1–3 read back as
    /// `left`, `middle`, `right`, and `exec` arguments are quoted where a shell would need it.
    /// Output lines use ``Binding/actionText`` instead, which is the text exactly as written.
    public var description: String {
        switch self {
        case .key(let combo): "key \(combo)"
        case .click(let button): "click \(Self.buttonNames[button] ?? String(button))"
        case .scroll(let direction, let steps): steps == 1 ? "scroll \(direction.rawValue)" : "scroll \(direction.rawValue) \(steps)"
        case .workspace(.next): "workspace next"
        case .workspace(.previous): "workspace prev"
        case .workspace(.number(let n)): "workspace \(n)"
        case .window(let operation): "window \(operation.rawValue)"
        case .exec(let argv): "exec " + argv.map(ShellWords.quote).joined(separator: " ")
        case .tile(let side): "window tile \(side.rawValue)"
        case .moveWindowToWorkspace(let target): "window move-to-" + Action.workspace(target).description
        case .showDesktop: "show-desktop"
        }
    }

    private static let buttonNames = [1: "left", 2: "middle", 3: "right"]
}

extension ShellWords {
    /// Quotes a word so that ``split(_:)`` (and a shell) reads it back unchanged: as it is when
    /// it holds only safe characters, otherwise in single quotes (`'` itself as `'\''`).
    public static func quote(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { c in
            c.properties.isAlphabetic || ("0"..."9").contains(c) || "-_./:=@%+,".unicodeScalars.contains(c)
        }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }
}
