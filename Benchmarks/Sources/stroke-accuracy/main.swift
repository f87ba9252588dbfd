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
///     stroke-accuracy draw SHAPE SEED
///                                an xdotool script drawing a generated stroke of built-in shape number
///                                SHAPE with the right button, at a hand's pace (scripts/record-strokes)
///     stroke-accuracy recorded   strokes recorded from an X server on standard input, one per line
///                                (`NAME x,y x,y …`): each matched against all the built-in shapes
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "shapes-svg" {
    print(StrokeShapesPicture.svg(), terminator: "")
} else if arguments.first == "draw", arguments.count == 3, let shape = Int(arguments[1]), let seed = UInt64(arguments[2]),
          StrokeShape.builtIn.indices.contains(shape) {
    print(StrokeDrawing.xdotoolScript(StrokeAccuracy.timedStroke(StrokeShape.builtIn[shape], index: shape, variant: Int(seed))))
} else if arguments.first == "recorded" {
    var strokes: [(name: String, path: [Point])] = []
    while let line = readLine() {
        if let stroke = RecordedStrokes.parse(line) { strokes.append(stroke) }
    }
    print(RecordedStrokes.markdown(strokes, threshold: 0.80), terminator: "")
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

if arguments.first == nil || Int(arguments[0]) != nil {
    // Direction matters: each template drawn from its end to its start.
    let recognizer = ShapeMatcher(shapes: StrokeShape.builtIn)
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

/// Drawing a stroke on an X server with xdotool (scripts/record-strokes).
enum StrokeDrawing {
    /// An xdotool script: move to the first point, press the right button, move through the points at
    /// their times, release. Whole pixels, as XTest takes them.
    static func xdotoolScript(_ samples: [StrokeSynth.Sample]) -> String {
        guard let first = samples.first else { return "" }
        func pixel(_ p: Point) -> String { "\(Int(p.x.rounded())) \(Int(p.y.rounded()))" }
        var lines = ["mousemove \(pixel(first.point))", "sleep 0.05", "mousedown 3"]
        var time = first.time
        for sample in samples.dropFirst() {
            lines.append("sleep \(fixed(max(0, sample.time - time), 3))")
            lines.append("mousemove \(pixel(sample.point))")
            time = sample.time
        }
        lines += ["sleep 0.02", "mouseup 3", "sleep 0.05"]
        return lines.joined(separator: "\n")
    }
}
