public import GestureConfig
public import GestureEngine

/// What the bindings need the capture to take from applications. Grabs cost applications
/// their input (or a delay), so the capture grabs only what some binding can use.
public struct CaptureNeeds: Hashable, Sendable {
    /// Some binding can fire for a touchscreen gesture: touches are grabbed.
    public var touchscreen: Bool
    /// Some swipe or pan binding can fire for a touchpad: touchpad swipes are grabbed.
    public var touchpadSwipes: Bool
    /// Some pinch or rotate binding can fire for a touchpad: touchpad pinches are grabbed.
    public var touchpadPinches: Bool
    /// The presses that start pointer gestures: each of their buttons is grabbed, with any
    /// modifiers or with exactly those its bindings name.
    public var pointer: PointerPresses

    public init(touchscreen: Bool, touchpadSwipes: Bool, touchpadPinches: Bool, pointer: PointerPresses = PointerPresses()) {
        self.touchscreen = touchscreen
        self.touchpadSwipes = touchpadSwipes
        self.touchpadPinches = touchpadPinches
        self.pointer = pointer
    }

    /// What `config`'s bindings need.
    public init(_ config: Config) {
        let triggers = config.bindings.map(\.trigger)
        touchscreen = triggers.contains { $0.applies(to: .touchscreen) }
        touchpadSwipes = triggers.contains { $0.gesture.descriptor.touchpadSequence == .swipe && $0.applies(to: .touchpad) }
        touchpadPinches = triggers.contains { $0.gesture.descriptor.touchpadSequence == .pinch && $0.applies(to: .touchpad) }
        pointer = PointerPresses(triggers: triggers, defaultButton: config.pointerButton)
    }
}
