import GestureEngine
import Testing
@testable import X11Backend

/// Where a trail's window lies: around the path, grown as it leaves, never off the screen.
@Suite("the trail's window around its path")
struct TrailFrameTests {
    static let screen = (width: 1280, height: 800)

    static func rect(_ f: TrailFrame) -> [Int] { [f.x, f.y, f.width, f.height] }

    @Test("the bounds of a path are its points widened by the line's reach, rounded outwards")
    func bounds() {
        let box = TrailFrame.bounds(of: [Point(x: 100.5, y: 200), Point(x: 300, y: 250.2)], reach: 3)
        #expect(box == TrailFrame.Box(minX: 96, minY: 196, maxX: 305, maxY: 256))
        #expect(TrailFrame.bounds(of: [Point](), reach: 3).isEmpty)
    }

    @Test("a new frame leaves room around the first points, within the screen")
    func aroundTheFirstPoints() {
        let box = TrailFrame.bounds(of: [Point(x: 500, y: 300)], reach: 2)
        let frame = TrailFrame(around: box, within: Self.screen)
        #expect(Self.rect(frame) == [box.minX - TrailFrame.slack, box.minY - TrailFrame.slack,
                                     box.maxX - box.minX + 2 * TrailFrame.slack, box.maxY - box.minY + 2 * TrailFrame.slack])
        // In a corner: cut at the screen's edges.
        let cornerBox = TrailFrame.bounds(of: [Point(x: 2, y: 797)], reach: 2)
        let corner = TrailFrame(around: cornerBox, within: Self.screen)
        #expect(Self.rect(corner) == [0, cornerBox.minY - TrailFrame.slack, cornerBox.maxX + TrailFrame.slack,
                                      800 - (cornerBox.minY - TrailFrame.slack)])
    }

    @Test("a path that leaves the frame grows it towards where it went, with room to spare; what it showed stays inside")
    func grows() {
        let start = TrailFrame(around: TrailFrame.bounds(of: [Point(x: 500, y: 300)], reach: 2), within: Self.screen)
        let box = TrailFrame.bounds(of: [Point(x: 700, y: 310)], reach: 2)
        #expect(!start.contains(box, within: Self.screen))
        let grown = start.grown(toContain: box, within: Self.screen)
        #expect(grown.contains(box, within: Self.screen))
        // Only to the right: its left, top and bottom stay.
        #expect(grown.x == start.x && grown.y == start.y && grown.height == start.height)
        #expect(grown.x + grown.width == box.maxX + max(TrailFrame.slack, start.width / 2))
        #expect(grown.contains(TrailFrame.Box(minX: start.x, minY: start.y, maxX: start.x + start.width, maxY: start.y + start.height), within: Self.screen))
    }

    @Test("a long stroke moves its window a few times, not at every step; the window never leaves the screen")
    func aLongStroke() {
        var frame = TrailFrame(around: TrailFrame.bounds(of: [Point(x: 20, y: 20)], reach: 2), within: Self.screen)
        var moves = 0
        for step in 1...1000 {
            let p = Point(x: 20 + Double(step) * 1.2, y: 20 + Double(step) * 0.7)
            let box = TrailFrame.bounds(of: [p], reach: 2)
            if !frame.contains(box, within: Self.screen) {
                frame = frame.grown(toContain: box, within: Self.screen)
                moves += 1
            }
            #expect(frame.contains(box, within: Self.screen))
            #expect(frame.x >= 0 && frame.y >= 0 && frame.x + frame.width <= 1280 && frame.y + frame.height <= 800)
        }
        #expect(moves <= 10, "\(moves) moves")
    }

    @Test("a path off the screen never makes the frame grow")
    func offTheScreen() {
        let frame = TrailFrame(around: TrailFrame.bounds(of: [Point(x: 1279, y: 799)], reach: 2), within: Self.screen)
        #expect(frame.contains(TrailFrame.bounds(of: [Point(x: 5000, y: -300)], reach: 2), within: Self.screen))
        #expect(frame.width >= 1 && frame.height >= 1 && frame.x + frame.width == 1280 && frame.y + frame.height == 800)
    }
}
