public import GestureEngine

/// `[feedback]` (docs/config.md, «Feedback»): what the bridge shows while a gesture is drawn (a
/// trail under the pointer or the finger) and after it fired (a word on screen, the OSD), per
/// device.
///
/// Each device's settings are complete: `[feedback]` over the defaults, `[feedback.DEVICE]` over
/// `[feedback]`. Whether a trail is drawn when the config does not say is decided with the
/// bindings (``Config/drawsTrail(for:)``): where a stroke is bound for the device, the input is
/// undecided until the lift and the cursor waits, so the trail shows what is drawn.
///
/// ```swift
/// let config = try Config.parse("""
///     [feedback]
///     trail_color = "#ff8800"
///     [feedback.touchscreen]
///     trail = false
///     """, file: "example.toml")
/// config.feedback.settings(for: .pointer).trailColor   // #ff8800ff
/// ```
public struct Feedback: Hashable, Sendable {
    /// What one device shows.
    public struct Settings: Hashable, Sendable {
        /// `trail`: draw the path while the gesture is undecided; nil: where a stroke is bound
        /// for the device (``Config/drawsTrail(for:)``).
        public var trail: Bool?
        /// `trail_color`.
        public var trailColor: RGBAColor
        /// `trail_width`, px on a 96 dpi monitor (scaled on denser ones).
        public var trailWidth: Double
        /// `osd`: the gestures whose firing is named on screen; empty: none.
        public var osd: Set<GestureKind>
        /// `osd_duration_ms`.
        public var osdDurationMs: Double

        public init(
            trail: Bool? = nil, trailColor: RGBAColor = Feedback.defaultTrailColor, trailWidth: Double = Feedback.defaultTrailWidth,
            osd: Set<GestureKind> = [.stroke], osdDurationMs: Double = Feedback.defaultOSDDurationMs
        ) {
            self.trail = trail
            self.trailColor = trailColor
            self.trailWidth = trailWidth
            self.osd = osd
            self.osdDurationMs = osdDurationMs
        }
    }

    /// `[feedback]` over the defaults.
    public var base = Settings()
    /// `[feedback.DEVICE]`, each complete (over ``base``).
    public var devices: [DeviceKind: Settings] = [:]

    public init(base: Settings = Settings(), devices: [DeviceKind: Settings] = [:]) {
        self.base = base
        self.devices = devices
    }

    /// The settings of `device`: its table's, else `[feedback]`'s.
    public func settings(for device: DeviceKind) -> Settings { devices[device] ?? base }

    /// A blue that stands out on light and dark backgrounds alike, at 80 % opacity (where a
    /// compositor runs; without one the line is opaque).
    public static let defaultTrailColor = RGBAColor(red: 0x2a, green: 0x8c, blue: 0xff, alpha: 0xcc)
    /// Px at 96 dpi: as thick as a pen's line, thin enough not to hide what is under it.
    public static let defaultTrailWidth = 4.0
    /// Long enough to read three words, short enough not to be in the way of the next gesture.
    public static let defaultOSDDurationMs = 600.0
    /// The widest trail: more would hide what the gesture is drawn over.
    public static let maximumTrailWidth = 64.0
    /// The shortest and longest OSD: shorter cannot be read, longer is in the way.
    public static let osdDurationRange = 100.0...10_000.0
}

extension Config {
    /// Whether `device`'s undecided gestures draw a trail: as `trail` says, or, unsaid, where a
    /// stroke binding applies to the device (its press or touch is undecided until the lift and
    /// the pointer waits meanwhile: without the trail it would be drawn blind). A touchpad's
    /// gestures draw none.
    public func drawsTrail(for device: DeviceKind) -> Bool {
        guard device.descriptor.isOnScreen else { return false }
        if let explicit = feedback.settings(for: device).trail { return explicit }
        return bindings.contains { $0.trigger.gesture == .stroke && ($0.trigger.device == nil || $0.trigger.device == device) }
    }

    /// Whether the run shows anything at all: a trail for some device, or an OSD for a gesture
    /// some binding makes on a device that names it (an overlay is then worth preparing).
    public var showsFeedback: Bool {
        DeviceKind.allCases.contains { drawsTrail(for: $0) }
            || bindings.contains { b in
                let devices = b.trigger.device.map { [$0] } ?? DeviceKind.allCases
                return devices.contains { feedback.settings(for: $0).osd.contains(b.trigger.gesture) }
            }
    }
}

/// A colour with opacity, 8 bits a channel, as `#RRGGBB` or `#RRGGBBAA` writes it.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 255: opaque.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 0xff) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `#RRGGBB` (opaque) or `#RRGGBBAA`, hex digits in either case; nil for anything else.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var channels: [UInt8] = []
        var i = 1
        while i < digits.count {
            guard let high = Self.nibble(digits[i]), let low = Self.nibble(digits[i + 1]) else { return nil }
            channels.append(high << 4 | low)
            i += 2
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 0xff)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `#rrggbbaa`.
    public var description: String {
        "#" + [red, green, blue, alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
