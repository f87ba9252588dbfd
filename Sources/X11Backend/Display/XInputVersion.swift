/// An XInput protocol version, as `XIQueryVersion` negotiates it.
///
/// ```swift
/// let needed = XInputVersion.minimum          // 2.2: touch events
/// if display.xinputVersion >= .gestures { … } // 2.4: touchpad swipe and pinch
/// ```
public struct XInputVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// The oldest version gesture-bridge accepts: XI 2.2 brought touch events and touch grabs.
    public static let minimum = XInputVersion(major: 2, minor: 2)
    /// The version gesture-bridge asks for: XI 2.4 brought touchpad gesture events.
    public static let requested = XInputVersion(major: 2, minor: 4)
    /// The first version with touchpad swipe and pinch events.
    public static let gestures = XInputVersion(major: 2, minor: 4)

    public static func < (a: XInputVersion, b: XInputVersion) -> Bool {
        (a.major, a.minor) < (b.major, b.minor)
    }

    public var description: String { "\(major).\(minor)" }
}
