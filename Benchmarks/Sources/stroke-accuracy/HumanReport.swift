import Glibc
import GestureEngine
import GestureTestKit

/// `stroke-accuracy human DIR…`: people's drawings replayed as touchscreen and pointer strokes
/// through the daemon's path with the 16 built-in shapes bound (`StrokeReplay`), and what fired:
/// per shape, per speed and per person; then what one match costs.
struct HumanReport {
    /// One drawing's outcome on one device.
    struct Row {
        var drawing: HumanStroke
        var device: DeviceKind
        var outcome: StrokeOutcome

        /// Its own shape fired.
        var right: Bool { drawing.isBuiltIn && outcome.fired && outcome.recognized == drawing.shape }
        /// Something else fired for a built-in shape's drawing.
        var wrong: Bool { drawing.isBuiltIn && outcome.fired && outcome.recognized != drawing.shape }
        /// Anything fired for a drawing of a shape that is not built in.
        var unboundFired: Bool { !drawing.isBuiltIn && outcome.fired }
    }

    /// Drawings and the shapes they are matched with (nil: the built-in ones).
    typealias Fold = (shapes: [StrokeShape]?, drawings: [HumanStroke])

    var rows: [Row] = []

    /// `drawings` with the committed built-in shapes, or, with `leaveOut`, each person's
    /// drawings with shapes made (`TemplateBuilder`) from everyone else's.
    static func folds(_ drawings: [HumanStroke], leaveOut: Bool, progress: (String) -> Void) -> [Fold] {
        guard leaveOut else { return [(nil, drawings)] }
        return Set(drawings.map(\.person)).sorted().map { person in
            progress("templates without \(person)")
            return (TemplateBuilder.shapes(from: drawings.filter { $0.person != person && $0.isBuiltIn }),
                    drawings.filter { $0.person == person })
        }
    }

    /// Replays the folds' drawings, every shape's tolerance × `toleranceScale`, with `settings`
    /// (the defaults when nil).
    init(_ folds: [Fold], toleranceScale: Double = 1, settings: RecognizerSettings? = nil) throws {
        for fold in folds {
            var shapes = fold.shapes
            if toleranceScale != 1 {
                shapes = (shapes ?? StrokeShape.builtIn).map { shape in
                    var scaled = shape
                    scaled.tolerance *= toleranceScale
                    return scaled
                }
            }
            for device in [DeviceKind.touchscreen, .pointer] {
                var replay = try StrokeReplay(shapes: shapes, settings: settings)
                for drawing in fold.drawings {
                    rows.append(Row(drawing: drawing, device: device, outcome: replay.replay(drawing, on: device)))
                }
            }
        }
    }

    /// Right, wrong and unbound-fired rates of the touchscreen rows, for the study's drawings
    /// (those with a speed) and the others.
    var summary: String {
        let touch = rows.filter { $0.device == .touchscreen }
        return [("study", touch.filter { $0.drawing.speed != "-" }), ("others", touch.filter { $0.drawing.speed == "-" })]
            .filter { !$0.1.isEmpty }
            .map { name, rows in
                let shapes = rows.filter(\.drawing.isBuiltIn), others = rows.filter { !$0.drawing.isBuiltIn }
                return "\(name) right \(Self.percent(shapes.filter(\.right).count, shapes.count)) wrong \(Self.percent(shapes.filter(\.wrong).count, shapes.count))"
                    + (others.isEmpty ? "" : " unbound fired \(Self.percent(others.filter(\.unboundFired).count, others.count))")
            }
            .joined(separator: "; ")
    }

    // MARK: - Tables

