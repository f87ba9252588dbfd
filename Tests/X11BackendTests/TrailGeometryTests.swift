import Foundation
import GestureEngine
import Testing
@testable import X11Backend

/// The outlines of the trail and the OSD's plate, made without `sin` and `cos`.
@Suite("the trail's and the plate's outlines")
struct TrailGeometryTests {
    @Test("the turn table is cos and sin of every 15°")
    func turnTable() {
        #expect(TrailGeometry.turn.count == 24)
        for (k, (c, s)) in TrailGeometry.turn.enumerated() {
            let angle = Double(k) * Double.pi / 12
            #expect(abs(c - cos(angle)) < 1e-12 && abs(s - sin(angle)) < 1e-12, "\(k)")
        }
    }

    @Test("a capsule: a half circle around each end, its sides parallel to the segment; a dot is a circle")
    func capsule() {
        let a = Point(x: 10, y: 20), b = Point(x: 40, y: 60)
        let outline = TrailGeometry.capsule(from: a, to: b, radius: 3)
        #expect(outline.count == 26)
        // The first half around b, facing forward; the second around a.
        for p in outline.prefix(13) { #expect(abs(p.distance(to: b) - 3) < 1e-9) }
        for p in outline.suffix(13) { #expect(abs(p.distance(to: a) - 3) < 1e-9) }
        // The tip: b pushed forward along the segment by the radius.
        #expect(outline[6].distance(to: Point(x: 40 + 3 * 0.6, y: 60 + 3 * 0.8)) < 1e-9)
        let dot = TrailGeometry.capsule(from: a, to: a, radius: 2)
        #expect(dot.allSatisfy { abs($0.distance(to: a) - 2) < 1e-9 })
    }

    @Test("a rounded rectangle: its corners quarter circles within it, its sides on its edges")
    func roundedRectangle() {
        let outline = TrailGeometry.roundedRectangle(x: 0, y: 0, width: 100, height: 40, radius: 10)
        #expect(outline.count == 28)
        #expect(outline.allSatisfy { $0.x >= -1e-9 && $0.x <= 100 + 1e-9 && $0.y >= -1e-9 && $0.y <= 40 + 1e-9 })
        // The top-right corner from its top (−90°) to its right (0°), then on around.
        #expect(outline[0].distance(to: Point(x: 90, y: 0)) < 1e-9)
        #expect(outline[6].distance(to: Point(x: 100, y: 10)) < 1e-9)
        #expect(outline[7].distance(to: Point(x: 100, y: 30)) < 1e-9)
        #expect(outline[27].distance(to: Point(x: 10, y: 0)) < 1e-9)
    }
}
