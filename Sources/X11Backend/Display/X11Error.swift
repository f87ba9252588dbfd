/// An X protocol error code (the `error_code` of an `XErrorEvent`).
///
/// Core codes have names; extension codes (XInput's `BadDevice`, …) keep their number and
/// the text libX11 gave for them in ``XProtocolError/text``.
public struct XErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let badRequest = XErrorCode(rawValue: 1)
    public static let badValue = XErrorCode(rawValue: 2)
    public static let badWindow = XErrorCode(rawValue: 3)
    public static let badPixmap = XErrorCode(rawValue: 4)
    public static let badAtom = XErrorCode(rawValue: 5)
    public static let badCursor = XErrorCode(rawValue: 6)
    public static let badFont = XErrorCode(rawValue: 7)
    public static let badMatch = XErrorCode(rawValue: 8)
    public static let badDrawable = XErrorCode(rawValue: 9)
    public static let badAccess = XErrorCode(rawValue: 10)
    public static let badAlloc = XErrorCode(rawValue: 11)
    public static let badColor = XErrorCode(rawValue: 12)
    public static let badGC = XErrorCode(rawValue: 13)
    public static let badIDChoice = XErrorCode(rawValue: 14)
    public static let badName = XErrorCode(rawValue: 15)
    public static let badLength = XErrorCode(rawValue: 16)
    public static let badImplementation = XErrorCode(rawValue: 17)

    private static let coreNames = [
        "BadRequest", "BadValue", "BadWindow", "BadPixmap", "BadAtom", "BadCursor", "BadFont",
        "BadMatch", "BadDrawable", "BadAccess", "BadAlloc", "BadColor", "BadGC", "BadIDChoice",
        "BadName", "BadLength", "BadImplementation",
    ]

    /// `BadWindow` and friends for core codes; `error 147` for extension codes.
    public var description: String {
        let index = Int(rawValue) - 1
        return Self.coreNames.indices.contains(index) ? Self.coreNames[index] : "error \(rawValue)"
    }
}

/// One X protocol error, as the server reported it, recorded by the display's error handler
/// instead of libX11's default (which prints and exits).
public struct XProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var code: XErrorCode
    /// The major opcode of the failed request (core request number, or the extension's opcode).
    public var requestCode: UInt8
    /// The minor opcode (the extension request number; 0 for core requests).
    public var minorCode: UInt8
    /// The resource the request named (window, atom, device id, …), or the bad value.
    public var resource: UInt
    /// The serial number of the failed request.
    public var serial: UInt
    /// libX11's text for the error code (`BadWindow (invalid Window parameter)`).
    public var text: String
    /// The chokepoint operation that sent the request (`XGetWindowProperty`, `XIGrabButton`),
    /// when the display knows it.
    public var operation: String?

    public init(
        code: XErrorCode, requestCode: UInt8, minorCode: UInt8, resource: UInt, serial: UInt,
        text: String, operation: String? = nil
    ) {
        self.code = code
        self.requestCode = requestCode
        self.minorCode = minorCode
        self.resource = resource
        self.serial = serial
        self.text = text
        self.operation = operation
    }

    public var description: String {
        let hexResource = "0x" + String(resource, radix: 16)
        let request = "request \(requestCode).\(minorCode)"
        let what = operation.map { "\($0) (\(request))" } ?? request
        return "\(text.isEmpty ? code.description : text) from \(what) on resource \(hexResource)"
    }
}

/// A failure of the X11 backend, phrased as one sentence a user can act on.
///
/// ```swift
/// do { _ = try X11Display(name: ":7") } catch { print(error) }
/// // Cannot open X display ":7": no X server answers there (is it running, and is DISPLAY right?).
/// ```
public enum X11Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// Neither an explicit display name nor `$DISPLAY` was given.
    case noDisplayName
    /// `XOpenDisplay` failed for this name.
    case cannotOpenDisplay(String)
    /// Something accepted the connection to this display but did not answer within the time.
    case notAnswering(String, timeout: Duration)
    /// A required extension (`XInputExtension`, `XTEST`) is missing on the display.
    case missingExtension(String, display: String)
    /// The server's XInput is older than gesture-bridge needs.
    case xinputTooOld(server: XInputVersion, required: XInputVersion, display: String)
    /// A request failed with an X protocol error.
    case request(XProtocolError, display: String)
    /// A call failed without a protocol error (a `Status` of 0, a missing reply).
    case failed(String, display: String)
    /// The connection to the X server is gone (server exited, killed, or the socket broke).
    case connectionLost(display: String)
    /// The X session cannot do what was asked (no EWMH window manager, no focused window, no
    /// spare keycode); the text says why, in a clause.
    case refused(String, display: String)

    public var description: String {
        switch self {
        case .noDisplayName:
            "No X display given: DISPLAY is not set (run inside an X session, or set DISPLAY, e.g. DISPLAY=:0)."
        case .cannotOpenDisplay(let name):
            "Cannot open X display \"\(name)\": no X server answers there (is it running, and is DISPLAY right?)."
        case .notAnswering(let name, let timeout):
            "Cannot open X display \"\(name)\": it accepted the connection but did not answer within \(Self.seconds(timeout)) s (is the X server stopped or hung? \(X11Display.connectTimeoutVariable) sets how long to wait)."
        case .missingExtension(let name, let display):
            "The X server on \(display) has no \(name) extension, which gesture-bridge needs."
        case .xinputTooOld(let server, let required, let display):
            "The X server on \(display) offers XInput \(server), but gesture-bridge needs XInput \(required) or newer."
        case .request(let error, let display):
            "X error on \(display): \(error)."
        case .failed(let what, let display):
            "X call failed on \(display): \(what)."
        case .connectionLost(let display):
            "Lost the connection to X display \(display)."
        case .refused(let why, _):
            why
        }
    }

    /// `10`, `0.5`: a duration in seconds, as short as it can be written.
    private static func seconds(_ duration: Duration) -> String {
        let ms = duration / .milliseconds(1)
        let text = String(ms / 1000)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// The protocol error behind a ``request(_:display:)`` failure.
    public var protocolError: XProtocolError? {
        if case .request(let error, _) = self { return error }
        return nil
    }
}
