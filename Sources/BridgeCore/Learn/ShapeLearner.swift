public import GestureEngine
import GestureConfig

/// `gesture-bridge learn NAME`: follows the input for the next stroke drawn — one finger on
/// the touchscreen from touch to lift, or the pointer from a press of the trigger button to
/// its release — and turns it into a `[[shape]]` block for the config (docs/interface.md, «Strokes»).
///
/// A pure value: the daemon feeds it the same ``InputEvent``s it records, and it says what
/// came of each finished path. It takes nothing from anyone: the capture only observes.
///
/// ```swift
/// var learner = ShapeLearner(pointerButton: 3, minimumSize: { _ in 60 })
/// if case .learned(let points) = learner.handle(event) {
///     print(ShapeLearner.block(name: "L", points: points))
/// }
/// ```
public struct ShapeLearner {
    /// What a finished path came to.
    public enum Outcome: Equatable, Sendable {
        /// A stroke: its points, resampled and relative to the top-left of its bounding box.
        case learned([Point])
        /// The path was smaller than `stroke_min_px` across (its bounding-box diagonal, px):
        /// it would never fire as a stroke.
        case tooSmall(diagonal: Double, minimum: Double, device: DeviceKind)
        /// More than one finger was down: a stroke is one finger's path.
        case moreThanOneFinger
        /// The touch was cancelled (the device went away).
        case cancelled
    }

    /// How many points a learned shape has: enough for every corner a hand draws (the
    /// recognizer resamples to fewer), few enough to read in a config.
    public static let pointCount = 48

    private let pointerButton: Int
    private let minimumSize: (DeviceKind) -> Double
    private var path: [Point] = []
    private var device: DeviceKind? = nil
    private var touch: Int? = nil
    /// Touches down besides the one drawing (or all of a hand that began with several).
    private var others: Set<Int> = []
    private var spoiled = false

    /// - Parameters:
    ///   - pointerButton: the trigger button (`[pointer] button`); 0: only the touchscreen.
    ///   - minimumSize: `stroke_min_px` for a device's strokes.
    public init(pointerButton: Int, minimumSize: @escaping (DeviceKind) -> Double) {
        self.pointerButton = pointerButton
        self.minimumSize = minimumSize
    }

    /// Follows one input event; returns what came of a path that ended with it.
    public mutating func handle(_ event: InputEvent) -> Outcome? {
        switch event.kind {
        case .touchBegin(let id, let p, _):
            if device == nil && others.isEmpty {
                start(.touchscreen, at: p)
                touch = id
            } else {
                others.insert(id)
                if device == .touchscreen { spoiled = true }
            }
        case .touchUpdate(let id, let p):
            if device == .touchscreen, id == touch { path.append(p) }
        case .touchEnd(let id, let p):
            if device == .touchscreen, id == touch {
                path.append(p)
                touch = nil
                // Wait for the other fingers of a spoiled hand to lift too.
                if others.isEmpty { return finish() }
            } else {
                others.remove(id)
                if others.isEmpty && device == .touchscreen && touch == nil { return finish() }
            }
        case .touchCancel(let id, _):
            if device == .touchscreen, id == touch {
                reset()
                return .cancelled
            }
            others.remove(id)
        case .buttonPress(let button, let p, _):
            if button == pointerButton && pointerButton != 0 && device == nil { start(.pointer, at: p) }
        case .motion(let p):
            if device == .pointer { path.append(p) }
        case .buttonRelease(let button, let p):
            if device == .pointer && button == pointerButton {
                path.append(p)
                return finish()
            }
        default:
            break
        }
        return nil
    }

    private mutating func start(_ kind: DeviceKind, at p: Point) {
        device = kind
        path = [p]
        spoiled = false
    }

    private mutating func reset() {
        device = nil
        touch = nil
        path.removeAll()
        spoiled = false
    }

    private mutating func finish() -> Outcome {
        defer { reset() }
        guard let device else { return .cancelled }
        if spoiled { return .moreThanOneFinger }
        let diagonal = PathBounds(path).diagonal
        let minimum = minimumSize(device)
        guard diagonal >= minimum else { return .tooSmall(diagonal: diagonal, minimum: minimum, device: device) }
        return .learned(Self.normalized(path, count: Self.pointCount))
    }

    // MARK: - The shape

    /// `count` points evenly spaced along the path (by length), moved so the bounding box's
    /// top-left is (0, 0) and rounded to whole pixels.
    static func normalized(_ path: [Point], count: Int) -> [Point] {
        var length = 0.0
        for i in path.indices.dropFirst() { length += path[i].distance(to: path[i - 1]) }
        var points: [Point] = []
        points.reserveCapacity(count)
        if let first = path.first { points.append(first) }
        if length > 0 {
            let step = length / Double(count - 1)
            var travelled = 0.0, next = step
            for i in path.indices.dropFirst() {
                let a = path[i - 1], b = path[i]
                let d = a.distance(to: b)
                while d > 0 && next <= travelled + d && points.count < count - 1 {
                    points.append(a + (b - a) * ((next - travelled) / d))
                    next += step
                }
                travelled += d
            }
        }
        if let last = path.last { while points.count < count { points.append(last) } }
        let lo = PathBounds(points).min
        return points.map { Point(x: ($0.x - lo.x).rounded(), y: ($0.y - lo.y).rounded()) }
    }

    /// The `[[shape]]` block for a learned shape, ready to append to a config.
    ///
    /// ```toml
    /// [[shape]]
    /// name = "L"
    /// points = [
    ///     [0, 0], [0, 12], …
    /// ]
    /// ```
    public static func block(name: String, points: [Point]) -> String {
        var out = "[[shape]]\nname = " + JSONQuote.quoted(name) + "\npoints = ["
        for (i, p) in points.enumerated() {
            if i % 8 == 0 { out += "\n    " } else { out += " " }
            out += "[\(Int(p.x)), \(Int(p.y))]" + (i == points.count - 1 ? "" : ",")
        }
        return out + "\n]\n"
    }

    /// Why `name` cannot name a shape, or `nil` when it can: it must not be empty and, as a
    /// config string written back, hold no control characters. It may be a built-in name: the
    /// learned shape then replaces the built-in one.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "the shape's NAME must not be empty" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the shape's NAME must not contain control characters"
        }
        return nil
    }
}