    /// Right, wrong and unbound-fired counts of `rows`, as a table cell per device.
    static func cells(_ rows: [Row]) -> String {
        [DeviceKind.touchscreen, .pointer].map { device in
            let mine = rows.filter { $0.device == device }
            let shapes = mine.filter(\.drawing.isBuiltIn), others = mine.filter { !$0.drawing.isBuiltIn }
            var cell = ""
            if !shapes.isEmpty {
                cell += "\(percent(shapes.filter(\.right).count, shapes.count)) / \(percent(shapes.filter(\.wrong).count, shapes.count))"
            }
            if !others.isEmpty {
                cell += (cell.isEmpty ? "" : " / ") + "unbound fired \(percent(others.filter(\.unboundFired).count, others.count))"
            }
            return cell.isEmpty ? "–" : cell
        }.joined(separator: " | ")
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "–" : fixed(100 * Double(part) / Double(whole), 1) + " %"
    }

    func table(_ title: String, key: (HumanStroke) -> String, order: [String]) -> String {
        var out = "| \(title) | drawings | touchscreen: right / wrong | pointer: right / wrong |\n|---|---:|---|---|\n"
        for value in order {
            let mine = rows.filter { key($0.drawing) == value }
            guard !mine.isEmpty else { continue }
            out += "| \(value) | \(mine.count / 2) | \(Self.cells(mine)) |\n"
        }
        out += "| **all** | \(rows.count / 2) | \(Self.cells(rows)) |\n"
        return out
    }

    /// The three tables, and the lowest scores of right strokes and highest of wrong ones.
    var markdown: String {
        let shapes = StrokeShape.builtIn.map(\.name)
        let others = Set(rows.map(\.drawing.shape)).subtracting(shapes).sorted()
        var out = "### Per shape\n\n" + table("shape", key: \.shape, order: shapes + others)
        out += "\n### Per speed\n\n" + table("speed", key: \.speed, order: ["slow", "medium", "fast", "-"])
        out += "\n### Per person\n\n" + table("person", key: \.person, order: Set(rows.map(\.drawing.person)).sorted())
        let wrong = rows.filter(\.wrong) + rows.filter(\.unboundFired)
        if !wrong.isEmpty {
            out += "\n### What fired wrongly\n\n"
            var counts: [String: Int] = [:]
            for row in wrong { counts["\(row.drawing.shape) → \(row.outcome.recognized ?? "a binding")", default: 0] += 1 }
            out += counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                .map { "\($0.key) ×\($0.value)" }.joined(separator: ", ") + "\n"
        }
        return out
    }

    /// Every drawing of a built-in shape that did not fire its shape, and every unbound one
    /// that fired: file, device, what it became and its score.
    var misses: String {
        rows.filter { ($0.drawing.isBuiltIn && !$0.right) || $0.unboundFired }.map { row in
            "\(row.drawing.file) \(row.device.rawValue): \(row.outcome.recognized ?? "nothing")"
                + (row.outcome.score.map { " " + fixed($0, 3) } ?? "") + (row.outcome.fired ? " fired" : "")
        }.joined(separator: "\n")
    }

    // MARK: - Cost

    /// The time one match of each drawing against the 16 built-in shapes takes, as the engine
    /// does it at the lift (µs): the mean, median and 99th percentile over `rounds` passes.
    static func cost(_ drawings: [HumanStroke], rounds: Int = 20) -> (mean: Double, p50: Double, p99: Double) {
        let matcher = ShapeMatcher(shapes: StrokeShape.builtIn)
        let all = Array(StrokeShape.builtIn.indices)
        let paths = drawings.map { $0.samples.map { $0.point * StrokeReplay.scale } }
        var scratch = StrokeScratch()
        var times: [Double] = []
        times.reserveCapacity(paths.count * rounds)
        var sink = 0.0
        for path in paths { sink += matcher.match(path, among: all, scratch: &scratch)?.score ?? 0 }
        for _ in 0..<rounds {
            for path in paths {
                let start = now()
                sink += matcher.match(path, among: all, scratch: &scratch)?.score ?? 0
                times.append(now() - start)
            }
        }
        if sink.isNaN { print("") }
        times.sort()
        let mean = times.reduce(0, +) / Double(times.count)
        return (mean, times[times.count / 2], times[times.count * 99 / 100])
    }

    /// Monotonic time in µs.
    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1e6 + Double(spec.tv_nsec) / 1e3
    }
}
