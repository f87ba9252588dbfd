import Glibc

/// The X display numbers that tests may take for the servers and sockets they start:
/// `GESTURE_BRIDGE_TEST_DISPLAYS=FIRST-LAST` (`200-299`), else ``defaultRange``.
///
/// A machine that runs its own X servers, or two test runs side by side (two checkouts, CI and a
/// developer), can keep them apart by giving each a range. Within a range a test still takes a
/// number only when no socket or lock file of an X server is there.
///
/// ```swift
/// for number in TestDisplays.candidates() { … start Xvfb :number … }
/// ```
public enum TestDisplays {
    /// The environment variable that sets the range.
    public static let variable = "GESTURE_BRIDGE_TEST_DISPLAYS"

    /// 100 to 599: far above the :0 and :1 of a desktop and the :10 and up of `ssh -X`.
    public static let defaultRange = 100...599

    /// The range in force: the variable's, else the default.
    public static let range: ClosedRange<Int> = parse(setting) ?? defaultRange

    /// Why the variable's value cannot be used, or nil (a test harness refuses to start a server
    /// then, rather than use numbers it was not given).
    public static var problem: String? {
        guard let setting, parse(setting) == nil else { return nil }
        return "\(variable)=\(setting) is not a range of X display numbers FIRST-LAST (1 to 65535, e.g. 200-299)"
    }

    /// Every number of ``range``, starting at a place of this process's own (its PID) and
    /// wrapping around: test processes that run at once mostly try different numbers first.
    public static func candidates() -> [Int] {
        let start = Int(getpid()) % range.count
        return (0..<range.count).map { range.lowerBound + (start + $0) % range.count }
    }

    private static var setting: String? { getenv(variable).map { String(cString: $0) } }

    private static func parse(_ text: String?) -> ClosedRange<Int>? {
        guard let parts = text?.split(separator: "-", omittingEmptySubsequences: false), parts.count == 2,
              let first = Int(parts[0]), let last = Int(parts[1]), 1 <= first, first <= last, last <= 65535
        else { return nil }
        return first...last
    }
}
