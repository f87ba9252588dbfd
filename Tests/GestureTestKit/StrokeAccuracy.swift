public import GestureEngine

/// The recognizer's accuracy on a generated set: `variants` strokes of each shape drawn by `StrokeSynth`
/// (fixed seeds, so the same numbers every run), each matched against all the shapes.
///
/// Shared by the accuracy test and `stroke-accuracy` in Benchmarks/, which prints the tables of
/// docs/performance.md.
public struct StrokeAccuracy: Sendable {
    /// The shapes, in the recognizer's order.
    public let names: [String]
    /// `best[drawn][variant]`: the best match of each stroke among all the shapes.
    public let best: [[StrokeMatch?]]
    /// `closestOther[drawn][variant]`: the best match of each stroke among the shapes other than the one
    /// it was drawn from — how near the recognizer came to a confusion.
    public let closestOther: [[StrokeMatch?]]
    /// Strokes per shape.
    public let variants: Int

    /// Draws `variants` strokes of each of `shapes`, turned `turn` degrees more than the set's ±15°, and
    /// matches them.
    public init(shapes: [StrokeShape] = StrokeShape.builtIn, variants: Int = 100, seed: UInt64 = 2007, turn: Double = 0) {
        let recognizer = ShapeMatcher(shapes: shapes)
        var scratch = StrokeScratch()
        let all = Array(shapes.indices)
        var best: [[StrokeMatch?]] = [], closestOther: [[StrokeMatch?]] = []
        for index in shapes.indices {
            let others = all.filter { $0 != index }
            var row: [StrokeMatch?] = [], otherRow: [StrokeMatch?] = []
            for variant in 0..<variants {
                let path = Self.stroke(shapes[index], index: index, variant: variant, seed: seed, turn: turn)
                row.append(recognizer.match(path, among: all, scratch: &scratch))
                otherRow.append(recognizer.match(path, among: others, scratch: &scratch))
            }
            best.append(row)
            closestOther.append(otherRow)
        }
        self.best = best
        self.closestOther = closestOther
        names = shapes.map(\.name)
        self.variants = variants
    }

    /// The stroke the set draws as variant `variant` of shape number `index`.
    public static func stroke(_ shape: StrokeShape, index: Int, variant: Int, seed: UInt64 = 2007, turn: Double = 0) -> [Point] {
        StrokeSynth.variant(for: shape, seed: seed &+ UInt64(index * 100_003 + variant), turn: turn)
    }

    /// `stroke(…)` with the time of each event, for drawing it live.
    public static func timedStroke(_ shape: StrokeShape, index: Int, variant: Int, seed: UInt64 = 2007) -> [StrokeSynth.Sample] {
        StrokeSynth.timedVariant(for: shape, seed: seed &+ UInt64(index * 100_003 + variant))
    }

    /// `confusion[drawn][recognized]`: how many strokes drawn as one shape matched another best.
    public var confusion: [[Int]] {
        best.map { matches in
            var row = [Int](repeating: 0, count: names.count)
            for match in matches { if let match { row[match.shape] += 1 } }
            return row
        }
    }

    /// Strokes of shape `index` that matched it best (with any score).
    public func recognized(_ index: Int) -> Int { best[index].filter { $0?.shape == index }.count }

    /// Strokes of shape `index` that matched it best with a score of at least `threshold`: what fires with
    /// `stroke_min_score = threshold`.
    public func accepted(_ index: Int, atLeast threshold: Double) -> Int {
        best[index].filter { $0?.shape == index && $0!.score >= threshold }.count
    }

    /// The fraction of all strokes that matched their own shape best.
    public var rate: Double { Double(names.indices.reduce(0) { $0 + recognized($1) }) / Double(names.count * variants) }

    /// The fraction of all strokes that matched their own shape best with a score of at least `threshold`.
    public func acceptedRate(atLeast threshold: Double) -> Double {
        Double(names.indices.reduce(0) { $0 + accepted($1, atLeast: threshold) }) / Double(names.count * variants)
    }

