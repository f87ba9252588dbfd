/// What the recognizers look at, measured by the source from its fingers, pointer or deltas.
struct Measures: Equatable {
    /// Centroid of the fingers (or the pointer), root pixels.
    var centroid = Point.zero
    /// Mean displacement of the fingers since each landed (touchpad: sum of deltas).
    var translation = Point.zero
    /// The farthest any finger has wandered from where it landed (px).
    var wander = 0.0
    /// Span now / span at start (1 with fewer than two fingers).
    var scale = 1.0
    /// Cumulative rotation, degrees, clockwise positive.
    var angle = 0.0
    /// How far (px) the fingers moved relative to each other (span change and arc of
    /// rotation): a pan only begins when the common movement outweighs it.
    var differential = 0.0
    /// Velocity (px/s), filled in when reported.
    var velocity = Point.zero
}

/// Velocity from the translation samples of the last ``window`` ms, in a fixed ring so that
/// tracking allocates nothing.
struct VelocityTracker {
    /// Samples older than this (ms) do not count: a finger that rested this long before lifting
    /// lifts at speed zero. Flutter's `VelocityTracker` uses a 100 ms horizon too.
    static let window = 100.0
    private static let capacity = 8
    private var times = InlineArray<8, Double>(repeating: 0)
    private var xs = InlineArray<8, Double>(repeating: 0)
    private var ys = InlineArray<8, Double>(repeating: 0)
    private var count = 0
    private var head = 0

    mutating func reset() { count = 0; head = 0 }

    mutating func record(_ t: Instant, _ p: Point) {
        times[head] = t.milliseconds
        xs[head] = p.x
        ys[head] = p.y
        head = (head + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
    }

    private func sample(_ i: Int) -> (Double, Point) {
        (times[i], Point(x: xs[i], y: ys[i]))
    }

    /// Velocity in px/s at `now`: displacement between the newest sample and the oldest one
    /// within the window, over their time difference; zero when nothing moved in the window.
    func velocity(at now: Instant) -> Point {
        guard count >= 2 else { return .zero }
        let newestIndex = (head - 1 + Self.capacity) % Self.capacity
        let (tNew, pNew) = sample(newestIndex)
        if now.milliseconds - tNew > Self.window { return .zero }
        var oldest = (tNew, pNew)
        for k in 1..<count {
            let s = sample((newestIndex - k + Self.capacity) % Self.capacity)
            if now.milliseconds - s.0 > Self.window { break }
            oldest = s
        }
        let dt = tNew - oldest.0
        guard dt > 0 else { return .zero }
        return (pNew - oldest.1) * (1000 / dt)
    }
}
