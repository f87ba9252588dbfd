/// The path to a value in a TOML document: table keys and array indices from the root.
///
/// `bind[2].action` is the `action` key of the third `[[bind]]` table (or of the third inline
/// table in `bind = [ … ]`); `recognizer.slop_px` is `slop_px` in `[recognizer]`.
public struct TOMLPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step of a path.
    public enum Component: Hashable, Sendable {
        /// A key of a table, unquoted and unescaped.
        case key(String)
        /// An index into an array (an array of tables counts its headers from 0).
        case index(Int)
    }

    /// The steps from the root; empty for the root table.
    public var components: [Component]

    /// The root table, or a path made of the given steps.
    public init(_ components: [Component] = []) { self.components = components }

    /// Reads the description form: bare keys joined by `.`, indices as `[n]`
    /// (`bind[2].action`). Meant for tests and literals; quoted keys are not supported.
    public init(stringLiteral text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".") {
            var rest = part[...]
            if let bracket = rest.firstIndex(of: "[") {
                components.append(.key(String(rest[..<bracket])))
                rest = rest[bracket...]
                while rest.first == "[", let close = rest.firstIndex(of: "]") {
                    components.append(.index(Int(rest[rest.index(after: rest.startIndex)..<close]) ?? 0))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                components.append(.key(String(rest)))
            }
        }
        self.components = components
    }

    /// This path with a key appended.
    public func appending(_ key: String) -> TOMLPath { TOMLPath(components + [.key(key)]) }

    /// This path with an array index appended.
    public func appending(index: Int) -> TOMLPath { TOMLPath(components + [.index(index)]) }

    /// The path one step up; `nil` for the root.
    public var parent: TOMLPath? { components.isEmpty ? nil : TOMLPath(Array(components.dropLast())) }

    /// The last key of the path, if it ends in one.
    public var lastKey: String? {
        if case .key(let key) = components.last { return key }
        return nil
    }

    /// `bind[2].action`; keys that are not bare TOML keys are quoted.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                let bare = !key.isEmpty && key.unicodeScalars.allSatisfy(TOMLPath.isBareKeyScalar)
                text += bare ? key : "\"" + key.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// `A-Z a-z 0-9 _ -`: the characters of a bare TOML key.
    public static func isBareKeyScalar(_ c: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(c) || ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
    }
}
