/// What a binding asks the engine to recognize: a binding without its action.
///
/// The set of triggers decides which recognizers exist (only bound gestures compete) and which
/// trigger fires at each phase (the most specific one). The engine reports a firing by the
/// trigger's index in ``EngineConfiguration/triggers``; the binding layer maps that index back to
/// the action.
///
/// ```swift
/// let threeFingerLeft = Trigger(gesture: .swipe, fingers: 3, direction: .left)
/// ```
public struct Trigger: Hashable, Sendable {
    /// The gesture.
    public var gesture: GestureKind
    /// Number of fingers (1 for pointer gestures).
    public var fingers: Int
    /// Number of taps, for `tap` (1 to 3); 1 otherwise.
    public var taps: Int
    /// Swipe/pan direction, pinch `in`/`out`, rotate `cw`/`ccw`; `nil` matches any.
    public var direction: Direction?
    /// Swipe or pan only: the gesture must start within `edge_px` of this edge.
    public var edge: Edge?
    /// The device the gesture must come from; `nil` matches any.
    public var device: DeviceKind?
    /// The monitor the gesture must start on, by name (exact); `nil` matches any.
    public var monitor: String?
    /// WM_CLASS (instance or class) of the focused window, lowercased; `nil` matches any app.
    public var app: String?
    /// For continuous gestures: fire at `began` or at `ended`.
    public var on: FiringPoint
    /// For continuous gestures: fire again per step (px for pan, scale for pinch, degrees for
    /// rotate, ms for long press).
    public var repeatEvery: Double?
    /// Stroke only: the name of the shape to draw, one of ``EngineConfiguration/shapes`` (a
    /// built-in shape or a config `[[shape]]`). A stroke trigger whose shape is not among them
    /// never fires.
    public var shape: String?
    /// The modifier keys that must be held, exactly this set, when the gesture begins; `nil`
    /// matches whatever is held (docs/interface.md, «Modifier keys and trigger buttons»).
    public var modifiers: Modifiers?
    /// Pointer only: the mouse button whose press starts the gesture; `nil`: the
    /// configuration's `[pointer] button` (``EngineConfiguration/pointerButton``).
    public var button: Int?

    /// Creates a trigger. Fingers default to the fewest the gesture takes
    /// (``GestureDescriptor/leastFingers``): 2 for pinch and rotate, 1 otherwise.
    ///
    /// ```swift
    /// let circle = Trigger(gesture: .stroke, device: .pointer, shape: "circle")
    /// ```
    public init(
        gesture: GestureKind,
        fingers: Int? = nil,
        taps: Int = 1,
        direction: Direction? = nil,
        edge: Edge? = nil,
        device: DeviceKind? = nil,
        app: String? = nil,
        on: FiringPoint = .begin,
        repeatEvery: Double? = nil,
        monitor: String? = nil,
        shape: String? = nil,
        modifiers: Modifiers? = nil,
        button: Int? = nil
    ) {
        self.gesture = gesture
        self.fingers = fingers ?? gesture.descriptor.leastFingers
        self.taps = taps
        self.direction = direction
        self.edge = edge
        self.device = device
        self.app = app?.lowercased()
        self.on = on
        self.repeatEvery = repeatEvery
        self.monitor = monitor
        self.shape = shape
        self.modifiers = modifiers
        self.button = button
    }

    /// Specificity, higher wins: a binding with `modifiers` before one without, then an `app`
    /// binding before an app-less one, then an `edge` binding before an edge-less one, then a
    /// named `monitor` before none, then a named `device` before `any`, then a named direction
    /// before none (pan).
    @inlinable public var specificity: Int {
        (modifiers != nil ? 32 : 0) + (app != nil ? 16 : 0) + (edge != nil ? 8 : 0) + (monitor != nil ? 4 : 0)
            + (device != nil ? 2 : 0) + (direction != nil ? 1 : 0)
    }
}
