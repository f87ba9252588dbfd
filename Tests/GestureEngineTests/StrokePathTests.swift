import Glibc
import GestureTestKit
import Testing

@testable import GestureEngine

/// A path of any length matches as its decimated copy does, on either device, and what the
/// engine keeps of it stays bounded (docs/performance.md, «Strokes: long paths»).
@Suite struct StrokePathTests {
    /// A circle drawn slowly, counter-clockwise from the top as the built-in one is, with
    /// sub-pixel tremor: `count` events (5,000 is five seconds of a 1000 Hz mouse).
    static func slowCircle(count: Int, radius: Double = 150) -> [Point] {
        var rng = SplitMix64(seed: 21)
        return (0..<count).map { k in
            // From the top, to the left first: counter-clockwise on the screen (y down).
            let angle = 2 * Double.pi * Double(k) / Double(count - 1)
            let wobble = Point(x: Double.random(in: -0.4...0.4, using: &rng), y: Double.random(in: -0.4...0.4, using: &rng))
            return Point(x: 600 - radius * sin(angle), y: 400 - radius * cos(angle)) + wobble
        }
    }

    /// Every `step`-th point and the last.
    static func decimated(_ path: [Point], every step: Int) -> [Point] {
        var copy = Swift.stride(from: 0, to: path.count, by: step).map { path[$0] }
        if copy.last != path.last { copy.append(path[path.count - 1]) }
        return copy
    }

    static func strokeReport(_ path: [Point], pointer: Bool) throws -> GestureReport {
        var s = Script()
        if pointer {
            s.pointerPath(path, time: 0, duration: 5_000)
        } else {
            s.path(path, time: 0, duration: 5_000)
        }
        return try #require(reports(run([stroke("circle"), stroke("rectangle"), stroke("triangle")], s)).first)
    }

    @Test(arguments: [1_000, 5_000, 20_000])
    func aLongPathMatchesAsItsDecimatedCopyDoes(_ count: Int) throws {
        let path = Self.slowCircle(count: count)
        let copy = Self.decimated(path, every: count / 100)
        for pointer in [false, true] {
            let long = try Self.strokeReport(path, pointer: pointer)
            let short = try Self.strokeReport(copy, pointer: pointer)
            #expect(long.shape == "circle" && short.shape == "circle")
            let difference = abs((long.score ?? 0) - (short.score ?? 0))
            #expect(difference < 0.01, "\(count) events on the \(pointer ? "pointer" : "touchscreen"): \(long.score ?? 0) vs \(short.score ?? 0)")
        }
    }

    @Test func theTouchscreenAndThePointerDrawingTheSamePathMatchAlike() throws {
        for count in [80, 700, 5_000] {
            let path = Self.slowCircle(count: count)
            let touch = try Self.strokeReport(path, pointer: false), pointer = try Self.strokeReport(path, pointer: true)
            #expect(touch.shape == pointer.shape)
            #expect(abs((touch.score ?? 0) - (pointer.score ?? 0)) < 1e-9, "\(count) events")
        }
    }

    @Test func theEngineKeepsWhatTheMatcherWouldSeeOfEveryEvent() throws {
        let path = Self.slowCircle(count: 5_000)
        let matcher = ShapeMatcher(shapes: StrokeShape.builtIn)
        var scratch = StrokeScratch()
        let direct = try #require(matcher.match(path, among: [3], scratch: &scratch))
        var kept = StrokePath()
        for p in path { kept.record(p) }
        kept.finish()
        let engine = try #require(matcher.match(kept.points, among: [3], scratch: &scratch))
        #expect(abs(direct.score - engine.score) < 0.01, "\(direct.score) vs \(engine.score)")
        #expect(kept.points.first == path.first && kept.points.last == path.last)
    }

    @Test func whatThePathKeepsIsBoundedAndEndsWhereTheFingerLifted() {
        var path = StrokePath()
        let circle = Self.slowCircle(count: 1_000, radius: 300)
        // 200 turns of a circle, each a pixel further right: 200,000 events.
        for turn in 0..<200 {
            for p in circle { path.record(p + Point(x: Double(turn), y: 0)) }
            #expect(path.points.count <= StrokePath.capacity)
        }
        let last = circle[circle.count - 1] + Point(x: 199, y: 0)
        path.record(last)
        path.finish()
        #expect(path.points.last == last)
        #expect(path.points.count <= StrokePath.capacity)
        #expect(path.points.first == circle[0])
        path.reset()
        #expect(path.points.isEmpty)
    }
}
