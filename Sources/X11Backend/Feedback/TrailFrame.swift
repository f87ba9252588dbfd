import GestureEngine

/// Where a trail's window lies, in root pixels: around the path drawn so far with room to
/// spare, grown when the path leaves it, never beyond the screen.
///
/// A trail window the size of the screen had a compositor repaint the whole screen when it was
/// mapped and again when it was unmapped, at every gesture: on Xvfb at 1280×800 with xcompmgr
/// about 2 ms of the X server's time per gesture (docs/performance.md, «Feedback»). Around
/// the path, a compositor repaints the path's box.
///
/// ```swift
/// var frame = TrailFrame(around: TrailFrame.bounds(of: [Point(x: 500, y: 300)], reach: 3), within: (1280, 800))
/// let box = TrailFrame.bounds(of: [Point(x: 900, y: 300)], reach: 3)
/// if !frame.contains(box, within: (1280, 800)) { frame = frame.grown(toContain: box, within: (1280, 800)) }
/// ```
struct TrailFrame: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// A box of root pixels, its maximum excluded.
    struct Box: Equatable {
        var minX: Int
        var minY: Int
        var maxX: Int
        var maxY: Int

        var isEmpty: Bool { maxX <= minX || maxY <= minY }

        /// The part of it on a screen of `size`.
        func clamped(to size: (width: Int, height: Int)) -> Box {
            Box(minX: max(minX, 0), minY: max(minY, 0), maxX: min(maxX, size.width), maxY: min(maxY, size.height))
        }
    }

    /// The room left around the path on each side when a frame is made or grown, at least:
    /// a frame grows once per that much of a stroke at first, then by half its size, so a
    /// long stroke moves its window a few times, not at every frame.
    static let slack = 128

    /// The pixels `points` cover once widened by `reach` (the line's half width and its
    /// anti-aliased edge), rounded outwards.
    static func bounds(of points: some Collection<Point>, reach: Double) -> Box {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        guard minX <= maxX, minY <= maxY else { return Box(minX: 0, minY: 0, maxX: 0, maxY: 0) }
        func down(_ v: Double) -> Int { Int(clamping: Int64((v - reach).rounded(.down))) - 1 }
        func up(_ v: Double) -> Int { Int(clamping: Int64((v + reach).rounded(.up))) + 2 }
        return Box(minX: down(minX), minY: down(minY), maxX: up(maxX), maxY: up(maxY))
    }

    /// A frame around `box` with ``slack`` on every side, within a screen of `size`.
    init(around box: Box, within size: (width: Int, height: Int)) {
        self.init(spanning: Box(minX: box.minX - Self.slack, minY: box.minY - Self.slack,
                                maxX: box.maxX + Self.slack, maxY: box.maxY + Self.slack), within: size)
    }

    /// The frame of `box`'s part on the screen; one pixel at least.
    private init(spanning box: Box, within size: (width: Int, height: Int)) {
        let on = box.clamped(to: size)
        x = min(on.minX, max(size.width - 1, 0))
        y = min(on.minY, max(size.height - 1, 0))
        width = max(1, on.maxX - x)
        height = max(1, on.maxY - y)
    }

    /// Whether the window shows all of `box` that lies on a screen: a path off the screen
    /// never makes it grow.
    func contains(_ box: Box, within size: (width: Int, height: Int)) -> Bool {
        let on = box.clamped(to: size)
        return on.isEmpty || (on.minX >= x && on.minY >= y && on.maxX <= x + width && on.maxY <= y + height)
    }

    /// This frame and `box`, with room to spare on the sides it grows towards: ``slack`` or
    /// half the frame's size there, whichever is more.
    func grown(toContain box: Box, within size: (width: Int, height: Int)) -> TrailFrame {
        let spareX = max(Self.slack, width / 2), spareY = max(Self.slack, height / 2)
        return TrailFrame(spanning: Box(
            minX: box.minX < x ? min(x, box.minX - spareX) : x,
            minY: box.minY < y ? min(y, box.minY - spareY) : y,
            maxX: box.maxX > x + width ? max(x + width, box.maxX + spareX) : x + width,
            maxY: box.maxY > y + height ? max(y + height, box.maxY + spareY) : y + height), within: size)
    }
}
