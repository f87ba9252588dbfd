/// Pinches and rotations: the fingers spread or close (the span's scale reaches
/// `pinch_min_scale` away from 1) or turn (`rotate_min_degrees`). One type for both, one value
/// each: they measure one number each (scale, angle) the same way, and may run together (a
/// two-finger twist that also spreads). Each runs until the last lift; its `repeat_every`
/// counts that number from where it began.
///
/// ```text
///   possible ──(|scale − 1| ≥ pinch_min_scale, or |angle| ≥ rotate_min_degrees)──▶ active ──(last lift, a late finger, a cancel)──▶ done
///       └──(another won; the fingers moved together past slop_px)──▶ failed
/// ```
///
/// **Fingers that move together are no pinch and no rotation.** Once the fingers' common
/// movement (the mean translation) is past `slop_px` and at least ``parallelRatio`` times their
/// relative movement (span change and arc), both fail: a two-finger scroll goes back to the
/// application as it starts, instead of waiting for a pinch that never comes until the lift.
/// The ratio keeps pinches and turns made about one still finger: those move the fingers
/// together exactly as much as apart (ratio 1).
struct PinchRotateRecognizer: Recognizer {
    /// `.pinch` or `.rotate`.
    let kind: GestureKind
    var state = RecognizerState.failed
    /// The measured number when it began: repeats count from there.
    private var origin = 0.0

    /// A pinch (`.pinch`) or a rotation (`.rotate`) recognizer.
    init(_ kind: GestureKind) {
        self.kind = kind
    }

    func canMove(to next: RecognizerState) -> Bool { state.continuousCanMove(to: next) }

    /// The number it measures: the span's scale, or the cumulative angle (degrees, clockwise).
    @inline(__always) private func measured(_ m: Measures) -> Double { kind == .pinch ? m.scale : m.angle }

    /// How many times their relative movement the fingers' common movement must be for them to
    /// move together (see the type's discussion). A two-finger scroll is far above it (its
    /// fingers' span barely changes); a pinch or turn about one still finger is at 1.
    static let parallelRatio = 2.0

    /// Far enough from rest (scale 1, angle 0), it begins; the fingers moving together past the
    /// slop, it fails.
    @inline(__always) func evaluate(_ m: Measures, _ s: RecognizerSettings) -> Verdict {
        guard state == .possible else { return .undecided }
        let far = kind == .pinch ? reaches(abs(m.scale - 1), s.pinchMinScale) : reaches(abs(m.angle), s.rotateMinDegrees)
        if far { return .win }
        let common = m.translation.length
        return common > s.slopPx && common >= Self.parallelRatio * m.differential ? .fail : .undecided
    }

    /// `in` or `out` for a pinch (a scale of exactly 1 counts as out), `cw` or `ccw` for a
    /// rotation (an angle of exactly 0 counts as ccw).
    func direction(_ m: Measures) -> Direction {
        kind == .pinch ? (m.scale < 1 ? .in : .out) : (m.angle > 0 ? .cw : .ccw)
    }

    /// It begins with these measures.
    mutating func began(_ m: Measures) { origin = measured(m) }

    /// How far it went since it began, for a binding toward `direction`, and whether both ways
    /// count (a binding without a direction fires its repeats either way).
    func progress(toward direction: Direction?, _ m: Measures) -> (progress: Double, twoSided: Bool) {
        let delta = measured(m) - origin
        guard let direction else { return (delta, true) }
        return (direction == (kind == .pinch ? .in : .ccw) ? -delta : delta, false)
    }

    /// Its report: the scale or the angle, and on `ended` its direction.
    func report(_ base: GestureReport, _ m: Measures) -> GestureReport {
        var rep = base
        if kind == .pinch { rep.scale = m.scale.finiteOrLimited } else { rep.angle = m.angle.finiteOrLimited }
        if base.phase == .ended { rep.direction = direction(m) }
        return rep
    }

    static let pinchDescriptor = GestureDescriptor(
        .pinch, continuous: true, directions: [.in, .out], leastFingers: 2, devices: [.touchscreen, .touchpad],
        coexists: [.rotate], repeatStep: RepeatStep(range: 0.005...100, unit: "changes of scale"), touchpadSequence: .pinch,
        settings: [\.pinchMinScale])

    static let rotateDescriptor = GestureDescriptor(
        .rotate, continuous: true, directions: [.cw, .ccw], leastFingers: 2, devices: [.touchscreen, .touchpad],
        coexists: [.pinch], repeatStep: RepeatStep(range: 0.5...3_600, unit: "degrees"), touchpadSequence: .pinch,
        settings: [\.rotateMinDegrees])
}
