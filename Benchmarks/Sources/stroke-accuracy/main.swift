import Glibc
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
///     stroke-accuracy human [--leave-out] [--misses] DIR…
///                                people's drawings (the $1 study's XML, docs/performance.md)
///                                replayed through the daemon's path as touchscreen and pointer
///                                strokes with the 16 shapes bound: right / wrong / unbound fired
///                                per shape, speed and person, and the cost of a match. With
///                                --leave-out, each person's drawings are matched with templates
///                                made without them (what the built-in ones do for new people);
///                                --misses lists every drawing that did not fire its shape
///     stroke-accuracy learn [K] DIR…
///                                each person learns each shape from K (default 3) of their own
///                                drawings, as `gesture-bridge learn --samples K` does: how often it
///                                fires for their other drawings of it, of other shapes and of
///                                question marks, under each way of giving it a tolerance
///     stroke-accuracy fixtures OUT DIR…
///                                two drawings of each gesture as touchscreen and pointer traces,
///                                their config and list, in OUT (Tests/Fixtures/strokes)
///     stroke-accuracy templates DIR…
///                                the built-in shapes' averaged templates and tolerances made from
///                                the drawings, as Sources/GestureEngine/Stroke/BuiltInStrokeTemplates.swift
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "human" {
    let leaveOut = arguments.contains("--leave-out"), listMisses = arguments.contains("--misses")
    let drawings = arguments.dropFirst().filter { !$0.hasPrefix("--") }.flatMap(HumanStrokes.load)
    guard !drawings.isEmpty else {
        complain("stroke-accuracy human: no drawings found under \(arguments.dropFirst().joined(separator: " "))")
        exit(66)
    }
    let people = Set(drawings.map(\.person)).count
    print("## People's drawings\(leaveOut ? ", each person left out of the templates" : "")\n")
    print("\(drawings.count) drawings by \(people) people, drawn \(fixed(StrokeReplay.scale, 0))× larger than in the study; "
        + "cells are right / wrong shape fired (% of the drawings of built-in shapes), and for shapes that are not "
        + "built in, how many fired anything.\n")
    let folds = HumanReport.folds(drawings, leaveOut: leaveOut) { complain($0) }
    let report = try HumanReport(folds)
    print(report.markdown)
    if arguments.contains("--sweep") {
        print("### Tolerances scaled\n")
        for scale in [0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4] {
            print("× \(fixed(scale, 1)): \(try HumanReport(folds, toleranceScale: scale).summary)")
        }
        var anyScore = RecognizerSettings()
        anyScore.strokeMinScore = 0
        print("ranked first (stroke_min_score 0): \(try HumanReport(folds, settings: anyScore).summary)")
        print("")
    }
    if listMisses { print("### Misses\n\n```\n\(report.misses)\n```\n") }
    let cost = HumanReport.cost(drawings)
    print("### Cost\n")
    print("One match against the 16 built-in shapes, as at the lift, over every drawing ×20: "
        + "mean \(fixed(cost.mean, 2)) µs, p50 \(fixed(cost.p50, 2)) µs, p99 \(fixed(cost.p99, 2)) µs.")
} else if arguments.first == "learn" {
    let count = arguments.dropFirst().first.flatMap { Int($0) }
    let drawings = arguments.dropFirst(count == nil ? 1 : 2).flatMap(HumanStrokes.load)
    let report = LearnReport(drawings, samples: count ?? 3) { complain($0) }
    print(report.markdown)
} else if arguments.first == "fixtures", arguments.count >= 3 {
    // Two drawings of each of the study's gestures, by five people in turn at the three speeds.
    let out = arguments[1]
    let drawings = arguments.dropFirst(2).flatMap(HumanStrokes.load).filter { $0.speed != "-" }
    let people = Set(drawings.map(\.person)).sorted()
    let gestures = Set(drawings.map(\.shape)).sorted()
    let speeds = ["slow", "medium", "fast"]
    var chosen: [HumanStroke] = []
    for (index, gesture) in gestures.enumerated() {
        for turn in 0..<2 {
            let person = people[(index + 2 * turn) % people.count], speed = speeds[(index + turn) % speeds.count]
            if let drawing = drawings.first(where: { $0.shape == gesture && $0.person == person && $0.speed == speed && $0.file.hasSuffix("05.xml") }) {
                chosen.append(drawing)
            }
        }
    }
    var manifest = "# The drawings in people.touchscreen.trace.jsonl and people.pointer.trace.jsonl, in order:\n"
        + "# when each begins (ms), the shape drawn, who drew it and how fast (stroke-accuracy fixtures).\n"
    for device in [DeviceKind.touchscreen, .pointer] {
        var events = [InputEvent(time: Instant(milliseconds: 0), .screen(width: 1920, height: 1080))]
        var clock = 1_000.0
        for (k, drawing) in chosen.enumerated() {
            let drawn = StrokeReplay.events(drawing, on: device, at: clock, touchID: k + 1)
            if device == .touchscreen { manifest += "\(Int(clock)) \(drawing.shape) \(drawing.person) \(drawing.speed)\n" }
            events += drawn
            clock = (drawn.last?.time.milliseconds ?? clock) + 1_000
        }
        try writeTrace(events, to: "\(out)/people.\(device.rawValue).trace.jsonl")
    }
    try ("# The config the people's drawings are replayed with (stroke-accuracy fixtures): the 16 built-in\n"
        + "# shapes bound on both devices, and a 3-finger swipe and a pinch, so that a touch waits for the\n"
        + "# finger settle window.\n" + StrokeReplay.config).write(to: "\(out)/people.config.toml")
    try manifest.write(to: "\(out)/people.drawings.txt")
    complain("wrote \(chosen.count) drawings to \(out)/people.*")
} else if arguments.first == "templates" {
    let drawings = arguments.dropFirst().flatMap(HumanStrokes.load).filter(\.isBuiltIn)
    guard !drawings.isEmpty else {
        complain("stroke-accuracy templates: no drawings of built-in shapes found")
        exit(66)
    }
    print(TemplateBuilder.swiftSource(TemplateBuilder.shapes(from: drawings), drawings: drawings), terminator: "")
} else if arguments.first == "shapes-svg" {
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

/// `message` and a newline on standard error.
func complain(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

extension String {
    /// Writes the string to `path` (replacing it).
    func write(to path: String) throws {
        guard let file = fopen(path, "w") else { throw WriteError(path: path) }
        defer { fclose(file) }
        var text = self
        let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != utf8.count { throw WriteError(path: path) }
    }
}

/// A file that could not be written.
struct WriteError: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot write \(path)" }
}
