/// One gesture phase, as the engine reports it (docs/interface.md, «Output»).
public struct GestureReport: Hashable, Sendable {
    /// When the phase happened; a timer's own deadline for timer-driven phases.
    public var time: Instant
    public var gesture: GestureKind
    public var phase: Phase
    /// Number of fingers (1 for a pointer gesture).
    public var fingers: Int
    public var device: DeviceKind
    /// Centroid, root pixels.
    public var position: Point
    /// Tap count, for taps.
    public var taps: Int?
    /// Swipe direction; pinch `in`/`out` and rotate `cw`/`ccw` on `ended`.
    public var direction: Direction?
    /// The edge a swipe or pan started at.
    public var edge: Edge?
    /// The name of the monitor the gesture started on, whenever the screen is known.
    public var monitor: String?
    /// Pan: cumulative translation (px).
    public var translation: Point?
    /// Pan: velocity (px/s).
    public var velocity: Point?
    /// Pinch: span now / span at start.
    public var scale: Double?
    /// Rotate: cumulative degrees, clockwise positive.
    public var angle: Double?
    /// Stroke: the name of the shape that matched.
    public var shape: String?
    /// Stroke: how well the path matched ``shape``, 0 to 1 (1 is identical).
    public var score: Double?
    /// The focused application (WM_CLASS instance, as the focus event gave it) when the
    /// gesture started, if known.
    public var app: String?
    /// The focused application's WM_CLASS class when the gesture started, if known: a
    /// binding's `app` matches it as well as ``app``.
    public var appClass: String?
    /// Index into ``EngineConfiguration/triggers`` of the trigger that fires at this phase.
    public var firing: Int?
    /// The modifier keys held when the gesture began (empty: none).
    public var modifiers: Modifiers
    /// A pointer gesture's trigger button: the button whose press started it; `nil` for other
    /// devices.
    public var button: Int?

    public init(
        time: Instant, gesture: GestureKind, phase: Phase, fingers: Int, device: DeviceKind,
        position: Point, taps: Int? = nil, direction: Direction? = nil, edge: Edge? = nil,
        translation: Point? = nil, velocity: Point? = nil, scale: Double? = nil,
        angle: Double? = nil, monitor: String? = nil, app: String? = nil, appClass: String? = nil, firing: Int? = nil,
        shape: String? = nil, score: Double? = nil, modifiers: Modifiers = [], button: Int? = nil
    ) {
        self.time = time
        self.gesture = gesture
        self.phase = phase
        self.fingers = fingers
        self.device = device
        self.position = position
        self.taps = taps
        self.direction = direction
        self.edge = edge
        self.translation = translation
        self.velocity = velocity
        self.scale = scale
        self.angle = angle
        self.monitor = monitor
        self.app = app
        self.appClass = appClass
        self.firing = firing
        self.shape = shape
        self.score = score
        self.modifiers = modifiers
        self.button = button
    }
}

/// Who owns a piece of input: the bridge (a bound gesture won it) or the application.
public enum Ownership: String, Hashable, Sendable {
    /// A bound gesture won: the live layer accepts the touch (`XIAcceptTouch`) or keeps the
    /// grabbed button/touchpad gesture.
    case claim
    /// No binding can match any more: the live layer rejects the touch (`XIRejectTouch`) or
    /// replays the grabbed button press to the application.
    case release
}

/// What the engine tells its caller, in order.
public enum EngineOutput: Hashable, Sendable {
    /// A gesture phase, with the trigger that fires at it, if any.
    case gesture(GestureReport)
    /// Decision about one touchscreen touch. Each touch gets exactly one decision.
    case touch(id: Int, Ownership)
    /// Decision about the pointer-button press that started a pointer gesture. `release` on a
    /// plain click means: not a gesture, replay it to the application.
    case pointer(button: Int, Ownership)
    /// Decision about the current touchpad gesture.
    case touchpad(Ownership)
    /// A recognizer changed state (only when ``Engine/tracesTransitions`` is on): for
    /// `--verbose` logs, `old → event → new`.
    case transition(Transition)
    /// An impossible transition inside the engine (a bug, reported instead of ignored): for
    /// `--verbose` logs. Debug builds stop at an assertion first.
    case bug(EngineBug)
    /// A step of the path an undecided pointer or touchscreen gesture draws (only when
    /// ``Engine/tracesPaths`` is on), for an observer that draws a trail under the finger or
    /// the pointer (see ``PathEvent``).
    case path(PathEvent)
}

