/// The path a gesture group draws, from its first touch or press to its lift: what a stroke
/// is compared with.
///
/// Bounded and allocation-free after ``init()``, yet with no limit on how long a path may be
/// that changes what it matches: a sample is kept when it is more than ``spacing`` of the
/// path's reach (its largest distance from its first point, so far) from the last one kept.
/// The matcher drops points ten times closer than that anyway (`StrokeFeatures.minimumStep`),
/// so a path of thousands of events matches as its decimated copy does, whatever the event
/// rate of the device. Only when ``capacity`` points are kept — a path that long and winding
/// draws no shape — is the spacing doubled and the points thinned in place. The latest sample
/// is remembered, so the path always ends where the finger lifted (``finish()``).
struct StrokePath {
    /// Points kept at most (16 KiB). A circle keeps about 1,600 points at the first spacing,
    /// 800 after one thinning; the matcher resamples any path to 32.
    static let capacity = 1_024
    /// The least gap between kept points, as a fraction of the path's reach: a tenth of the
    /// matcher's minimum step, so that what it keeps of the path is what it would keep of every
    /// event.
    static let spacing = 0.002

    private(set) var points: [Point] = []
    /// The current spacing (doubles at each thinning).
    private var gap = Self.spacing
    /// The largest distance of a sample from the first point.
    private var reach = 0.0
    private var latest = Point.zero
    /// Whether `latest` was not kept.
    private var pending = false

    init() {
        points.reserveCapacity(Self.capacity)
    }

    /// Starts a new path (keeps the buffer).
    mutating func reset() {
        points.removeAll(keepingCapacity: true)
        gap = Self.spacing
        reach = 0
        pending = false
    }

    /// A new position of the centroid.
    mutating func record(_ p: Point) {
        latest = p
        guard let first = points.first, let last = points.last else {
            points.append(p)
            return
        }
        reach = max(reach, p.distance(to: first))
        guard p.distance(to: last) > gap * reach else {
            pending = true
            return
        }
        pending = false
        append(p)
    }

    /// Ends the path at the latest sample, if it was not kept.
    mutating func finish() {
        if pending {
            pending = false
            append(latest)
        }
    }

    private mutating func append(_ p: Point) {
        if points.count == Self.capacity { thin() }
        points.append(p)
    }

    /// Doubles the spacing until the points kept at it leave room: the first point, then each
    /// one more than the spacing from the last kept, then the last one. In place.
    private mutating func thin() {
        while points.count > Self.capacity / 2 {
            gap *= 2
            let last = points[points.count - 1]
            var kept = 1
            for i in 1..<(points.count - 1) where points[i].distance(to: points[kept - 1]) > gap * reach {
                points[kept] = points[i]
                kept += 1
            }
            points[kept] = last
            points.removeLast(points.count - kept - 1)
        }
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
