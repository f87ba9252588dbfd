public import GestureEngine
import GestureConfig

/// `gesture-bridge learn NAME --samples N`: the drawings of one shape, each a template of the
/// `[[shape]]` they become, and how alike they are (docs/config.md, «`gesture-bridge learn NAME`»).
///
/// How alike is measured by the recognizer itself: each drawing is matched, by the same
/// ``ShapeMatcher`` and with the same tolerance the daemon will use, against a shape made of
/// the *other* drawings. Its score (0–1, 1 is identical) is the score it would get as a stroke
/// if the others were the shape: at or above `stroke_min_score` it would fire. A drawing below
/// it is too unlike the others — the others would not recognize it, nor it them — and is asked
/// for again (the lowest first); the reason says whether it was drawn the other way round, is
/// nearly a straight line (a swipe, never a shape), or simply has another form.
///
/// A pure value: the drawings are data (``ShapeLearner`` makes them from input events).
///
/// ```swift
/// var samples = ShapeSamples(name: "L", count: 3)
/// switch samples.add(drawing, minimumScore: 0.80) {
/// case .more(let taken): print("drawing \(taken) of 3 taken")
/// case .redo(let index, let reason, _): print("drawing \(index + 1): \(reason)")
/// case .alike(let similarity): print(samples.block(similarity))
/// }
/// ```
public struct ShapeSamples: Sendable {
    /// A drawing and the `stroke_min_score` of the device it was drawn with: the score it must
    /// reach against the others.
    public struct Drawing: Equatable, Sendable {
        /// The drawing as a template: ``ShapeLearner``'s points, relative to its top-left.
        public var points: [Point]
        /// `stroke_min_score` of the device it was drawn with.
        public var minimumScore: Double

        public init(points: [Point], minimumScore: Double) {
            self.points = points
            self.minimumScore = minimumScore
        }
    }

    /// How alike the drawings are: each one's score against the others, in drawing order.
    public struct Similarity: Equatable, Sendable {
        /// Drawing *i*'s score as a stroke against the shape of the other drawings (0–1, 1 is
        /// identical); empty for a single drawing, which has nothing to be compared with.
        public var scores: [Double]
        /// The `stroke_min_score` the drawings were held to: the lowest of their devices' when
        /// they are alike, the one a drawing asked for again missed.
        public var minimumScore: Double

        public init(scores: [Double], minimumScore: Double) {
            self.scores = scores
            self.minimumScore = minimumScore
        }

        /// The least alike drawing's score (1 for a single drawing).
        public var lowest: Double { scores.min() ?? 1 }
    }

    /// Why a drawing was too unlike the others.
    public enum Unlikeness: Equatable, Sendable {
        /// Its form differs.
        case form
        /// Drawn backwards it would match: it was drawn from the others' end to their start.
        case reversed
        /// It matches the others, but is about as near the straight line between its ends: the
        /// recognizer takes such a path for a swipe, never a shape (docs/config.md, «Strokes»).
        case straight
    }

    /// What the drawings so far come to.
    public enum Verdict: Equatable, Sendable {
        /// `taken` drawings are alike so far (or too few to compare): draw the next.
        case more(taken: Int)
        /// The drawing at `index` (from 0) is too unlike the others, for `reason`: it has been
        /// dropped, and the next drawing takes its place.
        case redo(index: Int, reason: Unlikeness, similarity: Similarity)
        /// All the drawings are taken and alike: ``shape`` and ``block(_:)`` are ready.
        case alike(Similarity)
    }

    /// The most drawings a shape can be learned from: a `[[shape]]` has at most 16 templates.
    public static let maximumCount = 16

    /// The shape's name, as bindings will name it.
    public let name: String
    /// How many drawings the shape is learned from.
    public let count: Int
    /// The learned shape's tolerance: what a `[[shape]]` of the config gets (the median of the
    /// built-in shapes' measured ones), so that the score a drawing gets here is the score a
    /// stroke drawn like it gets in the daemon.
    public let tolerance = StrokeShape.defaultTolerance
    /// The drawings taken, in drawing order.
    public private(set) var drawings: [Drawing] = []
    /// Where the next drawing goes: the place of one asked for again, else the end.
    private var nextIndex: Int? = nil

    /// Drawings of `name` to come, `count` of them (1 to ``maximumCount``).
    public init(name: String, count: Int) {
        precondition((1...Self.maximumCount).contains(count), "a shape is learned from 1 to 16 drawings")
        self.name = name
        self.count = count
    }

    /// The learned shape: one template per drawing.
    public var shape: StrokeShape { StrokeShape(name: name, templates: drawings.map(\.points), tolerance: tolerance) }

    /// Takes one more drawing (``ShapeLearner``'s points) drawn on a device whose
    /// `stroke_min_score` is `minimumScore`; once all are taken, compares them.
    public mutating func add(_ points: [Point], minimumScore: Double) -> Verdict {
        let drawing = Drawing(points: points, minimumScore: minimumScore)
        if let index = nextIndex {
            drawings.insert(drawing, at: index)
            nextIndex = nil
        } else {
            drawings.append(drawing)
        }
        guard drawings.count == count else { return .more(taken: drawings.count) }
        var similarity = Self.similarity(of: drawings.map(\.points), tolerance: tolerance)
        let scores = similarity.scores
        // Of the drawings below their device's threshold, the least alike first; of equals, the
        // later one (of two, the second is redrawn).
        let unlike = scores.indices.filter { scores[$0] < drawings[$0].minimumScore }
        guard let worst = unlike.min(by: { a, b in scores[a] < scores[b] || (scores[a] == scores[b] && a > b) }) else {
            similarity.minimumScore = drawings.map(\.minimumScore).min() ?? similarity.minimumScore
            return .alike(similarity)
        }
        similarity.minimumScore = drawings[worst].minimumScore
        let others = drawings.indices.filter { $0 != worst }.map { drawings[$0].points }
        let reason = Self.unlikeness(of: drawings[worst], to: others, tolerance: tolerance)
        drawings.remove(at: worst)
        nextIndex = worst
        return .redo(index: worst, reason: reason, similarity: similarity)
    }

