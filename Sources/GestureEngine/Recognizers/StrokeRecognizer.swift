/// Strokes: at the last lift, the path the one finger (or the pointer) drew since it landed is
/// compared with the shapes the group's stroke bindings name (``ShapeMatcher``); the best one
/// fires if it scores at least `stroke_min_score` and the path is at least `stroke_min_px`
/// across (its bounding box's diagonal).
///
/// ```text
///   possible ──(last lift: the best bound shape ≥ stroke_min_score, the path ≥ stroke_min_px)──▶ done
///       └──(a lift without a match, a tap or long press won, a late finger)──▶ failed
/// ```
/// While a stroke is possible a swipe waits for the lift (``SwipeRecognizer``'s `pending`).
struct StrokeRecognizer: Recognizer {
    let kind = GestureKind.stroke
    var state = RecognizerState.failed
    /// The shapes the bound strokes of this group name (indices into the matcher's shapes):
    /// only they are compared at the lift.
    private var shapes: [Int] = []
    private var scratch = StrokeScratch()

    init() {
        shapes.reserveCapacity(32)
    }

    func canMove(to next: RecognizerState) -> Bool { state.discreteCanMove(to: next) }

    /// Sets it up for a group whose applying triggers are `candidates`: the shapes they name.
    mutating func prepare(candidates: [Int], _ r: Recognition) {
        shapes.removeAll(keepingCapacity: true)
        for i in candidates where r.triggers[i].gesture == .stroke {
            let shape = r.shapeIndex[i]
            if shape >= 0 && !shapes.contains(shape) { shapes.append(shape) }
        }
    }

    /// At the last lift: the best bound shape for `path`, when it is good enough and the path
    /// large enough, with the path's bounding box. Otherwise ``miss`` says why.
    mutating func match(_ path: inout StrokePath, _ r: Recognition, _ s: RecognizerSettings) -> (StrokeMatch, PathBounds)? {
        path.finish()
        let box = path.bounds
        let best = box.diagonal >= s.strokeMinPx ? r.strokes.match(path.points, among: shapes, scratch: &scratch) : nil
        guard let match = best, match.score >= s.strokeMinScore else {
            miss = StrokeMiss(shape: best.map { r.strokes.shapes[$0.shape].name }, score: best?.score.finiteOrLimited, diagonal: box.diagonal,
                minimumDiagonal: s.strokeMinPx)
            return nil
        }
        return (match, box)
    }

    /// Why the last ``match(_:_:_:)`` found nothing good enough (for the path's end).
    private(set) var miss: StrokeMiss? = nil

    /// Its report: the shape and its score, at the centre of the path's bounding box (where the
    /// shape was drawn, not where it ended).
    func report(_ base: GestureReport, _ match: StrokeMatch, _ bounds: PathBounds, _ r: Recognition) -> GestureReport {
        var rep = base
        rep.position = bounds.centre.finite
        rep.shape = r.strokes.shapes[match.shape].name
        rep.score = match.score.finiteOrLimited
        return rep
    }

    static let descriptor = GestureDescriptor(
        .stroke, mostFingers: 1, devices: [.touchscreen, .pointer], isDrawn: true,
        settings: [\.strokeMinScore, \.strokeMinPx])
}
