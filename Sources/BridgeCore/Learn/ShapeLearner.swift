public import GestureEngine
import GestureConfig

/// `gesture-bridge learn NAME`: follows the input for each stroke drawn — one finger on
/// the touchscreen from touch to lift, or the pointer from a press of the trigger button to
/// its release — and turns it into the points of a template (``ShapeSamples`` makes the
/// `[[shape]]` of several; docs/config.md, «`gesture-bridge learn NAME`»).
///
/// A pure value: the daemon feeds it the same ``InputEvent``s it records, and it says what
/// came of each finished path. It takes nothing from anyone: the capture only observes. A path
/// too small to fire as a stroke is refused by the rule the engine applies: `stroke_min_px`, or
/// `stroke_min_mm` on the monitor where the path began (``MinimumSize``).
///
/// ```swift
/// var learner = ShapeLearner(pointerButton: 3) { _ in RecognizerSettings() }
/// if case .learned(let points, _) = learner.handle(event) {
///     print(ShapeLearner.block(name: "L", points: points))
/// }
/// ```
public struct ShapeLearner {
    /// What a finished path came to.
    public enum Outcome: Equatable, Sendable {
        /// A stroke: its points, resampled and relative to the top-left of its bounding box, and
        /// the device it was drawn with.
        case learned([Point], device: DeviceKind)
        /// The path was smaller across (its bounding-box diagonal, px) than `minimum`: it
        /// would never fire as a stroke.
        case tooSmall(diagonal: Double, minimum: MinimumSize, device: DeviceKind)
        /// More than one finger was down: a stroke is one finger's path.
        case moreThanOneFinger
        /// The touch was cancelled (the device went away).
        case cancelled
    }

    /// How many points a learned shape has: enough for every corner a hand draws (the
    /// recognizer resamples to fewer), few enough to read in a config.
    public static let pointCount = 48

    private let pointerButton: Int
    private let settings: (DeviceKind) -> RecognizerSettings
    /// The screen as the last `screen` event described it: `stroke_min_mm` counts on the
    /// monitor where a path begins.
    private var screen: ScreenLayout? = nil
    private var path: [Point] = []
    private var device: DeviceKind? = nil
    private var touch: Int? = nil
    /// Touches down besides the one drawing (or all of a hand that began with several).
    private var others: Set<Int> = []
    private var spoiled = false

    /// - Parameters:
    ///   - pointerButton: the trigger button (`[pointer] button`); 0: only the touchscreen.
    ///   - settings: a device's thresholds (`[recognizer]` and its device's table), whose
    ///     `stroke_min_px` or `stroke_min_mm` a path must reach.
    public init(pointerButton: Int, settings: @escaping (DeviceKind) -> RecognizerSettings) {
        self.pointerButton = pointerButton
        self.settings = settings
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
        case .screen(let width, let height, let monitors):
            screen = ScreenLayout(width: width, height: height, monitors: monitors)
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
        let minimum = MinimumSize(settings(device), for: device, startingAt: path[0], on: screen)
        guard diagonal >= minimum.pixels else { return .tooSmall(diagonal: diagonal, minimum: minimum, device: device) }
        return .learned(Self.normalized(path, count: Self.pointCount), device: device)
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
        "[[shape]]\nname = " + JSONQuote.quoted(name) + "\npoints = [" + pointLines(points, indent: "    ") + "\n]\n"
    }

    /// `points` as TOML `[x, y]` pairs, 8 to a line, each line after a newline and `indent`.
    static func pointLines(_ points: [Point], indent: String) -> String {
        var out = ""
        for (i, p) in points.enumerated() {
            if i % 8 == 0 { out += "\n" + indent } else { out += " " }
            out += "[\(Int(p.x)), \(Int(p.y))]" + (i == points.count - 1 ? "" : ",")
        }
        return out
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

/// The smallest path that can be a stroke, as the engine judges it: the device's `stroke_min_px`,
/// or its `stroke_min_mm` in the pixels of the monitor where the path began (96 dpi where the
/// monitor reports no size, or no screen is known; docs/config.md, «Distances in millimetres»).
///
/// ```swift
/// var settings = RecognizerSettings()
/// settings.strokeMinMm = 15
/// MinimumSize(settings, for: .pointer, startingAt: .zero, on: nil).pixels   // 56.7: 15 mm at 96 dpi
/// ```
public struct MinimumSize: Equatable, Sendable {
    /// The smallest diagonal of a stroke's bounding box, in pixels.
    public var pixels: Double
    /// `stroke_min_mm` when the rule is given in millimetres; `nil`: `stroke_min_px`.
    public var millimetres: Double?

    /// A rule in pixels, or in millimetres shown as `pixels` on a monitor.
    public init(pixels: Double, millimetres: Double? = nil) {
        self.pixels = pixels
        self.millimetres = millimetres
    }

    /// The rule of `settings` for a path of `device` beginning at `start` on `screen`.
    public init(_ settings: RecognizerSettings, for device: DeviceKind, startingAt start: Point, on screen: ScreenLayout?) {
        let monitor = screen.map { $0.monitors[$0.monitorIndex(at: start)] }
        let inPixels = settings.inPixels(for: device, pixelsPerMillimetre: monitor?.pixelsPerMillimetre)
        // A touchpad keeps pixels (its millimetres are dropped above).
        self.init(pixels: inPixels.strokeMinPx, millimetres: device.descriptor.isOnScreen ? settings.strokeMinMm : nil)
    }

    /// Why a path `diagonal` px across is refused, for `device`'s strokes: the rule by its key,
    /// in its unit.
    public func refusal(diagonal: Double, device: DeviceKind) -> String {
        let across = "\(Int(diagonal.rounded())) px across"
        guard let millimetres, millimetres > 0 else {
            return "that stroke was \(across), smaller than stroke_min_px (\(Int(pixels.rounded())) px for the \(device.rawValue)): draw it larger"
        }
        let drawn = diagonal * millimetres / pixels
        return "that stroke was \(across) (\(Self.written(drawn)) mm), smaller than stroke_min_mm "
            + "(\(Self.written(millimetres)) mm, \(Int(pixels.rounded())) px on that monitor, for the \(device.rawValue)): draw it larger"
    }

    /// A length in millimetres to one decimal, without a trailing `.0`.
    static func written(_ mm: Double) -> String {
        let tenths = Int((mm * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