    /// Strokes that matched a wrong shape with a score of at least `threshold`: what would fire wrongly.
    public func wronglyAccepted(atLeast threshold: Double) -> Int {
        names.indices.reduce(0) { sum, index in
            sum + best[index].filter { $0 != nil && $0!.shape != index && $0!.score >= threshold }.count
        }
    }
}

/// Straight and nearly straight swipes matched against shapes: what must never fire as a stroke.
public struct StrokeSwipeCheck: Sendable {
    /// The swipes' paths: 16 directions (every 22.5°) × lengths 60–700 px × bows 0–8 % × 4 seeds.
    public static let swipes: [[Point]] = {
        var paths: [[Point]] = []
        var seed: UInt64 = 1
        for direction in 0..<16 {
            for length in [60.0, 120, 300, 700] {
                for bend in [0.0, 0.04, 0.08] {
                    for _ in 0..<4 {
                        seed += 1
                        paths.append(StrokeSynth.swipe(angle: Double(direction) * 22.5, length: length, seed: seed, bend: bend))
                    }
                }
            }
        }
        return paths
    }()

    /// The best match of each swipe among all `shapes` (nil for none).
    public let best: [StrokeMatch?]

    /// Matches every swipe against `shapes`.
    public init(shapes: [StrokeShape] = StrokeShape.builtIn) {
        let recognizer = ShapeMatcher(shapes: shapes)
        var scratch = StrokeScratch()
        let all = Array(shapes.indices)
        best = Self.swipes.map { recognizer.match($0, among: all, scratch: &scratch) }
    }

    /// The highest score any swipe reached, and against which shape.
    public var worst: StrokeMatch? {
        best.compactMap { $0 }.max { $0.score < $1.score }
    }
}

extension StrokeAccuracy {
    /// The scores of the strokes of shape `index` that matched it best, sorted.
    public func ownScores(_ index: Int) -> [Double] {
        best[index].compactMap { $0?.shape == index ? $0!.score : nil }.sorted()
    }

    /// The tables of docs/performance.md: per shape, how many strokes matched best, how many of those
    /// scored at least `threshold`, their scores; then every confusion.
    public func markdown(threshold: Double) -> String {
        var out = "| shape | best match | best and ≥ \(fixed(threshold, 2)) | score p5 | score p50 | mistaken for "
        out += "| closest other shape: most often, highest score |\n"
        out += "|---|---:|---:|---:|---:|---|---|\n"
        let table = confusion
        for index in names.indices {
            let scores = ownScores(index)
            let p5 = scores.isEmpty ? 0 : scores[scores.count * 5 / 100]
            let p50 = scores.isEmpty ? 0 : scores[scores.count / 2]
            let wrong = names.indices.filter { $0 != index && table[index][$0] > 0 }
                .map { "\(names[$0]) ×\(table[index][$0])" }.joined(separator: ", ")
            out += "| \(names[index]) | \(recognized(index))/\(variants) | \(accepted(index, atLeast: threshold))/\(variants) "
            out += "| \(fixed(p5, 3)) | \(fixed(p50, 3)) | \(wrong.isEmpty ? "–" : wrong) | \(closest(index)) |\n"
        }
        let total = names.count * variants
        let right = names.indices.reduce(0) { $0 + recognized($1) }
        let accepted = names.indices.reduce(0) { $0 + self.accepted($1, atLeast: threshold) }
        out += "| **all** | **\(right)/\(total) (\(fixed(100 * Double(right) / Double(total), 2)) %)** "
        out += "| **\(accepted)/\(total) (\(fixed(100 * Double(accepted) / Double(total), 2)) %)** | | | "
        out += "wrong shape ≥ \(fixed(threshold, 2)): \(wronglyAccepted(atLeast: threshold)) | |\n"
        return out
    }

