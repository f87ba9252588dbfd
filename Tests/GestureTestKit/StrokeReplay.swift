import BridgeCore
import GestureConfig
public import GestureEngine

/// What became of one drawing replayed as a stroke.
public struct StrokeOutcome: Hashable, Sendable {
    /// The shape the stroke was recognized as (fired or not), nil when no shape scored at
    /// least `stroke_min_score` or the path was too small.
    public var recognized: String?
    /// Its score.
    public var score: Double?
    /// Whether a binding fired for it (any gesture: a drawing that fires a swipe fires too).
    public var fired: Bool
}

/// People's drawings replayed through the daemon's own path (the ``Pipeline`` that `replay` and
/// the daemon run) as a finger on the touchscreen or the pointer with its trigger button held,
/// with the 16 built-in shapes bound (``config``).
///
/// The drawings of the $1 study were made on a pocket computer's small screen (a few hundred
/// pixels across); here they are drawn ``scale`` times larger, centred on a 1920 × 1080 screen,
/// at their own pace: the touchscreen gets the first point as the touch's begin, the others as
/// its updates and the last as its end, the pointer a motion to the first point, the trigger
/// button's press there, a motion per point and the release at the last. Between drawings the
/// clock runs on a second, so that every wait of the engine ends.
///
/// ```swift
/// var replay = try StrokeReplay()
/// let outcome = replay.replay(drawing, on: .touchscreen)   // outcome.recognized == "circle"
/// ```
public struct StrokeReplay {
    /// How much larger than in the study the drawings are drawn: 2× puts the study's drawings
    /// (58–234 px across, median 137) at 116–468 px, a hand's size on a desktop screen, and every
    /// one of them above the default `stroke_min_px` (60 px).
    public static let scale = 2.0
    /// Where drawings are centred.
    public static let centre = Point(x: 960, y: 540)

    /// The 16 built-in shapes bound on both devices, and, so that a touch waits for the finger
    /// settle window as it does in most configs, a 3-finger swipe and a 2-finger pinch.
    public static let config: String = {
        var text = "[[bind]]\ngesture = \"swipe\"\nfingers = 3\ndirection = \"left\"\naction = \"key a\"\n\n"
        text += "[[bind]]\ngesture = \"pinch\"\ndirection = \"in\"\naction = \"key b\"\n\n"
        for shape in StrokeShape.builtIn {
            text += "[[bind]]\ngesture = \"stroke\"\nshape = \"\(shape.name)\"\naction = \"key c\"\n\n"
        }
        return text
    }()

    private final class Outputs {
        var events: [PipelineEvent] = []
    }

    private let pipeline: Pipeline
    private let outputs = Outputs()
    private var clock = 1_000.0
    private var touchID = 1

    /// A pipeline with ``config``; `shapes`, when given, replace the built-in shapes of the
    /// same names (as `[[shape]]`s of the config would).
    public init(shapes: [StrokeShape]? = nil, settings: RecognizerSettings? = nil) throws {
        var config = try Config.parse(Self.config, file: "stroke-replay.toml")
        if let shapes { config.shapes = shapes }
        if let settings { config.settings = settings }
        let outputs = self.outputs
        pipeline = Pipeline(config: config, performer: nil, arbiter: nil) { outputs.events.append($0) }
        pipeline.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1920, height: 1080)))
    }

    /// Draws `stroke` on `device` and says what it became.
    public mutating func replay(_ stroke: HumanStroke, on device: DeviceKind) -> StrokeOutcome {
        outputs.events.removeAll(keepingCapacity: true)
        let events = Self.events(stroke, on: device, at: clock, touchID: touchID)
        for event in events { pipeline.handle(event) }
        clock = (events.last?.time.milliseconds ?? clock) + 1_000
        pipeline.advance(to: Instant(milliseconds: clock))
        touchID += 1
        var outcome = StrokeOutcome(recognized: nil, score: nil, fired: false)
        for case .phase(let report, let binding, _) in outputs.events {
            if binding != nil { outcome.fired = true }
            if report.gesture == .stroke, report.phase == .recognized {
                outcome.recognized = report.shape
                outcome.score = report.score
            }
        }
        return outcome
    }

    /// The input events of `stroke` drawn on `device` from `start` (ms), scaled by ``scale``
    /// about its bounding box's centre, which is put at ``centre``.
    public static func events(_ stroke: HumanStroke, on device: DeviceKind, at start: Double, touchID: Int = 1) -> [InputEvent] {
        let box = PathBounds(stroke.samples.map(\.point))
        let placed = stroke.samples.map { sample in
            (point: centre + (sample.point - box.centre) * scale, time: Instant(milliseconds: start + 1000 * sample.time))
        }
        guard let first = placed.first, let last = placed.last else { return [] }
        var events: [InputEvent] = []
        switch device {
        case .touchscreen:
            events.append(InputEvent(time: first.time, .touchBegin(id: touchID, at: first.point)))
            for sample in placed.dropFirst().dropLast() {
                events.append(InputEvent(time: sample.time, .touchUpdate(id: touchID, at: sample.point)))
            }
            events.append(InputEvent(time: last.time, .touchEnd(id: touchID, at: last.point)))
        case .pointer, .touchpad:
            let button = Config.defaultPointerButton
            events.append(InputEvent(time: Instant(milliseconds: first.time.milliseconds - 20), .motion(at: first.point)))
            events.append(InputEvent(time: first.time, .buttonPress(button: button, at: first.point)))
            for sample in placed.dropFirst() { events.append(InputEvent(time: sample.time, .motion(at: sample.point))) }
            events.append(InputEvent(time: last.time, .buttonRelease(button: button, at: last.point)))
        }
        return events
    }
}
