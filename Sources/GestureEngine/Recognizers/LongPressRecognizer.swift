/// Long presses: the fingers rest, within `slop_px`, for `long_press_ms`; then it runs until the
/// last lift, firing again every `repeat_every` ms of its binding while it does.
///
/// ```text
///   possible ──(long_press_ms, within slop_px)──▶ active ──(last lift, a late finger, a cancel)──▶ done
///       └──(a finger past slop_px, another won)──▶ failed
/// ```
struct LongPressRecognizer: Recognizer {
    let kind = GestureKind.longPress
    var state = RecognizerState.failed
    /// When it begins: `long_press_ms` after the first finger landed.
    private(set) var begins = Instant(milliseconds: 0)
    /// The repeat of the binding that fired at its begin: that trigger, when it fires next,
    /// and every how many ms.
    private var repeating: (trigger: Int, next: Instant, every: Double)? = nil

    func canMove(to next: RecognizerState) -> Bool { state.continuousCanMove(to: next) }

    /// Sets it up for a group that began at `start`.
    mutating func prepare(start: Instant, _ s: RecognizerSettings) {
        begins = start + Interval(milliseconds: s.longPressMs)
        repeating = nil
    }

    /// Its timer: its begin while possible, its next repeat while it runs.
    @inline(__always) var timer: Instant? {
        switch state {
        case .possible: begins
        case .active: repeating?.next
        case .done, .failed, .pending: nil
        }
    }

    /// Whether it begins at `t`.
    @inline(__always) func isDue(at t: Instant) -> Bool { state == .possible && begins <= t }

    /// A finger that wandered past the slop is no long press.
    @inline(__always) func evaluate(_ m: Measures, _ s: RecognizerSettings) -> Verdict {
        m.wander > s.slopPx ? .fail : .undecided
    }

    /// It began at `t` and `firing` fired: the trigger's `repeat_every` (ms) starts counting.
    mutating func began(at t: Instant, firing: Int?, _ r: Recognition) {
        if let firing, let every = r.triggers[firing].repeatEvery, every > 0 {
            repeating = (firing, t + Interval(milliseconds: every), every)
        }
    }

    /// The repeat due at `t`, if one is: its trigger and its own time. The next one is then
    /// counted from it, except that at most `cap` repeats fire on the way to `target` (the time
    /// the engine advances to): a larger backlog (a daemon that was stopped, an absurd
    /// timestamp) is skipped up to the last ones.
    mutating func takeRepeat(at t: Instant, until target: Instant, cap: Int) -> (trigger: Int, time: Instant)? {
        guard state == .active, let rep = repeating, rep.next <= t else { return nil }
        var next = rep.next + Interval(milliseconds: rep.every)
        guard next > rep.next else {
            // The interval is below the clock's resolution this far out: no more repeats.
            repeating = nil
            return (rep.trigger, rep.next)
        }
        let backlog = ((target - next).milliseconds / rep.every).rounded(.down) + 1
        if backlog >= Double(cap) {
            next = next + Interval(milliseconds: (backlog - Double(cap - 1)) * rep.every)
        }
        repeating = (rep.trigger, next, rep.every)
        return (rep.trigger, rep.next)
    }

    static let descriptor = GestureDescriptor(
        .longPress, continuous: true, devices: [.touchscreen, .pointer],
        repeatStep: RepeatStep(range: 10...3_600_000, unit: "milliseconds"), settings: [\.slopPx, \.longPressMs])
}
