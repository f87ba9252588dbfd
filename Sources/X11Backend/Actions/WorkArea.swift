public import GestureConfig

/// A rectangle in root-window pixels: the top-left corner and the size.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The first column to the right of the rectangle.
    public var maxX: Int { x + width }
    /// The first row below the rectangle.
    public var maxY: Int { y + height }
    /// Width times height; 0 for an empty rectangle.
    public var area: Int { isEmpty ? 0 : width * height }
    /// Whether it covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether the pixel at (`px`, `py`) lies inside.
    public func contains(_ px: Int, _ py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// The pixels both rectangles cover; empty (zero size) when they do not meet.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// `W×H+X+Y`, as `xrandr` writes geometry.
    public var description: String { "\(width)×\(height)+\(x)+\(y)" }
}

/// The space a panel or dock reserves at the screen's edges: EWMH `_NET_WM_STRUT_PARTIAL`
/// (or the older `_NET_WM_STRUT`, which reserves along the whole edge).
///
/// Thicknesses are measured from the edges of the *screen* (the root window), not of a monitor,
/// as EWMH defines them; the start and end of each band are inclusive.
public struct Strut: Hashable, Sendable {
    public var left = 0, right = 0, top = 0, bottom = 0
    public var leftStartY = 0, leftEndY = 0, rightStartY = 0, rightEndY = 0
    public var topStartX = 0, topEndX = 0, bottomStartX = 0, bottomEndX = 0

    /// From the 12 values of `_NET_WM_STRUT_PARTIAL`; `nil` when there are fewer.
    public init?(partial values: [UInt]) {
        guard values.count >= 12 else { return nil }
        let v = values.map { Int(clamping: $0) }
        (left, right, top, bottom) = (v[0], v[1], v[2], v[3])
        (leftStartY, leftEndY, rightStartY, rightEndY) = (v[4], v[5], v[6], v[7])
        (topStartX, topEndX, bottomStartX, bottomEndX) = (v[8], v[9], v[10], v[11])
    }

    /// From the 4 values of `_NET_WM_STRUT`: each band runs along the whole edge of a screen
    /// of `screen`'s size; `nil` when there are fewer values.
    public init?(legacy values: [UInt], screen: PixelRect) {
        guard values.count >= 4 else { return nil }
        let v = values.map { Int(clamping: $0) }
        (left, right, top, bottom) = (v[0], v[1], v[2], v[3])
        (leftStartY, leftEndY, rightStartY, rightEndY) = (0, screen.height - 1, 0, screen.height - 1)
        (topStartX, topEndX, bottomStartX, bottomEndX) = (0, screen.width - 1, 0, screen.width - 1)
    }

    /// The rectangles it reserves on a screen of `screen`'s size, with the side each is on.
    func reserved(on screen: PixelRect) -> [(side: TileSide, rect: PixelRect)] {
        [
            (.left, PixelRect(x: 0, y: leftStartY, width: left, height: leftEndY - leftStartY + 1)),
            (.right, PixelRect(x: screen.width - right, y: rightStartY, width: right, height: rightEndY - rightStartY + 1)),
            (.top, PixelRect(x: topStartX, y: 0, width: topEndX - topStartX + 1, height: top)),
            (.bottom, PixelRect(x: bottomStartX, y: screen.height - bottom, width: bottomEndX - bottomStartX + 1, height: bottom)),
        ].filter { !$0.rect.isEmpty }
    }
}

/// Where `window tile` puts a window: the monitor it is on, that monitor's work area, and the
/// half of it. Pure arithmetic, so that it is tested without a server and can serve other
/// callers that need "the monitor a rectangle is on".
public enum WindowPlacement {
    /// The index of the monitor `frame` is on, or `nil` when there are no monitors.
    ///
    /// The rule: the *smallest* monitor that contains the frame's centre (so a screen-sized
    /// monitor listed beside the real ones — Xvfb lists one after `xrandr --setmonitor` — loses
    /// to the real one; between equal ones, the first listed); when no monitor contains the
    /// centre, the one the frame overlaps most; when it overlaps none, the one nearest its centre.
    public static func monitor(for frame: PixelRect, among monitors: [PixelRect]) -> Int? {
        let cx = frame.x + frame.width / 2, cy = frame.y + frame.height / 2
        let containing = monitors.indices.filter { monitors[$0].contains(cx, cy) }
        if let smallest = containing.min(by: { monitors[$0].area < monitors[$1].area }) { return smallest }
        let overlaps = monitors.indices.map { (index: $0, area: monitors[$0].intersection(frame).area) }
        if let best = overlaps.max(by: { $0.area < $1.area }), best.area > 0 {
            // `max` keeps the last of equals: take the first listed instead.
            return overlaps.first { $0.area == best.area }?.index
        }
        func distance(_ m: PixelRect) -> Int {
            let dx = max(m.x - cx, 0, cx - (m.maxX - 1)), dy = max(m.y - cy, 0, cy - (m.maxY - 1))
            return dx * dx + dy * dy
        }
        return monitors.indices.min { distance(monitors[$0]) < distance(monitors[$1]) }
    }

