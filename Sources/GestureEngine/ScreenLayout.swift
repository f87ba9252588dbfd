/// One monitor: a named rectangle of the screen, in root-window pixels (docs/interface.md, «Monitors»).
///
/// Live they are RandR's monitors; in a trace, the `monitors` of a `screen` event. A screen
/// without any is one monitor named ``wholeScreenName`` covering it.
///
/// Its physical size, when known, turns distances given in millimetres (`swipe_min_mm` …) into
/// its pixels (``pixelsPerMillimetre``).
///
/// ```swift
/// let right = Monitor(name: "HDMI-1", x: 1920, y: 0, width: 2560, height: 1440, widthMm: 597, heightMm: 336)
/// right.pixelsPerMillimetre   // 4.29 (109 dpi)
/// ```
public struct Monitor: Hashable, Sendable {
    /// The monitor's name, as bindings write it in `monitor = "NAME"` (exact, case-sensitive).
    public var name: String
    /// Left side, root pixels.
    public var x: Int
    /// Top side, root pixels.
    public var y: Int
    /// Width in pixels (at least 1).
    public var width: Int
    /// Height in pixels (at least 1).
    public var height: Int
    /// Physical width in millimetres, as it is shown (a monitor turned to portrait is narrow);
    /// `nil` when the monitor reports none.
    public var widthMm: Int?
    /// Physical height in millimetres; `nil` when the monitor reports none.
    public var heightMm: Int?

    /// Creates a monitor.
    public init(name: String, x: Int, y: Int, width: Int, height: Int, widthMm: Int? = nil, heightMm: Int? = nil) {
        self.name = name
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.widthMm = widthMm
        self.heightMm = heightMm
    }

    /// Pixels per millimetre on this monitor, from its diagonal in pixels and in millimetres
    /// (the diagonal does not care whether the size is reported turned with the monitor or
    /// not); `nil` when it reports no size, or one no screen has (``plausiblePixelsPerMillimetre``).
    public var pixelsPerMillimetre: Double? {
        guard let widthMm, let heightMm, widthMm > 0, heightMm > 0 else { return nil }
        let pixels = Double(width * width + height * height).squareRoot()
        let millimetres = Double(widthMm * widthMm + heightMm * heightMm).squareRoot()
        let density = pixels / millimetres
        return Self.plausiblePixelsPerMillimetre.contains(density) ? density : nil
    }

    /// The densities a screen can have, 25 to 1016 dpi: a 55" TV at 1366×768 is 1.1 px/mm, a
    /// phone 20. Outside it the size is an EDID's mistake (some give the aspect ratio, 16×9,
    /// in centimetres), and the fallback of 96 dpi is nearer the truth.
    public static let plausiblePixelsPerMillimetre: ClosedRange<Double> = 1...40

    /// The density assumed where a monitor reports no size: 96 dpi, X's own default (and what
    /// the pixel thresholds' defaults were chosen on).
    public static let fallbackPixelsPerMillimetre = 96 / 25.4

    /// The name of the one monitor a screen without a monitor list has.
    public static let wholeScreenName = "screen"

    /// Whether `p` lies on this monitor: left and top sides included, right and bottom
    /// excluded, so a point on the seam of two side-by-side monitors lies on exactly one.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= Double(x) && p.x < Double(x + width) && p.y >= Double(y) && p.y < Double(y + height)
    }

    /// How far `p` is from this monitor (0 on it), for the nearest-monitor rule.
    @inlinable public func distance(to p: Point) -> Double {
        let dx = max(Double(x) - p.x, 0, p.x - Double(x + width))
        let dy = max(Double(y) - p.y, 0, p.y - Double(y + height))
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// The screen as the engine knows it: its size and its monitors (never empty).
///
/// Stored when a `screen` event comes, so locating a gesture's monitor costs a walk over a
/// handful of rectangles and no allocation.
public struct ScreenLayout: Hashable, Sendable {
    /// The root window's width, pixels.
    public var width: Int
    /// The root window's height, pixels.
    public var height: Int
    /// The monitors in the order they were listed; one named ``Monitor/wholeScreenName``
    /// covering the screen when none were given.
    public private(set) var monitors: [Monitor]

    /// Creates a layout; an empty `monitors` means the whole screen is one monitor.
    public init(width: Int, height: Int, monitors: [Monitor] = []) {
        self.width = width
        self.height = height
        self.monitors = monitors.isEmpty
            ? [Monitor(name: Monitor.wholeScreenName, x: 0, y: 0, width: width, height: height)] : monitors
    }

    /// The index of the monitor a gesture starting at `p` is on: the first listed that
    /// contains it, else the nearest (the first listed of equally near ones).
    public func monitorIndex(at p: Point) -> Int {
        var nearest = 0
        var nearestDistance = Double.infinity
        for i in monitors.indices {
            if monitors[i].contains(p) { return i }
            let d = monitors[i].distance(to: p)
            if d < nearestDistance {
                nearest = i
                nearestDistance = d
            }
        }
        return nearest
    }
}
