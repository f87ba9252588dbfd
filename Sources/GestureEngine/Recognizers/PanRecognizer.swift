/// Pans: the fingers move together past `slop_px` once no swipe can happen. It runs until the
/// last lift; its `repeat_every` counts pixels along its binding's direction (or any way, for a
/// binding without one), from where it began.
///
/// ```text
///   possible ──(past slop_px; no swipe possible; moving together, not apart)──▶ active ──(last lift, a late finger, a cancel)──▶ done
///       └──(another won)──▶ failed
/// ```
/// The arena decides the "no swipe possible" and "together": a pan waits for the swipe to fail
/// (UIKit's require-to-fail) and yields to a pinch or rotate while the fingers move relative to
/// each other more than together.
struct PanRecognizer: Recognizer {
    let kind = GestureKind.pan
    var state = RecognizerState.failed
    /// Whether a diagonal pan is bound: eight directions instead of four.
    private var diagonals = false
    /// The translation when it began: repeats count from there.
    private var origin = Point.zero

    func canMove(to next: RecognizerState) -> Bool { state.continuousCanMove(to: next) }

    /// Sets it up for a group.
    mutating func prepare(diagonals: Bool) {
        self.diagonals = diagonals
    }

    /// Past the slop it may begin.
    @inline(__always) func evaluate(_ m: Measures, _ s: RecognizerSettings) -> Verdict {
        state == .possible && m.translation.length > s.slopPx ? .win : .undecided
    }

    /// The direction of the measured translation: the dominant axis, or eight sectors when a
    /// diagonal pan is bound.
    func direction(_ m: Measures) -> Direction {
        Geometry.direction(of: m.translation, diagonals: diagonals)
    }

    /// It begins with these measures.
    mutating func began(_ m: Measures) { origin = m.translation }

    /// How far it moved since it began, for a binding toward `direction`: px along it, or px
    /// any way for a binding without one.
    func progress(toward direction: Direction?, _ m: Measures) -> Double {
        let moved = m.translation - origin
        guard let direction else { return moved.length }
        let u = direction.unitVector
        return moved.x * u.x + moved.y * u.y
    }

    /// Its report: the edge it started at, the translation and the velocity (`velocity`, px/s).
    func report(_ base: GestureReport, _ m: Measures, edge: Edge?, velocity: Point) -> GestureReport {
        var rep = base
        rep.edge = edge
        rep.translation = m.translation.finite
        rep.velocity = velocity.finite
        return rep
    }

    static let descriptor = GestureDescriptor(
        .pan, continuous: true, directions: Direction.planar, devices: [.touchscreen, .touchpad, .pointer],
        repeatStep: RepeatStep(range: 1...100_000, unit: "pixels"), startsAtEdges: true, touchpadSequence: .swipe,
        followsPath: true, settings: [\.slopPx])
}
