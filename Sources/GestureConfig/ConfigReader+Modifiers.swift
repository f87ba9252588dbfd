import GestureEngine
import TOML

// A binding's `modifiers` and a pointer binding's `button` (docs/config.md, «Modifier keys and
// trigger buttons»): which keys must be held when the gesture begins, and which mouse button's
// press starts a pointer gesture.

extension ConfigReader {
    /// The mouse buttons a pointer binding may name: left, middle, right, back and forward.
    /// 4 to 7 are the wheel's steps, whose press and release come at once: nothing to drag.
    static let bindingButtons = [1, 2, 3, 8, 9]

    /// `modifiers = "super"` or `modifiers = ["ctrl", "shift"]`: the set the gesture's must be.
    /// An unknown or repeated name, an empty array or another kind of value is reported at the
    /// value (a name in an array at that name).
    mutating func readModifiers(_ value: TOMLNode, at path: TOMLPath) -> Modifiers? {
        if let name = value.string { return modifier(named: name, at: path) }
        guard let names = value.array else {
            report("'modifiers' must be a modifier key name or an array of them (\(Self.modifierExample)), "
                       + "not \(Self.noun(value.kind))",
                   at: path)
            return nil
        }
        guard !names.isEmpty else {
            report("'modifiers' must name at least one key (\(Self.modifierExample)); leave it out to match whatever is held",
                   at: path)
            return nil
        }
        var modifiers = Modifiers()
        var valid = true
        for (index, element) in names.enumerated() {
            let elementPath = path.appending(index: index)
            guard let name = element.string else {
                report("each of 'modifiers' must be a modifier key name (\(Modifiers.allNames.joined(separator: ", "))), "
                           + "not \(Self.noun(element.kind))",
                       at: elementPath)
                valid = false
                continue
            }
            guard let modifier = modifier(named: name, at: elementPath) else {
                valid = false
                continue
            }
            guard !modifiers.contains(modifier) else {
                report("'\(name)' is named twice in 'modifiers'", at: elementPath)
                valid = false
                continue
            }
            modifiers.insert(modifier)
        }
        return valid ? modifiers : nil
    }

    /// A pointer binding's `button`: one of ``bindingButtons``, on a binding with
    /// `device = "pointer"` (reported at the value otherwise; `deviceInvalid`: the binding's
    /// `device` is wrong and was reported already).
    mutating func readBindingButton(_ value: TOMLNode, device: DeviceKind?, deviceInvalid: Bool, at path: TOMLPath) -> Int? {
        guard let button = value.int else {
            report("'button' must be an integer (\(Self.buttonList)), not \(Self.noun(value.kind))", at: path)
            return nil
        }
        guard Self.bindingButtons.contains(button) else {
            let why = (4...7).contains(button) ? ": 4 to 7 are the wheel's steps, which cannot be held" : ""
            report("'button' must be \(Self.buttonList), not \(button)\(why)", at: path)
            return nil
        }
        guard device == .pointer || deviceInvalid else {
            report("'button' is the mouse button that starts a pointer gesture: it needs device = \"pointer\" in the same binding",
                   at: path)
            return nil
        }
        return button
    }

    /// The one modifier `name` spells, or nil with the problem reported at `path`.
    private mutating func modifier(named name: String, at path: TOMLPath) -> Modifiers? {
        if let modifier = Modifiers(name: name) { return modifier }
        reportUnknownValue(name, noun: "modifier key", allowed: Modifiers.allNames, at: path)
        return nil
    }

    private static let modifierExample = "modifiers = \"super\" or modifiers = [\"ctrl\", \"shift\"]"
    private static let buttonList = "1, 2, 3, 8 or 9"
}
