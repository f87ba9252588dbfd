public import GestureEngine
import Glibc

/// Realistic strokes drawn from a shape, seeded: what a hand drawing that shape with a mouse or a finger
/// gives the engine.
///
/// The shape is redrawn at a size and a rotation, with a slightly different aspect, a slow tremor and
/// sensor jitter, small hooks at the ends, and points sampled at a fixed event rate along a varying speed
/// (slow at the start, the end and the corners, so points are dense there).
///
/// ```swift
/// let circle = StrokeShape.builtIn[3]
/// let path = StrokeSynth.path(for: circle, seed: 7, scale: 1.5, rotation: 10, origin: Point(x: 600, y: 400))
/// let variant = StrokeSynth.variant(for: circle, seed: 8)   // scale, rotation and origin drawn from the seed
/// ```
public enum StrokeSynth {
    /// One event of a drawn stroke: where, and when after the press.
    public struct Sample: Hashable, Sendable {
        public var point: Point
        /// Seconds since the stroke began.
        public var time: Double
    }

    /// The size a shape is drawn at when `scale` is 1: its bounding box's larger side, in pixels.
    public static let baseSize = 200.0
    /// Seconds between two events (a 125 Hz mouse or touchscreen).
    public static let eventInterval = 0.008

    /// A stroke drawn from `shape`: its larger side `scale × baseSize` pixels, turned by `rotation` degrees
    /// (clockwise on screen), centred on `origin`; the rest of the variation (aspect, tremor, jitter,
    /// speed, hooks) comes from `seed`.
    public static func path(for shape: StrokeShape, seed: UInt64, scale: Double = 1, rotation: Double = 0,
                            origin: Point = Point(x: 640, y: 400)) -> [Point] {
        timedPath(for: shape, seed: seed, scale: scale, rotation: rotation, origin: origin).map(\.point)
    }

    /// A stroke with scale 0.5–2, rotation ±15° (plus `turn` degrees) and origin drawn from `seed` as well,
    /// centred far enough inside a 1280×800 screen for the largest to fit.
    public static func variant(for shape: StrokeShape, seed: UInt64, turn: Double = 0) -> [Point] {
        timedVariant(for: shape, seed: seed, turn: turn).map(\.point)
    }

    /// `variant(for:…)` with the time of each event.
    public static func timedVariant(for shape: StrokeShape, seed: UInt64, turn: Double = 0) -> [Sample] {
        var rng = SplitMix64(seed: seed ^ 0x5EED_0F57_20CE)
        let scale = 0.5 * pow(2, 2 * rng.unit())  // 0.5…2, log-uniform
        let rotation = turn - 15 + 30 * rng.unit()
        let origin = Point(x: 300 + 680 * rng.unit(), y: 250 + 300 * rng.unit())
        return timedPath(for: shape, seed: seed, scale: scale, rotation: rotation, origin: origin)
    }

    /// `path(for:…)` with the time of each event, for drawing it live at a hand's speed.
    public static func timedPath(for shape: StrokeShape, seed: UInt64, scale: Double = 1, rotation: Double = 0,
                                 origin: Point = Point(x: 640, y: 400)) -> [Sample] {
        var rng = SplitMix64(seed: seed)
        let outline = placed(shape.points, scale: scale, rotation: rotation, origin: origin, rng: &rng)
        let size = scale * baseSize
        let withHooks = hooked(outline, size: size, rng: &rng)
        return sampled(withHooks, size: size, rng: &rng)
    }

    /// A straight swipe (what must never be taken for a shape): `length` pixels from `origin` towards
    /// `angle` degrees (0 right, 90 down), bowed sideways by up to `bend` of its length, with the same
    /// jitter and speed variation as the shapes.
    public static func swipe(angle: Double, length: Double, seed: UInt64, bend: Double = 0.05,
                             origin: Point = Point(x: 640, y: 400)) -> [Point] {
        var rng = SplitMix64(seed: seed)
        let bow = bend * length * (2 * rng.unit() - 1)
        var outline: [Point] = []
        for i in 0...8 {
            let u = Double(i) / 8
            outline.append(Point(x: length * u, y: bow * 4 * u * (1 - u)))
        }
        let (c, s) = cosSin(degrees: angle)
        let turned = outline.map { p in origin + Point(x: p.x * c - p.y * s, y: p.x * s + p.y * c) }
        return sampled(turned, size: length, rng: &rng).map(\.point)
    }

    /// `points` scaled by `scale` and turned by `rotation` degrees (clockwise on screen) about their first
    /// point, then moved by `offset`.
    public static func transformed(_ points: [Point], scale: Double = 1, rotation: Double = 0,
                                   offset: Point = .zero) -> [Point] {
        guard let first = points.first else { return [] }
        let (c, s) = cosSin(degrees: rotation)
        return points.map { p in
            let d = (p - first) * scale
            return first + offset + Point(x: d.x * c - d.y * s, y: d.x * s + d.y * c)
        }
    }

    // MARK: - Steps

