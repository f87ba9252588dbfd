/// One monitor: a named rectangle of the screen, in root-window pixels (docs/interface.md, «Monitors»).
///
/// Live they are RandR's monitors; in a trace, the `monitors` of a `screen` event. A screen
/// without any is one monitor named ``wholeScreenName`` covering it.
///
/// ```swift
/// let right = Monitor(name: "HDMI-1", x: 1920, y: 0, width: 2560, height: 1440)
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

    /// Creates a monitor.
    public init(name: String, x: Int, y: Int, width: Int, height: Int) {
        self.name = name
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

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