    /// Each drawing's score against the shape of the others, by the recognizer's matcher.
    public static func similarity(of drawings: [[Point]], tolerance: Double) -> Similarity {
        let minimumScore = RecognizerSettings().strokeMinScore
        guard drawings.count > 1 else { return Similarity(scores: [], minimumScore: minimumScore) }
        return Similarity(scores: drawings.indices.map { i in
            match(drawings[i], against: drawings.indices.filter { $0 != i }.map { drawings[$0] }, tolerance: tolerance)?.score ?? 0
        }, minimumScore: minimumScore)
    }

    /// `drawing` matched as a stroke against a shape whose templates are `others`.
    private static func match(_ drawing: [Point], against others: [[Point]], tolerance: Double) -> StrokeMatch? {
        let matcher = ShapeMatcher(shapes: [StrokeShape(name: "", templates: others, tolerance: tolerance)])
        var scratch = StrokeScratch()
        return matcher.match(drawing, among: [0], scratch: &scratch)
    }

    /// Why `drawing` scores below its `stroke_min_score` against `others`.
    private static func unlikeness(of drawing: Drawing, to others: [[Point]], tolerance: Double) -> Unlikeness {
        if let match = match(drawing.points, against: others, tolerance: tolerance), match.score == 0,
           ShapeMatcher.score(distance: match.distance, tolerance: tolerance) >= drawing.minimumScore
        {
            return .straight
        }
        if let backwards = match(drawing.points.reversed(), against: others, tolerance: tolerance),
           backwards.score >= drawing.minimumScore
        {
            return .reversed
        }
        return .form
    }

    // MARK: - What learn says

    /// The scores as a person reads them: `0.91, 0.87 and 0.93`.
    static func listed(_ scores: [Double]) -> String {
        let written = scores.map(scoreText)
        guard written.count > 1 else { return written.first ?? "" }
        return written.dropLast().joined(separator: ", ") + " and " + written[written.count - 1]
    }

    /// A score with 2 decimals, as the OSD shows it.
    static func scoreText(_ score: Double) -> String {
        let hundredths = Int((score * 100).rounded())
        return "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    }

    /// What `learn` says of a verdict, for the person drawing.
    public func message(_ verdict: Verdict) -> String {
        switch verdict {
        case .more(let taken):
            return "drawing \(taken) of \(count) taken: draw the shape \(name) again"
        case .alike(let similarity):
            guard count > 1 else { return "drawing taken" }
            return "the \(count) drawings are alike: each scores \(Self.listed(similarity.scores)) against the others "
                + "(1 is identical; a stroke fires from stroke_min_score \(Self.scoreText(similarity.minimumScore)))"
        case .redo(let index, let reason, let similarity):
            let score = Self.scoreText(similarity.scores[index])
            let why: String
            switch reason {
            case .form:
                why = count == 2
                    ? "drawings 1 and 2 are unlike each other: they score \(score) against each other"
                    : "drawing \(index + 1) is unlike the others: it scores \(score) against them"
            case .reversed:
                why = "drawing \(index + 1) was drawn the other way round (from where the "
                    + (count == 2 ? "other ends to where it starts" : "others end to where they start")
                    + "): it scores \(score) against " + (count == 2 ? "it" : "them")
            case .straight:
                why = "drawing \(index + 1) is nearly a straight line, which is taken for a swipe and never a shape"
                    + " (it scores \(score))"
            }
            let others = similarity.scores.indices.filter { $0 != index }.map { similarity.scores[$0] }
            let rest = count > 2 && reason == .form ? " (the others: \(Self.listed(others)))" : ""
            return "\(why), below stroke_min_score \(Self.scoreText(similarity.minimumScore))\(rest): draw it again"
        }
    }

    /// The `[[shape]]` block of the learned shape: `points` for one drawing (as `learn` always
    /// wrote), `templates` for several, after a comment saying how alike they were.
    ///
    /// ```toml
    /// # learned from 3 drawings, each scoring 0.91, 0.87 and 0.93 against the others
    /// [[shape]]
    /// name = "L"
    /// templates = [
    ///     [
    ///         [0, 0], [0, 12], …
    ///     ],
    ///     …
    /// ]
    /// ```
    public func block(_ similarity: Similarity) -> String {
        guard drawings.count > 1 else { return ShapeLearner.block(name: name, points: drawings.first?.points ?? []) }
        var out = "# learned from \(drawings.count) drawings, each scoring \(Self.listed(similarity.scores)) against the others\n"
        out += "[[shape]]\nname = " + JSONQuote.quoted(name) + "\ntemplates = [\n"
        for drawing in drawings {
            out += "    [" + ShapeLearner.pointLines(drawing.points, indent: "        ") + "\n    ],\n"
        }
        return out + "]\n"
    }
}