    /// The shape's points centred on `origin`, sized, turned, with the aspect changed by up to ±10%.
    private static func placed(_ points: [Point], scale: Double, rotation: Double, origin: Point,
                               rng: inout SplitMix64) -> [Point] {
        guard let first = points.first else { return [] }
        var minP = first, maxP = first
        for p in points {
            minP = Point(x: min(minP.x, p.x), y: min(minP.y, p.y))
            maxP = Point(x: max(maxP.x, p.x), y: max(maxP.y, p.y))
        }
        let centre = (minP + maxP) / 2
        let side = max(maxP.x - minP.x, maxP.y - minP.y, 1)
        let k = scale * baseSize / side
        let aspect = 1 + 0.1 * (2 * rng.unit() - 1)
        let (c, s) = cosSin(degrees: rotation)
        return points.map { p in
            let d = Point(x: (p.x - centre.x) * k * aspect, y: (p.y - centre.y) * k / aspect)
            return origin + Point(x: d.x * c - d.y * s, y: d.x * s + d.y * c)
        }
    }

    /// A small hook at the start and an overshoot at the end, each up to 4% of the size, half the time.
    private static func hooked(_ points: [Point], size: Double, rng: inout SplitMix64) -> [Point] {
        guard points.count >= 2 else { return points }
        var out = points
        if rng.unit() < 0.5, let end = points.last {
            let before = points[max(0, points.count - 4)]
            let d = end - before
            let length = d.length
            if length > 0 { out.append(end + d / length * (0.04 * size * rng.unit())) }
        }
        if rng.unit() < 0.5 {
            let start = points[0]
            let hook = Point(x: 2 * rng.unit() - 1, y: 2 * rng.unit() - 1) * (0.03 * size)
            out.insert(start + hook, at: 0)
        }
        return out
    }

    /// Events along the polyline at `eventInterval`, at a speed that varies smoothly and slows at the ends
    /// and at corners, each displaced by a slow tremor and by jitter.
    private static func sampled(_ outline: [Point], size: Double, rng: inout SplitMix64) -> [Sample] {
        guard outline.count >= 2 else { return outline.map { Sample(point: $0, time: 0) } }
        // Arc length at each outline vertex.
        var cumulative = [0.0]
        for i in 1..<outline.count { cumulative.append(cumulative[i - 1] + outline[i].distance(to: outline[i - 1])) }
        let total = cumulative.last!
        guard total > 0 else { return [Sample(point: outline[0], time: 0)] }

        // A hand covers a stroke in 0.4–1.2 s.
        let duration = 0.4 + 0.8 * rng.unit()
        let meanSpeed = total / duration
        let wobblePhase = 2 * Double.pi * rng.unit(), wobbleRate = 1 + 2 * rng.unit()
        let tremorPhase = (2 * Double.pi * rng.unit(), 2 * Double.pi * rng.unit())
        let tremor = 0.006 * size * rng.unit()
        let jitter = 0.6 + 0.8 * rng.unit()  // pixels

        var samples: [Sample] = []
        var s = 0.0, t = 0.0, vertex = 0
        while true {
            while vertex + 1 < outline.count - 1, cumulative[vertex + 1] < s { vertex += 1 }
            let a = outline[vertex], b = outline[vertex + 1]
            let span = cumulative[vertex + 1] - cumulative[vertex]
            let f = span > 0 ? min(1, (s - cumulative[vertex]) / span) : 0
            var p = a + (b - a) * f
            let u = s / total
            let (tc, ts) = cosSin(radians: 2 * Double.pi * 3 * u + tremorPhase.0)
            let (uc, _) = cosSin(radians: 2 * Double.pi * 2 * u + tremorPhase.1)
            p = p + Point(x: tremor * tc, y: tremor * (ts + uc) / 2)
            p = p + Point(x: jitter * gaussian(&rng), y: jitter * gaussian(&rng))
            samples.append(Sample(point: p, time: t))
            if s >= total { break }
            // Speed: slow at the ends (ease in and out), slower at corners, with a slow wobble.
            let ease = 0.25 + 0.75 * min(1, 6 * u, 6 * (1 - u))
            let corner = 1 - 0.6 * turn(outline, at: vertex)
            let (wc, _) = cosSin(radians: 2 * Double.pi * wobbleRate * u + wobblePhase)
            let speed = meanSpeed * ease * corner * (1 + 0.3 * wc) * 1.3
            s = min(total, s + max(0.5, speed * eventInterval))
            t += eventInterval
        }
        return samples
    }

    /// How sharply the outline turns near vertex `i`: 0 straight on, 1 reversing.
    private static func turn(_ outline: [Point], at i: Int) -> Double {
        let before = outline[max(0, i - 2)], here = outline[i], after = outline[min(outline.count - 1, i + 2)]
        let u = here - before, v = after - here
        let lu = u.length, lv = v.length
        guard lu > 0, lv > 0 else { return 0 }
        let cosine = (u.x * v.x + u.y * v.y) / (lu * lv)
        return (1 - cosine) / 2
    }

    private static func cosSin(degrees: Double) -> (Double, Double) { cosSin(radians: degrees * Double.pi / 180) }
    private static func cosSin(radians: Double) -> (Double, Double) { (cos(radians), sin(radians)) }

    /// A standard normal deviate (sum of 12 uniforms − 6): bounded at ±6, as a hand's jitter is.
    private static func gaussian(_ rng: inout SplitMix64) -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += rng.unit() }
        return sum - 6
    }
}
