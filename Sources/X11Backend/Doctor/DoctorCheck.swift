internal import BridgeCore

/// How one check of `gesture-bridge doctor` came out.
public enum DoctorStatus: String, Hashable, Sendable, Comparable {
    /// Nothing to do.
    case ok
    /// The bridge runs, but something will not work as the config asks (the check says what).
    case warn
    /// The bridge cannot run until this is fixed.
    case fail

    private var rank: Int {
        switch self {
        case .ok: 0
        case .warn: 1
        case .fail: 2
        }
    }

    public static func < (a: DoctorStatus, b: DoctorStatus) -> Bool { a.rank < b.rank }
}

/// One line of `gesture-bridge doctor`: what was checked, how it came out, and what to do.
///
/// ```text
/// warn  window manager: none (the root window has no _NET_SUPPORTING_WM_CHECK): 2 bindings need one
///       → start an EWMH window manager (openbox, xfwm4, …); workspace and window actions work as soon as it runs
///       /home/ann/.config/gesture-bridge/config.toml:3:1 swipe 3 fingers left → workspace next
/// ```
public struct DoctorCheck: Hashable, Sendable {
    /// What was checked, a short stable name (`display`, `xinput`, `button grab`, …).
    public var name: String
    public var status: DoctorStatus
    /// What was found, in one sentence.
    public var message: String
    /// What to do about it; set on every check that is not ok.
    public var advice: String?
    /// More lines: the devices, the bindings concerned, every config problem.
    public var details: [String]

    public init(_ name: String, _ status: DoctorStatus, _ message: String, advice: String? = nil, details: [String] = []) {
        self.name = name
        self.status = status
        self.message = message
        self.advice = advice
        self.details = details
    }

    /// The check for people: `STATUS  NAME: message`, then `→ advice` and the details, indented.
    public var humanText: String {
        var lines = ["\(status.rawValue.padding(to: 4))  \(name): \(message)"]
        if let advice { lines.append("      → \(advice)") }
        lines += details.map { "      \($0)" }
        return lines.joined(separator: "\n")
    }

    /// The check as one JSON object on one line:
    /// `{"check":"…","status":"ok|warn|fail","message":"…","advice":"…","details":["…"]}`
    /// (`advice` only when there is some, `details` only when not empty).
    public var jsonText: String {
        var out = "{\"check\":\(Self.json(name)),\"status\":\(Self.json(status.rawValue)),\"message\":\(Self.json(message))"
        if let advice { out += ",\"advice\":\(Self.json(advice))" }
        if !details.isEmpty { out += ",\"details\":[" + details.map(Self.json).joined(separator: ",") + "]" }
        return out + "}"
    }

    private static func json(_ text: String) -> String { JSONLiteral.string(text) }
}

extension String {
    /// The string padded with spaces to `n` characters (never cut).
    func padding(to n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
