/// What one kind of input device is, for everyone who deals with it: the engine (how many
/// fingers its gestures have, whether they have a place and a path on the screen), the config
/// reader (which `[recognizer.DEVICE]` keys take effect), the doctor (where a binding can fire).
/// The gestures it makes are said by each gesture's own ``GestureDescriptor/devices``.
///
/// ```swift
/// DeviceKind.pointer.descriptor.mostFingers    // 1: a pointer gesture is a press of its button
/// DeviceKind.touchpad.descriptor.isOnScreen    // false: XI 2.4 reports movements, not positions
/// ```
public struct DeviceDescriptor: Sendable {
    /// The kind described.
    public let kind: DeviceKind
    /// The most fingers one of its gestures has; `nil`: as many as land.
    public let mostFingers: Int?
    /// Whether its gestures start at a place on the screen and draw a path there: edges,
    /// strokes and the drawn path are theirs. A touchpad's gestures reach the bridge as
    /// movements (XI 2.4 deltas), so they have neither.
    public let isOnScreen: Bool
    /// The thresholds its own input reads, besides those of the recognizers of its gestures.
    let ownSettings: [any RecognizerSetting]

    /// The gestures it can make, in ``GestureKind`` order.
    public var gestures: [GestureKind] { GestureKind.allCases.filter { $0.descriptor.devices.contains(kind) } }

    /// Whether one of its gestures reads `setting`: a threshold it never reads has no effect in
    /// its `[recognizer.DEVICE]` table.
    public func reads(_ setting: any RecognizerSetting) -> Bool {
        ownSettings.contains { $0 == setting } || gestures.contains { $0.descriptor.settings.contains { $0 == setting } }
    }

    static let touchscreen = DeviceDescriptor(
        kind: .touchscreen, mostFingers: nil, isOnScreen: true, ownSettings: [\.fingerSettleMs, \.edgePx])
    static let touchpad = DeviceDescriptor(kind: .touchpad, mostFingers: nil, isOnScreen: false, ownSettings: [])
    static let pointer = DeviceDescriptor(kind: .pointer, mostFingers: 1, isOnScreen: true, ownSettings: [\.edgePx])
}

extension DeviceKind {
    /// What this kind of device is (see ``DeviceDescriptor``).
    public var descriptor: DeviceDescriptor {
        @inline(__always) get {
            switch self {
            case .touchscreen: .touchscreen
            case .touchpad: .touchpad
            case .pointer: .pointer
            }
        }
    }

    /// Its place in tables of one entry per kind (``DeviceKind/allCases`` order).
    @inline(__always) var slot: Int {
        switch self {
        case .touchscreen: 0
        case .touchpad: 1
        case .pointer: 2
        }
    }

    /// Its bit in a set of kinds.
    @inline(__always) var bit: UInt8 { 1 << UInt8(slot) }

    /// Whether this device can produce `gesture` at all (the gesture's
    /// ``GestureDescriptor/devices``): a pointer never taps, pinches or rotates; a touchpad never
    /// taps or long-presses (its taps arrive as clicks) and never strokes (XI 2.4 reports its
    /// gestures as deltas, not a path on the screen).
    public func canMake(_ gesture: GestureKind) -> Bool {
        gesture.descriptor.deviceBits & bit != 0
    }
}
