import GestureEngine
import GestureTestKit

/// The stroke recognizer's accuracy on the generated set, as the tables of docs/performance.md, or the
/// built-in shapes as an SVG picture.
///
///     stroke-accuracy [N [TURN]] N strokes per shape (default 100), turned TURN degrees more than the
///                                set's ±15° (default 0): per shape, confusions, scores; straight
///                                swipes; the set turned further; the templates drawn backwards
///                                (Markdown)
///     stroke-accuracy shapes-svg the built-in shapes as SVG on standard output (docs/shapes.svg)
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "shapes-svg" {
    print(StrokeShapesPicture.svg(), terminator: "")
} else {
    let variants = arguments.first.flatMap { Int($0) } ?? 100
    let turn = arguments.dropFirst().first.flatMap { Double($0) } ?? 0
    let threshold = 0.80
    print("### The generated set: \(variants) strokes per shape" + (turn == 0 ? "" : ", turned \(Int(turn))° more") + "\n")
    print(StrokeAccuracy(variants: variants, turn: turn).markdown(threshold: threshold))

    let swipes = StrokeSwipeCheck()
    let worst = swipes.worst
    let names = StrokeShape.builtIn.map(\.name)
    print("### Straight swipes\n")
    print("\(StrokeSwipeCheck.swipes.count) swipes; highest score against any shape: "
        + (worst.map { "\(fixed($0.score, 3)) (\(names[$0.shape]))" } ?? "none")
        + "; at least \(fixed(threshold, 2)): \(swipes.best.filter { ($0?.score ?? 0) >= threshold }.count)\n")

    print("### The set turned further\n")
    print("| extra turn | best match | best and ≥ \(fixed(threshold, 2)) | wrong shape ≥ \(fixed(threshold, 2)) |")
    print("|---:|---:|---:|---:|")
    for turn in [0.0, 15, 30, 45, 60, 90] {
        let turned = StrokeAccuracy(variants: variants, turn: turn)
        print("| \(Int(turn))° | \(fixed(100 * turned.rate, 1)) % | \(fixed(100 * turned.acceptedRate(atLeast: threshold), 1)) % "
            + "| \(turned.wronglyAccepted(atLeast: threshold)) |")
    }
}

if arguments.first != "shapes-svg" {
    // Direction matters: each template drawn from its end to its start.
    let recognizer = StrokeRecognizer(shapes: StrokeShape.builtIn)
    var scratch = StrokeScratch()
    let names = StrokeShape.builtIn.map(\.name)
    print("\n### The templates drawn backwards\n")
    print("| shape | score against itself | best match |")
    print("|---|---:|---|")
    for (index, shape) in StrokeShape.builtIn.enumerated() {
        let reversed = Array(shape.points.reversed())
        let own = recognizer.match(reversed, among: [index], scratch: &scratch)?.score ?? 0
        let best = recognizer.match(reversed, among: Array(names.indices), scratch: &scratch)
        print("| \(shape.name) | \(fixed(own, 3)) | " + (best.map { "\(names[$0.shape]) \(fixed($0.score, 3))" } ?? "–") + " |")
    }
}
