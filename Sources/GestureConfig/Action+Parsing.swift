/// Why an action's text could not be parsed: a message for a person, without a position.
///
/// The config loader positions it at the binding's `action` value.
public struct ActionParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. `unknown key name 'Rigth'; did you mean 'Right'?`.
    public var message: String

    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension Action {
    /// The words an action starts with, in the order docs/config.md lists them.
    public static let verbs = ["key", "click", "scroll", "workspace", "window", "exec", "show-desktop"]

    /// The modifier words of `key` combinations and the keysyms they stand for: the left-hand
    /// key of each modifier.
    public static let modifierWords: [(word: String, keysym: String)] = [
        ("ctrl", "Control_L"), ("alt", "Alt_L"), ("shift", "Shift_L"), ("super", "Super_L"), ("meta", "Meta_L"),
    ]

    /// Other names people give modifiers, for suggestions only: the config's words are the
    /// ones in ``modifierWords``.
    static let modifierAliases = [
        "control": "ctrl", "win": "super", "windows": "super", "logo": "super", "cmd": "super",
        "command": "super", "mod4": "super", "opt": "alt", "option": "alt", "mod1": "alt",
    ]

    /// Names people give keys that X spells otherwise, for suggestions only. Checked before
    /// the closeness of spellings: `altgr` is not `alt` cut short, and `enter` is no typo of any
    /// keysym name.
    static let keyAliases = [
        "enter": "Return", "altgr": "ISO_Level3_Shift", "alt_gr": "ISO_Level3_Shift", "esc": "Escape",
        "del": "Delete", "ins": "Insert", "pgup": "Page_Up", "pageup": "Page_Up", "pgdn": "Page_Down",
        "pagedown": "Page_Down", "capslock": "Caps_Lock", "prtsc": "Print", "printscreen": "Print",
        "backspace": "BackSpace", "bksp": "BackSpace",
    ]

    /// The highest X button number (buttons are a CARD8 in the protocol).
    public static let maximumButton = 255

    /// The most steps one `scroll` action may take; more is almost certainly a typo.
    public static let maximumScrollSteps = 100

    /// Parses an action as written in the config (docs/config.md).
    ///
    /// Grammar, words separated by blanks:
    ///
    /// ```
    /// key COMBO                        COMBO = KEY ("+" KEY)*; KEY = ctrl|alt|shift|super|meta|keysym name|0x…|U+…
    /// click left|middle|right|N        N = 1…255
    /// scroll up|down|left|right [N]    N = 1…100, default 1
    /// workspace next|prev|N            N ≥ 1, counted from 1
    /// window maximize|minimize|fullscreen|close|toggle-maximize|restore
    /// window tile left|right|top|bottom
    /// window move-to-workspace next|prev|N
    /// show-desktop
    /// exec PROGRAM [ARG ...]           split like shell words (see ``ShellWords``), no shell
    /// ```
    ///
    /// Keysym names are checked against the X headers' table (``Keysym``), so a misspelt key is
    /// reported when the config loads, with a suggestion.
    ///
    /// ```swift
    /// let back = try Action(parsing: "key alt+Left")
    /// // .key(KeyCombo(keys: [Key(name: "Alt_L", keysym: 0xFFE9), Key(name: "Left", keysym: 0xFF51)]))
    /// ```
    ///
    /// - Parameter text: the action string.
    /// - Throws: ``ActionParseError`` naming what is wrong.
    public init(parsing text: String) throws(ActionParseError) {
        let trimmed = text.drop(while: \.isBlank)
        let verbEnd = trimmed.firstIndex(where: \.isBlank) ?? trimmed.endIndex
        let verb = String(trimmed[..<verbEnd])
        let rest = trimmed[verbEnd...]
        let arguments = rest.split(whereSeparator: \.isBlank).map(String.init)

        switch verb {
        case "":
            throw ActionParseError("empty action; expected one of: \(Self.verbs.joined(separator: ", "))")
        case "key":
            self = .key(try Self.keyCombo(arguments))
        case "click":
            self = .click(button: try Self.clickButton(arguments))
        case "scroll":
            let (direction, steps) = try Self.scroll(arguments)
            self = .scroll(direction, steps: steps)
        case "workspace":
            self = .workspace(try Self.workspaceTarget(arguments))
        case "window":
            self = try Self.windowAction(arguments)
        case "show-desktop":
            guard arguments.isEmpty else { throw ActionParseError("show-desktop takes no argument") }
            self = .showDesktop
        case "exec":
            let argv = try ShellWords.split(String(rest))
            guard let program = argv.first, !program.isEmpty else {
                throw ActionParseError("exec needs a program to run, e.g. 'exec notify-send hello'")
            }
            self = .exec(argv: argv)
        default:
            throw ActionParseError(
                "unknown action '\(Excerpt.of(verb))'\(Suggestion.clause(for: verb, among: Self.verbs))"
                    + " (expected one of: \(Self.verbs.joined(separator: ", ")))")
        }
    }

    // MARK: - Verbs

    static func keyCombo(_ arguments: [String]) throws(ActionParseError) -> KeyCombo {
        guard arguments.count == 1, let combo = arguments.first else {
            throw ActionParseError(
                arguments.isEmpty
                    ? "key needs a combination, e.g. 'key ctrl+alt+Right'"
                    : "key takes one combination without blanks, e.g. 'key ctrl+alt+Right'")
        }
        var keys: [KeyCombo.Key] = []
        // A set: a combination of 100,000 numeric keysyms must not cost their square.
        var seen: Set<UInt32> = []
        for part in comboParts(combo) {
            guard !part.isEmpty else {
                throw ActionParseError("empty key name in '\(Excerpt.of(combo))'; write the plus key as 'plus'")
            }
            let key = try Self.key(named: String(part))
            guard seen.insert(key.keysym).inserted else {
                throw ActionParseError("'\(Excerpt.of(part))' appears twice in '\(Excerpt.of(combo))'")
            }
            keys.append(key)
        }
        return KeyCombo(keys: keys)
    }

    /// The `+`-separated parts of a combination, with `U+XXXX` kept whole: a `U` followed by
    /// a part of 4 to 6 hex digits is a code point (no keysym name is 4 or more hex digits, so
    /// `shift+U` and `U+F1` still mean the letter U).
    static func comboParts(_ combo: String) -> [Substring] {
        var parts: [Substring] = []
        for part in combo.split(separator: "+", omittingEmptySubsequences: false) {
            if let last = parts.last, last == "U", (4...6).contains(part.count), part.allSatisfy(\.isHexDigit) {
                parts[parts.count - 1] = combo[last.startIndex..<part.endIndex]
            } else {
                parts.append(part)
            }
        }
        return parts
    }

    /// Every name a key may have, for suggestions: made once, not for each unknown key.
    private static let keyNames: [String] = modifierWords.map(\.word) + Keysym.allNames

    /// One key of a combination: a modifier word, a keysym name, or a numeric keysym.
    private static func key(named name: String) throws(ActionParseError) -> KeyCombo.Key {
        let lowered = name.lowercased()
        if let modifier = modifierWords.first(where: { $0.word == lowered }),
            let keysym = Keysym.value(named: modifier.keysym)
        {
            return KeyCombo.Key(name: modifier.keysym, keysym: keysym)
        }
        if let keysym = Keysym.value(named: name) {
            // Numeric spellings (`0x…`, `U+…`) get the keysym's name where it has one.
            let spelling = Keysym.isName(name) ? name : Keysym.name(of: keysym) ?? name
            return KeyCombo.Key(name: spelling, keysym: keysym)
        }
        let suggestion = (modifierAliases[lowered] ?? keyAliases[lowered]).map { "; did you mean '\($0)'?" }
            ?? Suggestion.clause(for: name, among: keyNames)
        throw ActionParseError("unknown key name '\(Excerpt.of(name))'\(suggestion)")
    }

    private static func clickButton(_ arguments: [String]) throws(ActionParseError) -> Int {
        let names = ["left": 1, "middle": 2, "right": 3]
        guard arguments.count == 1, let word = arguments.first else {
            throw ActionParseError("click takes one button: left, middle, right or a number from 1 to \(maximumButton)")
        }
        if let button = names[word] { return button }
        if let number = Int(word) {
            guard (1...maximumButton).contains(number) else {
                throw ActionParseError("button \(number) is out of range; X buttons are 1 to \(maximumButton)")
            }
            return number
        }
        throw ActionParseError(
            "unknown button '\(Excerpt.of(word))'\(Suggestion.clause(for: word, among: ["left", "middle", "right"]))"
                + " (expected left, middle, right or a number from 1 to \(maximumButton))")
    }

    private static func scroll(_ arguments: [String]) throws(ActionParseError) -> (ScrollDirection, Int) {
        let allowed = ScrollDirection.allCases.map(\.rawValue)
        guard (1...2).contains(arguments.count) else {
            throw ActionParseError("scroll takes a direction and an optional count, e.g. 'scroll down 3'")
        }
        guard let direction = ScrollDirection(rawValue: arguments[0]) else {
            throw ActionParseError(
                "unknown scroll direction '\(Excerpt.of(arguments[0]))'\(Suggestion.clause(for: arguments[0], among: allowed))"
                    + " (expected one of: \(allowed.joined(separator: ", ")))")
        }
        guard arguments.count == 2 else { return (direction, 1) }
        guard let steps = Int(arguments[1]), (1...maximumScrollSteps).contains(steps) else {
            throw ActionParseError("scroll count must be a whole number from 1 to \(maximumScrollSteps), not '\(Excerpt.of(arguments[1]))'")
        }
        return (direction, steps)
    }

    static func workspaceTarget(_ arguments: [String], phrase: String = "workspace") throws(ActionParseError) -> WorkspaceTarget {
        guard arguments.count == 1, let word = arguments.first else {
            throw ActionParseError("\(phrase) takes one target: next, prev or a desktop number counted from 1")
        }
        switch word {
        case "next": return .next
        case "prev": return .previous
        default:
            if let number = Int(word) {
                guard number >= 1 else {
                    throw ActionParseError("workspace numbers count from 1, not \(number)")
                }
                return .number(number)
            }
            throw ActionParseError(
                "unknown workspace target '\(Excerpt.of(word))'\(Suggestion.clause(for: word, among: ["next", "prev"]))"
                    + " (expected next, prev or a desktop number counted from 1)")
        }
    }

    static func windowOperation(_ arguments: [String]) throws(ActionParseError) -> WindowOperation {
        let allowed = windowWords
        guard arguments.count == 1, let word = arguments.first else {
            throw ActionParseError("window takes one operation: \(allowed.joined(separator: ", "))")
        }
        guard let operation = WindowOperation(rawValue: word) else {
            throw ActionParseError(
                "unknown window operation '\(Excerpt.of(word))'\(Suggestion.clause(for: word, among: allowed))"
                    + " (expected one of: \(allowed.joined(separator: ", ")))")
        }
        return operation
    }
}

extension Character {
    /// A blank separates an action's words: space, tab or newline, as for ``ShellWords``.
    fileprivate var isBlank: Bool { self == " " || self == "\t" || self == "\n" }
}