/// One step of the path a pointer or touchscreen gesture draws while it is undecided: the
/// centroid of its fingers (or the pointer) from the first touch or press.
///
/// Per device, a `begin`, then `point`s, then an `end`. The path ends in the same call that
/// decides the gesture — a discrete gesture (tap, swipe, stroke) recognized, a long press,
/// pinch or rotate begun, its input given back to the application — or cancels or ends it; a
/// pan's path goes on while the pan runs, until its last lift. A touchpad draws none (its
/// gestures reach the engine as movements, not positions: ``DeviceDescriptor/isOnScreen``).
///
/// ```swift
/// var engine = Engine(EngineConfiguration(triggers: [Trigger(gesture: .stroke, device: .pointer, shape: "circle")]))
/// engine.tracesPaths = true
/// engine.handle(InputEvent(time: Instant(milliseconds: 0), .buttonPress(button: 3, at: Point(x: 10, y: 20)))) { out in
///     if case .path(let step) = out { print(step) }   // pointer path begin at (10.0, 20.0)
/// }
/// ```
public struct PathEvent: Hashable, Sendable, CustomStringConvertible {
    /// Where in its path a step is.
    public enum Kind: String, Hashable, Sendable {
        /// The first point: the first touch or the press.
        case begin
        /// The next point.
        case point
        /// The path is over; ``PathEvent/point`` is its last point.
        case end
    }

    /// When the point was drawn (for `end`: when the gesture was decided or ended).
    public var time: Instant
    /// The device whose gesture draws it.
    public var device: DeviceKind
    public var kind: Kind
    /// The centroid, root pixels.
    public var point: Point
    /// On the `end` of a path whose stroke was matched at the lift and failed: why (the best
    /// bound shape and its score, or a path too small to be a stroke); nil otherwise.
    public var strokeMiss: StrokeMiss?

    public init(time: Instant, device: DeviceKind, kind: Kind, point: Point, strokeMiss: StrokeMiss? = nil) {
        self.time = time
        self.device = device
        self.kind = kind
        self.point = point
        self.strokeMiss = strokeMiss
    }

    public var description: String { "\(device.rawValue) path \(kind.rawValue) at \(point)" }
}

/// Why a stroke drawn to its lift fired nothing: what the matcher found, for an observer that
/// tells the user (an on-screen "no shape: best circle 0.74").
///
/// ```swift
/// if case .path(let step) = output, let miss = step.strokeMiss, let shape = miss.shape {
///     print("no shape: best \(shape) \(miss.score ?? 0)")
/// }
/// ```
public struct StrokeMiss: Hashable, Sendable {
    /// The bound shape that matched best; nil when none was compared (the path was smaller
    /// than `stroke_min_px`, or too short to resample).
    public var shape: String?
    /// How well ``shape`` matched, 0 to 1 (below `stroke_min_score`).
    public var score: Double?
    /// The diagonal of the path's bounding box (px), compared with ``minimumDiagonal``.
    public var diagonal: Double
    /// The smallest diagonal a stroke may have there (px): `stroke_min_px`, or `stroke_min_mm`
    /// on the monitor the path began on.
    public var minimumDiagonal: Double

    public init(shape: String?, score: Double?, diagonal: Double, minimumDiagonal: Double) {
        self.shape = shape
        self.score = score
        self.diagonal = diagonal
        self.minimumDiagonal = minimumDiagonal
    }
}

/// One state change of a gesture group or of one of its recognizers, for diagnostics.
public struct Transition: Hashable, Sendable, CustomStringConvertible {
    public var time: Instant
    public var device: DeviceKind
    /// The recognizer that changed; `nil`: the gesture group itself (its phase).
    public var gesture: GestureKind?
    public var from: String
    public var to: String
    /// What caused it: the input event's type, or `timer`.
    public var cause: String

    public init(time: Instant, device: DeviceKind, gesture: GestureKind?, from: String, to: String, cause: String) {
        self.time = time
        self.device = device
        self.gesture = gesture
        self.from = from
        self.to = to
        self.cause = cause
    }

    public var description: String {
        "\(device.rawValue) \(gesture?.rawValue ?? "group"): \(from) → \(cause) → \(to)"
    }
}

extension EngineOutput {
    /// The output with the cause of a transition filled in; other outputs unchanged.
    func causedBy(_ cause: String) -> EngineOutput {
        guard case .transition(var transition) = self else { return self }
        transition.cause = cause
        return .transition(transition)
    }
}
