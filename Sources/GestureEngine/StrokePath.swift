/// The path a gesture group draws, from its first touch or press to its lift: what a stroke
/// is compared with.
///
/// Bounded and allocation-free after ``init()``: the buffer is reserved once for
/// ``capacity`` points. When it is full, every other point is dropped in place and from then on
/// only every second sample is kept (then every fourth, …), so a long, slow path keeps its
/// shape at an even density instead of growing. The latest sample is remembered, so the
/// path always ends where the finger lifted (``finish()``).
struct StrokePath {
    /// Points kept at most. The recognizer resamples to far fewer (its templates have 64 or
    /// fewer), so 256 keeps every turn a hand draws even on a 1000 Hz mouse at its densest.
    static let capacity = 256

    private(set) var points: [Point] = []
    /// Keep one sample in `stride`: doubles at each decimation.
    private var stride = 1
    /// Samples since the last one kept.
    private var skipped = 0
    private var latest = Point.zero

    init() {
        points.reserveCapacity(Self.capacity)
    }

    /// Starts a new path (keeps the buffer).
    mutating func reset() {
        points.removeAll(keepingCapacity: true)
        stride = 1
        skipped = 0
    }

    /// A new position of the centroid.
    mutating func record(_ p: Point) {
        latest = p
        skipped += 1
        guard skipped >= stride else { return }
        skipped = 0
        append(p)
    }

    /// Ends the path at the latest sample, if it was skipped.
    mutating func finish() {
        if skipped > 0 {
            skipped = 0
            append(latest)
        }
    }

    private mutating func append(_ p: Point) {
        if points.count == Self.capacity { decimate() }
        points.append(p)
    }

    /// Keeps the even-numbered points, in place (the first one included).
    private mutating func decimate() {
        let kept = (points.count + 1) / 2
        for i in 0..<kept { points[i] = points[2 * i] }
        points.removeLast(points.count - kept)
        stride *= 2
    }

    /// The bounding box of the points kept (zero-sized at the origin when there are none).
    var bounds: PathBounds { PathBounds(points) }
}

/// The bounding box of a path: a stroke's size (its diagonal) and where it is reported (its
/// centre). Shared by the engine's strokes and `gesture-bridge learn`.
public struct PathBounds: Hashable, Sendable {
    /// The smallest x and y.
    public var min: Point
    /// The largest x and y.
    public var max: Point

    /// The box of `points`; zero-sized at the origin when there are none.
    public init(_ points: [Point]) {
        guard let first = points.first else {
            self.min = .zero
            self.max = .zero
            return
        }
        var lo = first, hi = first
        for p in points {
            lo = Point(x: Swift.min(lo.x, p.x), y: Swift.min(lo.y, p.y))
            hi = Point(x: Swift.max(hi.x, p.x), y: Swift.max(hi.y, p.y))
        }
        self.min = lo
        self.max = hi
    }

    /// Its diagonal (px): a path's size, whatever its shape.
    public var diagonal: Double { max.distance(to: min) }
    /// Its centre: where a stroke is reported.
    public var centre: Point { (min + max) / 2 }
}
