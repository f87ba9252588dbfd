import GestureEngine
import GestureTestKit

/// `stroke-accuracy learn [K] DIR…`: each person learns each shape from `K` of their own
/// drawings, as `gesture-bridge learn NAME --samples K` makes it (one template per drawing,
/// replacing the built-in shape of that name), and their other drawings are matched with the 16
/// shapes bound: how often the learned shape fires for its own drawings, how often it fires for
/// drawings of other shapes (and of question marks), under each way of giving it a tolerance.
///
/// The matcher alone (`ShapeMatcher`, as at the lift), not the replay path: the question is the
/// tolerance of a shape of one's own, and the replay path reaches the matcher with the same
/// points (docs/performance.md, «Strokes: accuracy on people's drawings»).
struct LearnReport {
    /// A way of giving a learned shape its tolerance, from its drawings' distances from each
    /// other (each from the shape of the others).
    struct Policy: Sendable {
        var name: String
        var tolerance: @Sendable (_ leaveOneOut: [Double]) -> Double
    }

    static let builtInTolerances = StrokeShape.builtIn.map(\.tolerance).sorted()

    static let policies: [Policy] = [
        Policy(name: "the median of the built-in tolerances (\(fixed(StrokeShape.defaultTolerance, 3)))") { _ in
            StrokeShape.defaultTolerance
        },
        Policy(name: "the least built-in tolerance (\(fixed(builtInTolerances[0], 3)))") { _ in builtInTolerances[0] },
        Policy(name: "the largest built-in tolerance (\(fixed(builtInTolerances[builtInTolerances.count - 1], 3)))") { _ in
            builtInTolerances[builtInTolerances.count - 1]
        },
    ] + [3.0, 6.0, 10.0].map { k in
        Policy(name: "\(Int(k)) × the drawings' largest distance from each other, within the built-in range") { distances in
            min(max(k * (distances.max() ?? 0), builtInTolerances[0]), builtInTolerances[builtInTolerances.count - 1])
        }
    }

    /// One learned shape's test: for each other drawing of the person, the best shape, its
    /// distance, and whether the path passed the line rule.
    struct Trial {
        var shape: String
        var leaveOneOut: [Double]
        var outcomes: [(drawing: HumanStroke, best: String, distance: Double, isShape: Bool)]
        /// Of the person's other drawings of the shape, how many fire the built-in shape when
        /// nothing is learned (all 16 built-in shapes bound, default settings).
        var builtInFired: Int
    }

    var trials: [Trial] = []
    let samples: Int

    init(_ drawings: [HumanStroke], samples: Int, progress: (String) -> Void) {
        self.samples = samples
        let builtIn = StrokeShape.builtIn
        for person in Set(drawings.map(\.person)).sorted() {
            progress("learning \(person)'s shapes")
            let own = drawings.filter { $0.person == person }
            for shape in builtIn.map(\.name) {
                // The first drawings at the person's middle speed (or their only one), as a person would draw them to learn.
                let ofShape = own.filter { $0.shape == shape }
                let pool = ofShape.filter { $0.speed == "medium" }.isEmpty ? ofShape : ofShape.filter { $0.speed == "medium" }
                guard pool.count > samples else { continue }
                let taught = Array(pool.prefix(samples))
                let templates = taught.map { $0.samples.map(\.point) }
                let leaveOneOut = templates.count < 2 ? [] : templates.indices.map { i in
                    Self.distance(templates[i], from: templates.indices.filter { $0 != i }.map { templates[$0] })
                }
                var shapes = builtIn.filter { $0.name != shape }
                shapes.append(StrokeShape(name: shape, templates: templates))
                let matcher = ShapeMatcher(shapes: shapes)
                var scratch = StrokeScratch()
                let taughtFiles = Set(taught.map(\.file))
                var outcomes: [(drawing: HumanStroke, best: String, distance: Double, isShape: Bool)] = []
                var builtInFired = 0
                let builtInMatcher = ShapeMatcher(shapes: builtIn)
                for drawing in own where !taughtFiles.contains(drawing.file) {
                    guard let match = matcher.match(drawing.samples.map(\.point), among: Array(shapes.indices), scratch: &scratch)
                    else { continue }
                    // The line rule gives 0 whatever the tolerance; a positive score passed it.
                    let isShape = match.score > 0 || match.distance >= 5 * shapes[match.shape].tolerance
                    outcomes.append((drawing, shapes[match.shape].name, match.distance, isShape))
                    if drawing.shape == shape,
                       let before = builtInMatcher.match(drawing.samples.map(\.point), among: Array(builtIn.indices), scratch: &scratch),
                       builtIn[before.shape].name == shape, before.score >= 0.80
                    {
                        builtInFired += 1
                    }
                }
                trials.append(Trial(shape: shape, leaveOneOut: leaveOneOut, outcomes: outcomes, builtInFired: builtInFired))
            }
        }
    }

    /// The warped distance of `drawing` from a shape whose templates are `others`.
    static func distance(_ drawing: [Point], from others: [[Point]]) -> Double {
        let matcher = ShapeMatcher(shapes: [StrokeShape(name: "", templates: others)])
        var scratch = StrokeScratch()
        return matcher.match(drawing, among: [0], scratch: &scratch)?.distance ?? .infinity
    }

    var markdown: String {
        var out = "| tolerance of the learned shape | its drawings: fired / rejected by learn | "
            + "other shapes' drawings firing it | question marks firing it |\n|---|---:|---:|---:|\n"
        for policy in Self.policies {
            var own = 0, ownFired = 0, others = 0, othersFired = 0, questions = 0, questionsFired = 0, refused = 0
            for trial in trials {
                let tolerance = policy.tolerance(trial.leaveOneOut)
                // learn asks again for a drawing scoring below 0.80 against the others: farther than the tolerance.
                if trial.leaveOneOut.contains(where: { $0 > tolerance }) { refused += 1 }
                for outcome in trial.outcomes {
                    let fired = outcome.best == trial.shape && outcome.isShape && outcome.distance <= tolerance
                    if outcome.drawing.shape == trial.shape {
                        own += 1
                        if fired { ownFired += 1 }
                    } else if outcome.drawing.isBuiltIn {
                        others += 1
                        if fired { othersFired += 1 }
                    } else {
                        questions += 1
                        if fired { questionsFired += 1 }
                    }
                }
            }
            out += "| \(policy.name) | \(HumanReport.percent(ownFired, own)) / \(HumanReport.percent(refused, trials.count)) | "
                + "\(HumanReport.percent(othersFired, others)) (\(othersFired) of \(others)) | "
                + "\(HumanReport.percent(questionsFired, questions)) (\(questionsFired) of \(questions)) |\n"
        }
        let own = trials.reduce(0) { total, trial in total + trial.outcomes.filter { $0.drawing.shape == trial.shape }.count }
        out += "| nothing learned: the built-in shape | \(HumanReport.percent(trials.reduce(0) { $0 + $1.builtInFired }, own)) / – | – | – |\n"
        let distances = trials.flatMap(\.leaveOneOut).sorted()
        if !distances.isEmpty {
            out += "\n\(trials.count) shapes learned from \(samples) drawings each; the drawings' distances from the others: "
                + "median \(fixed(distances[distances.count / 2], 3)), 90 % within \(fixed(distances[distances.count * 9 / 10], 3)), "
                + "largest \(fixed(distances[distances.count - 1], 3)).\n"
        }
        return out
    }
}
