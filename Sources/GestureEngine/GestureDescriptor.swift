/// What one kind of gesture is, for everyone who deals with it: the engine (which devices make
/// it, whether it has phases, which recognizer may run beside it), the config reader (the keys,
/// directions and finger counts a binding of it takes, what its `repeat_every` counts), the
/// doctor (where a binding can fire) and the capture (which touchpad sequence carries it).
///
/// One per ``GestureKind`` (``GestureKind/descriptor``), written beside its recognizer in
/// `Recognizers/`: a new kind of gesture is its recognizer's file, with its descriptor there.
///
/// ```swift
/// GestureKind.pinch.descriptor.directions     // [.in, .out]
/// GestureKind.stroke.descriptor.mostFingers   // 1: a stroke is one finger's path
/// DeviceKind.pointer.canMake(.pinch)          // false: not among pinch's devices
/// ```
public struct GestureDescriptor: Sendable {
    /// The kind described.
    public let kind: GestureKind
    /// Continuous gestures have `began`/`changed`/`ended`/`cancelled` phases, fire at their
    /// begin or end, repeat and hold keys while they run; discrete ones are `recognized` once.
    public let isContinuous: Bool
    /// The directions a binding of it may name; empty: it has none.
    public let directions: [Direction]
    /// The fewest fingers it takes, and what a binding that names none gets.
    public let leastFingers: Int
    /// The most fingers it takes; `nil`: as many as the device has.
    public let mostFingers: Int?
    /// The devices that can make it.
    public let devices: [DeviceKind]
    /// The gestures that may run beside it on one group; every other pair excludes each other.
    public let coexists: [GestureKind]
    /// What one `repeat_every` step counts, and the sane range of steps; `nil`: it does not
    /// repeat.
    public let repeatStep: RepeatStep?
    /// Whether it can start at a screen edge (a binding's `edge`).
    public let startsAtEdges: Bool
    /// Whether a binding counts its taps (`taps`).
    public let countsTaps: Bool
    /// Whether it is drawn as a shape (`shape`).
    public let isDrawn: Bool
    /// The touchpad sequence (XI 2.4) that carries it; `nil` when no touchpad makes it.
    public let touchpadSequence: TouchpadSequence?
    /// The thresholds its recognizer reads (docs/config.md, `[recognizer]`).
    public let settings: [any RecognizerSetting]
    /// Whether its path is drawn on while it runs (a pan follows the finger), rather than
    /// ending when it begins (``PathEvent``).
    let followsPath: Bool
    /// ``devices`` and ``coexists`` as bits (``DeviceKind/bit``, ``GestureKind/bit``), for the
    /// engine's checks per trigger and event.
    let deviceBits: UInt8, coexistBits: UInt8

    init(
        _ kind: GestureKind, continuous: Bool = false, directions: [Direction] = [], leastFingers: Int = 1,
        mostFingers: Int? = nil, devices: [DeviceKind], coexists: [GestureKind] = [], repeatStep: RepeatStep? = nil,
        startsAtEdges: Bool = false, countsTaps: Bool = false, isDrawn: Bool = false,
        touchpadSequence: TouchpadSequence? = nil, followsPath: Bool = false, settings: [any RecognizerSetting]
    ) {
        self.kind = kind
        self.isContinuous = continuous
        self.directions = directions
        self.leastFingers = leastFingers
        self.mostFingers = mostFingers
        self.devices = devices
        self.coexists = coexists
        self.repeatStep = repeatStep
        self.startsAtEdges = startsAtEdges
        self.countsTaps = countsTaps
        self.isDrawn = isDrawn
        self.touchpadSequence = touchpadSequence
        self.settings = settings
        self.followsPath = followsPath
        deviceBits = devices.reduce(0) { $0 | $1.bit }
        coexistBits = coexists.reduce(0) { $0 | $1.bit }
    }
}

/// One threshold of ``RecognizerSettings``, named by its key path.
public typealias RecognizerSetting = PartialKeyPath<RecognizerSettings> & Sendable

/// What a continuous gesture's `repeat_every` counts, and the steps that make sense.
///
/// Below the range a repeat is faster than anyone can use or see: 100 actions a second for a
/// long press, a step on every pixel of a pan, every half degree of a rotate, every half percent
/// of a pinch's spread. Above it a repeat never fires again in practice: an hour held, 100,000
/// pixels, ten turns, a hundredfold spread.
public struct RepeatStep: Sendable {
    /// The sane steps.
    public let range: ClosedRange<Double>
    /// What a step counts, in words (`pixels`, `degrees`).
    public let unit: String
}

/// The two kinds of XI 2.4 touchpad gesture sequence: a swipe sequence carries swipes and
/// pans, a pinch sequence pinches and rotates.
public enum TouchpadSequence: String, CaseIterable, Hashable, Sendable {
    case swipe, pinch
}

extension GestureKind {
    /// What this kind of gesture is (see ``GestureDescriptor``).
    public var descriptor: GestureDescriptor {
        @inline(__always) get {
            switch self {
            case .tap: TapRecognizer.descriptor
            case .longPress: LongPressRecognizer.descriptor
            case .swipe: SwipeRecognizer.descriptor
            case .pan: PanRecognizer.descriptor
            case .pinch: PinchRotateRecognizer.pinchDescriptor
            case .rotate: PinchRotateRecognizer.rotateDescriptor
            case .stroke: StrokeRecognizer.descriptor
            }
        }
    }

    /// Its place in tables of one entry per kind (``GestureKind/allCases`` order).
    @inline(__always) var slot: Int {
        switch self {
        case .tap: 0
        case .longPress: 1
        case .swipe: 2
        case .pan: 3
        case .pinch: 4
        case .rotate: 5
        case .stroke: 6
        }
    }

    /// Its bit in a set of kinds.
    @inline(__always) var bit: UInt8 { 1 << UInt8(slot) }
}