    /// The work area of `monitor`: the monitor minus every band of `struts` that overlaps it,
    /// each band pushing in the monitor's side it is on. Struts that would leave nothing are
    /// ignored (a panel that claims a whole monitor is a broken panel, not a reason to fail).
    public static func workArea(of monitor: PixelRect, struts: [Strut], screen: PixelRect) -> PixelRect {
        var left = monitor.x, top = monitor.y, right = monitor.maxX, bottom = monitor.maxY
        for strut in struts {
            for (side, band) in strut.reserved(on: screen) where !band.intersection(monitor).isEmpty {
                switch side {
                case .left: left = max(left, band.maxX)
                case .right: right = min(right, band.x)
                case .top: top = max(top, band.maxY)
                case .bottom: bottom = min(bottom, band.y)
                }
            }
        }
        let area = PixelRect(x: left, y: top, width: right - left, height: bottom - top)
        return area.isEmpty ? monitor : area
    }

    /// What the window manager's own work area (`_NET_WORKAREA`, one rectangle for the whole
    /// screen) reserves beyond `struts`, as struts along whole edges of the screen.
    ///
    /// `_NET_WORKAREA` counts every reservation, the window manager's own panels included
    /// (fluxbox's toolbar and IceWM's taskbar are not client windows, so their struts are read
    /// nowhere else), but it is one rectangle for all monitors: a panel on one monitor shrinks
    /// it for all of them. So it only adds what the known struts do not explain: an edge of it
    /// further in than the thickest strut on that edge becomes a band along that whole edge.
    public static func reservations(of workArea: PixelRect, beyond struts: [Strut], screen: PixelRect) -> [Strut] {
        var known = (left: 0, right: 0, top: 0, bottom: 0)
        for strut in struts {
            for (side, band) in strut.reserved(on: screen) {
                switch side {
                case .left: known.left = max(known.left, band.maxX)
                case .right: known.right = max(known.right, screen.maxX - band.x)
                case .top: known.top = max(known.top, band.maxY)
                case .bottom: known.bottom = max(known.bottom, screen.maxY - band.y)
                }
            }
        }
        let area = workArea.intersection(screen)
        guard !area.isEmpty else { return [] }
        let wm = (left: area.x - screen.x, right: screen.maxX - area.maxX, top: area.y - screen.y, bottom: screen.maxY - area.maxY)
        let values = [
            wm.left > known.left ? wm.left : 0, wm.right > known.right ? wm.right : 0,
            wm.top > known.top ? wm.top : 0, wm.bottom > known.bottom ? wm.bottom : 0,
        ].map { UInt($0) }
        guard values.contains(where: { $0 > 0 }), let strut = Strut(legacy: values, screen: screen) else { return [] }
        return [strut]
    }

    /// That half of `area`; with an odd size, the left or top half is the smaller by a pixel.
    public static func half(_ side: TileSide, of area: PixelRect) -> PixelRect {
        let halfWidth = area.width / 2, halfHeight = area.height / 2
        switch side {
        case .left: return PixelRect(x: area.x, y: area.y, width: halfWidth, height: area.height)
        case .right: return PixelRect(x: area.x + halfWidth, y: area.y, width: area.width - halfWidth, height: area.height)
        case .top: return PixelRect(x: area.x, y: area.y, width: area.width, height: halfHeight)
        case .bottom: return PixelRect(x: area.x, y: area.y + halfHeight, width: area.width, height: area.height - halfHeight)
        }
    }
}
