import GestureEngine
import TOML

/// A binding's `action`, read: the parsed actions with their strings as written.
struct ActionList {
    var actions: [Action]
    var texts: [String]
    /// Written as an array.
    var isList: Bool
}

extension ConfigReader {
    /// `action`: a string, or an array of 1 to ``Binding/maximumActions`` strings (docs/config.md). Each problem is reported at the element it is about: a string that is not
    /// an action, an element that is not a string, the first element beyond the maximum; an
    /// empty array at its `[`. `nil` when anything is wrong.
    mutating func readActions(_ value: TOMLNode, at path: TOMLPath) -> ActionList? {
        if let text = value.string {
            guard let action = parseAction(text, at: path) else { return nil }
            return ActionList(actions: [action], texts: [text], isList: false)
        }
        guard let elements = value.array else {
            report("'action' must be a string or an array of strings, not \(Self.noun(value.kind))", at: path)
            return nil
        }
        guard !elements.isEmpty else {
            report("'action' lists no action; write one action string, or an array of 1 to \(Binding.maximumActions)", at: path)
            return nil
        }
        var list = ActionList(actions: [], texts: [], isList: true)
        var valid = true
        for (index, element) in elements.enumerated() {
            let elementPath = path.appending(index: index)
            if index == Binding.maximumActions {
                report("'action' lists \(elements.count) actions; at most \(Binding.maximumActions) run for one gesture phase "
                           + "(this is the \(index + 1)th)", at: elementPath)
                return nil
            }
            guard let text = element.string else {
                report("each action in the 'action' array must be a string, not \(Self.noun(element.kind))", at: elementPath)
                valid = false
                continue
            }
            guard let action = parseAction(text, at: elementPath) else {
                valid = false
                continue
            }
            list.actions.append(action)
            list.texts.append(text)
        }
        return valid ? list : nil
    }

    private mutating func parseAction(_ text: String, at path: TOMLPath) -> Action? {
        do {
            let action = try Action(parsing: text)
            if let note = Action.shiftedLetterNote(text) { notes.append(ConfigError(at: position(of: path, .value), message: note)) }
            return action
        } catch {
            report(error.message, at: path)
            return nil
        }
    }

    /// `hold`: key names as `key` takes them, only with `on = "begin"` (a binding that fires as
    /// the gesture ends has nothing to hold the keys across). `nil` when wrong (reported).
    mutating func readHold(_ value: TOMLNode, on: FiringPoint?, at path: TOMLPath) -> (combo: KeyCombo, text: String)? {
        guard let text = value.string else {
            report("'hold' must be a string of key names joined by '+', not \(Self.noun(value.kind))", at: path)
            return nil
        }
        if on == .end {
            report("'hold' cannot be combined with on = \"end\": held keys go down as the binding first fires "
                       + "and up when the gesture ends, so they need on = \"begin\"", at: path, .key)
            return nil
        }
        do {
            return (try KeyCombo(holding: text), text)
        } catch {
            report(error.message, at: path)
            return nil
        }
    }
}