    /// The other shape that came closest most often to strokes of shape `index`, and the highest score
    /// any other shape reached.
    func closest(_ index: Int) -> String {
        var counts = [Int](repeating: 0, count: names.count)
        var highest: StrokeMatch?
        for match in closestOther[index] {
            guard let match else { continue }
            counts[match.shape] += 1
            if match.score > highest?.score ?? -1 { highest = match }
        }
        guard let highest, let most = counts.indices.max(by: { counts[$0] < counts[$1] }) else { return "–" }
        return "\(names[most]) (\(counts[most])/\(variants)), \(fixed(highest.score, 3)) (\(names[highest.shape]))"
    }
}

/// `value` with `decimals` decimals (no Foundation formatting in the test kit).
public func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((abs(value) * scale).rounded())
    let whole = scaled / Int(scale), fraction = scaled % Int(scale)
    var digits = String(fraction)
    while digits.count < decimals { digits = "0" + digits }
    return (value < 0 && scaled != 0 ? "-" : "") + "\(whole)" + (decimals > 0 ? "." + digits : "")
}

/// Strokes recorded from an X server (scripts/record-strokes): one per line, `NAME x,y x,y …`, the
/// pointer's root positions from the button press to its release as the server delivered them.
public enum RecordedStrokes {
    /// The recorded strokes in `Tests/Fixtures/strokes/xvfb-recorded.txt`, or nil when it cannot be read.
    public static func fixture() -> [(name: String, path: [Point])]? {
        guard let bytes = FuzzCorpus.contents(of: SourceTree.path("Tests/Fixtures/strokes/xvfb-recorded.txt")) else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { parse(String($0)) }
    }

    /// One line as a named path; nil for a blank line, a comment (`#`) or a malformed one.
    public static func parse(_ line: String) -> (name: String, path: [Point])? {
        let fields = line.split(separator: " ")
        guard let name = fields.first, !name.hasPrefix("#"), fields.count >= 2 else { return nil }
        var path: [Point] = []
        for field in fields.dropFirst() {
            let xy = field.split(separator: ",")
            guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]) else { return nil }
            path.append(Point(x: x, y: y))
        }
        return (String(name), path)
    }

    /// Per shape: how many recorded strokes matched it best, how many also scored at least `threshold`,
    /// and what the others were taken for.
    public static func markdown(_ strokes: [(name: String, path: [Point])], threshold: Double) -> String {
        let shapes = StrokeShape.builtIn
        let recognizer = ShapeMatcher(shapes: shapes)
        var scratch = StrokeScratch()
        let all = Array(shapes.indices)
        var out = "| shape | strokes | events per stroke | best match | best and ≥ \(fixed(threshold, 2)) | lowest own score | mistaken for |\n"
        out += "|---|---:|---:|---:|---:|---:|---|\n"
        var total = 0, right = 0, fired = 0
        for shape in shapes {
            let mine = strokes.filter { $0.name == shape.name }
            guard !mine.isEmpty else { continue }
            var best = 0, accepted = 0, lowest = 1.0, events = 0
            var wrong: [String: Int] = [:]
            for stroke in mine {
                events += stroke.path.count
                guard let match = recognizer.match(stroke.path, among: all, scratch: &scratch) else { continue }
                if shapes[match.shape].name == shape.name {
                    best += 1
                    if match.score >= threshold { accepted += 1 }
                    lowest = min(lowest, match.score)
                } else {
                    wrong[shapes[match.shape].name, default: 0] += 1
                }
            }
            total += mine.count; right += best; fired += accepted
            let wrongText = wrong.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
            out += "| \(shape.name) | \(mine.count) | \(events / mine.count) | \(best)/\(mine.count) | \(accepted)/\(mine.count) "
            out += "| \(fixed(lowest, 3)) | \(wrongText.isEmpty ? "–" : wrongText) |\n"
        }
        guard total > 0 else { return out }
        out += "| **all** | **\(total)** | | **\(right)/\(total) (\(fixed(100 * Double(right) / Double(total), 1)) %)** "
        out += "| **\(fired)/\(total) (\(fixed(100 * Double(fired) / Double(total), 1)) %)** | | |\n"
        return out
    }
}
