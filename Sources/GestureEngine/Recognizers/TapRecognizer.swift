/// Taps: the fingers land and lift again within `tap_max_ms`, none wandering past `slop_px`.
/// A completed tap hands its touches to the multi-tap sequence (``TapSequence``), which counts
/// it and reports it; the recognizer only says whether the group was a tap.
///
/// ```text
///   possible ──(every finger lifted by tap_max_ms, none past slop_px)──▶ done
///       └──(a finger past slop_px, tap_max_ms passed, another won, a late finger)──▶ failed
/// ```
struct TapRecognizer: Recognizer {
    let kind = GestureKind.tap
    var state = RecognizerState.failed
    /// The highest tap count bound for the group: what a multi-tap it starts may reach.
    private(set) var maxTaps = 0
    /// When the first finger landed.
    private var start = Instant(milliseconds: 0)
    /// How long it may last: `tap_max_ms`.
    private var limit = Interval(milliseconds: 0)

    func canMove(to next: RecognizerState) -> Bool { state.discreteCanMove(to: next) }

    /// Sets it up for a group that began at `start`.
    mutating func prepare(start: Instant, maxTaps: Int, _ s: RecognizerSettings) {
        self.maxTaps = maxTaps
        self.start = start
        limit = Interval(milliseconds: s.tapMaxMs)
    }

    /// Its timer, while it can still win: when its time runs out.
    @inline(__always) var timer: Instant? { state == .possible ? start + limit : nil }

    /// Whether its time ran out at `t`.
    @inline(__always) func isDue(at t: Instant) -> Bool {
        guard let due = timer else { return false }
        return due <= t
    }

    /// A finger that wandered past the slop is no tap.
    @inline(__always) func evaluate(_ m: Measures, _ s: RecognizerSettings) -> Verdict {
        m.wander > s.slopPx ? .fail : .undecided
    }

    /// At the last lift, at `t`: whether the group was a tap (in time, no finger past the slop).
    /// An event's time counts from the start (``timer`` is when a timer is due): the two agree
    /// wherever `start + tap_max_ms` is exact, which is any time a clock gives.
    func completes(at t: Instant, _ m: Measures, _ s: RecognizerSettings) -> Bool {
        state == .possible && t - start <= limit && m.wander <= s.slopPx
    }

    /// The highest tap count this group could still make: 0 once it cannot be a tap.
    var possibleTaps: Int { state == .possible ? maxTaps : 0 }

    static let descriptor = GestureDescriptor(
        .tap, devices: [.touchscreen], countsTaps: true,
        settings: [\.slopPx, \.tapMaxMs, \.multiTapIntervalMs, \.multiTapDistancePx])
}
