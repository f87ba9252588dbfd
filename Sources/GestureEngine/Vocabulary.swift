/// The gestures the engine recognizes.
public enum GestureKind: String, CaseIterable, Hashable, Sendable {
    case tap
    case longPress = "long-press"
    case swipe, pan, pinch, rotate
    /// A path drawn with one finger or the pointer, compared at the lift with the bound shapes
    /// (docs/interface.md, «Strokes»).
    case stroke

    /// Continuous gestures have `began`/`changed`/`ended`/`cancelled` phases; discrete ones are
    /// `recognized` once (``GestureDescriptor/isContinuous``).
    public var isContinuous: Bool { descriptor.isContinuous }
}

/// A direction: the eight swipe and pan directions, pinch `in`/`out`, rotate `cw`/`ccw`.
public enum Direction: String, CaseIterable, Hashable, Sendable {
    case left, right, up, down
    case upLeft = "up-left", upRight = "up-right", downLeft = "down-left", downRight = "down-right"
    case `in`, out
    case cw, ccw

    /// The four axis directions and four diagonals, for swipes and pans.
    public static let planar: [Direction] = [.left, .right, .up, .down, .upLeft, .upRight, .downLeft, .downRight]

    /// True for the four diagonals.
    @inlinable public var isDiagonal: Bool {
        switch self {
        case .upLeft, .upRight, .downLeft, .downRight: true
        default: false
        }
    }

    /// The unit vector of a planar direction in screen space (y grows down); zero for others.
    @inlinable public var unitVector: Point {
        let d = 0.7071067811865476
        switch self {
        case .left: return Point(x: -1, y: 0)
        case .right: return Point(x: 1, y: 0)
        case .up: return Point(x: 0, y: -1)
        case .down: return Point(x: 0, y: 1)
        case .upLeft: return Point(x: -d, y: -d)
        case .upRight: return Point(x: d, y: -d)
        case .downLeft: return Point(x: -d, y: d)
        case .downRight: return Point(x: d, y: d)
        case .in, .out, .cw, .ccw: return .zero
        }
    }
}

/// A side of the screen, for edge swipes and pans.
public enum Edge: String, CaseIterable, Hashable, Sendable {
    case left, right, top, bottom
}

/// Where a gesture came from.
public enum DeviceKind: String, CaseIterable, Hashable, Sendable {
    case touchscreen, touchpad, pointer
}

/// The phase of a gesture, as reported.
public enum Phase: String, CaseIterable, Hashable, Sendable {
    /// A discrete gesture (tap, swipe) happened.
    case recognized
    /// A continuous gesture started.
    case began
    /// A continuous gesture moved on.
    case changed
    /// A continuous gesture finished normally.
    case ended
    /// A continuous gesture was cancelled (touch cancel, cancelled touchpad gesture).
    case cancelled
}

/// When a binding of a continuous gesture fires: at its beginning (the default) or its end.
public enum FiringPoint: String, CaseIterable, Hashable, Sendable {
    case begin, end
}
