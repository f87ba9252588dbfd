/// Swipes: the fingers travel `swipe_min_px` at an average speed of at least
/// `swipe_min_velocity` from where they landed. Its direction is the translation's sector
/// (eight when a diagonal swipe is bound, else the dominant axis).
///
/// ```text
///   possible ──(swipe_min_px at ≥ swipe_min_velocity)──▶ done
///   possible ──(too slow, or its window passed: swipe_min_px / swipe_min_velocity)──▶ failed
///   possible ──(thresholds met while a stroke is bound)──▶ pending ──(lift, no stroke matched)──▶ done
///                                                           pending ──(a stroke matched, another won)──▶ failed
/// ```
/// A pending swipe keeps the direction and the measures it had when its thresholds were met,
/// and is recognized with them at the lift (docs/interface.md, «Strokes»).
struct SwipeRecognizer: Recognizer {
    let kind = GestureKind.swipe
    var state = RecognizerState.failed
    /// When the first finger landed.
    private var start = Instant(milliseconds: 0)
    /// Its window (ms): reaching `swipe_min_px` later is below `swipe_min_velocity`.
    private var window = 0.0
    /// Whether a diagonal swipe is bound: eight directions instead of four.
    private var diagonals = false
    /// What it was when its thresholds were met while a stroke was bound.
    private(set) var pending: (direction: Direction, measures: Measures)? = nil

    func canMove(to next: RecognizerState) -> Bool {
        switch (state, next) {
        case (.possible, .done), (.possible, .failed), (.possible, .pending), (.pending, .done), (.pending, .failed): true
        default: false
        }
    }

    /// Sets it up for a group that began at `start`.
    mutating func prepare(start: Instant, diagonals: Bool, _ s: RecognizerSettings) {
        self.start = start
        window = s.swipeWindowMs
        self.diagonals = diagonals
        pending = nil
    }

    /// Its timer, while it can still happen: when its window closes.
    @inline(__always) var timer: Instant? { state == .possible ? start + Interval(milliseconds: window) : nil }

    /// Whether its window closed at `t`.
    @inline(__always) func isDue(at t: Instant) -> Bool {
        guard let due = timer else { return false }
        return due <= t
    }

    /// Past its window it fails; at `swipe_min_px` it wins if fast enough, else fails. An
    /// event's time counts from the start (``timer`` is when a timer is due): the two agree
    /// wherever `start + window` is exact, which is any time a clock gives.
    func evaluate(_ m: Measures, at t: Instant, _ s: RecognizerSettings) -> Verdict {
        guard state == .possible else { return .undecided }
        return reach(s).verdict(m.translation, at: t)
    }

    /// The direction of the measured translation.
    func direction(_ m: Measures) -> Direction {
        Geometry.direction(of: m.translation, diagonals: diagonals)
    }

    /// What its verdict and direction at a translation depend on, and nothing else: the
    /// numbers ``evaluate(_:at:_:)`` reads while it is possible. Small, so that what is said
    /// before a motion (``SwipeArm``) is cheap to make at every step of a drag.
    struct Reach: Sendable {
        let start: Instant
        let window: Double
        let diagonals: Bool
        let minPx: Double
        let minVelocity: Double

        /// Its verdict on a translation at `t` (see ``SwipeRecognizer/evaluate(_:at:_:)``).
        @inline(__always) func verdict(_ translation: Point, at t: Instant) -> Verdict {
            let elapsed = (t - start).milliseconds
            if elapsed > window { return .fail }
            let distance = translation.length
            guard reaches(distance, minPx) else { return .undecided }
            return elapsed <= 0 || reaches(distance / elapsed, minVelocity) ? .win : .fail
        }

        /// The direction of a translation (see ``SwipeRecognizer/direction(_:)``).
        @inline(__always) func direction(_ translation: Point) -> Direction {
            Geometry.direction(of: translation, diagonals: diagonals)
        }
    }

    /// Its ``Reach`` under the group's thresholds.
    @inline(__always) func reach(_ s: RecognizerSettings) -> Reach {
        Reach(start: start, window: window, diagonals: diagonals, minPx: s.swipeMinPx, minVelocity: s.swipeMinVelocity)
    }

    /// Its thresholds were met while a stroke is bound: it waits for the lift as it is now.
    mutating func keep(_ m: Measures) {
        pending = (direction(m), m)
    }

    /// Its report (`recognized`): the direction, and the edge it started at.
    func report(_ base: GestureReport, direction: Direction, edge: Edge?) -> GestureReport {
        var rep = base
        rep.direction = direction
        rep.edge = edge
        return rep
    }

    static let descriptor = GestureDescriptor(
        .swipe, directions: Direction.planar, devices: [.touchscreen, .touchpad, .pointer], startsAtEdges: true,
        touchpadSequence: .swipe, settings: [\.swipeMinPx, \.swipeMinVelocity])
}
