public import GestureEngine

/// The bindings the workload runs against: a heavy but plausible config, with every gesture
/// kind (strokes included), the eight directions, edges, per-app bindings, `on = "end"` and
/// `repeat_every`.
///
/// Each binding only shapes which recognizers compete (only bound gestures do), so the set is
/// chosen to keep every recognizer busy: 1–5 finger taps with multi-taps up to three (every
/// single tap then waits out the multi-tap window), 5-finger taps (every landing then waits
/// for the finger-settle window), swipes that compete with pans, pinches with rotations.
public enum Bindings {
    public static let triggers: [Trigger] = [
        // Taps and multi-taps (touchscreen only: other devices cannot tap).
        Trigger(gesture: .tap, fingers: 1),
        Trigger(gesture: .tap, fingers: 1, taps: 2),
        Trigger(gesture: .tap, fingers: 1, taps: 3),
        Trigger(gesture: .tap, fingers: 1, taps: 2, app: "gimp"),
        Trigger(gesture: .tap, fingers: 2),
        Trigger(gesture: .tap, fingers: 2, taps: 2),
        Trigger(gesture: .tap, fingers: 3),
        Trigger(gesture: .tap, fingers: 4),
        Trigger(gesture: .tap, fingers: 5),
        // Long presses.
        Trigger(gesture: .longPress, fingers: 1),
        Trigger(gesture: .longPress, fingers: 1, on: .end),
        Trigger(gesture: .longPress, fingers: 2, repeatEvery: 150),
        // Swipes: axes for three fingers, diagonals for four, edges for one.
        Trigger(gesture: .swipe, fingers: 3, direction: .left),
        Trigger(gesture: .swipe, fingers: 3, direction: .right),
        Trigger(gesture: .swipe, fingers: 3, direction: .up),
        Trigger(gesture: .swipe, fingers: 3, direction: .down),
        Trigger(gesture: .swipe, fingers: 3, direction: .left, app: "firefox"),
        Trigger(gesture: .swipe, fingers: 4, direction: .upLeft),
        Trigger(gesture: .swipe, fingers: 4, direction: .downRight),
        Trigger(gesture: .swipe, fingers: 1, direction: .up, edge: .bottom),
        Trigger(gesture: .swipe, fingers: 1, direction: .right, edge: .left, device: .touchscreen),
        // Pans.
        // (Touchscreen only: a pointer stroke is bound below, and a stroke and a pan may not
        // compete for the same gestures.)
        Trigger(gesture: .pan, fingers: 1, direction: .down, device: .touchscreen, repeatEvery: 30),
        Trigger(gesture: .pan, fingers: 2),
        Trigger(gesture: .pan, fingers: 2, app: "firefox", repeatEvery: 40),
        Trigger(gesture: .pan, fingers: 3, on: .end),
        Trigger(gesture: .pan, fingers: 4, direction: .up, on: .end),
        // Pinches and rotations.
        Trigger(gesture: .pinch, fingers: 2, direction: .in, repeatEvery: 0.1),
        Trigger(gesture: .pinch, fingers: 2, direction: .out),
        Trigger(gesture: .rotate, fingers: 2, direction: .cw, repeatEvery: 10),
        Trigger(gesture: .rotate, fingers: 2, on: .end),
        Trigger(gesture: .pinch, fingers: 3),
        // Pointer (right-button) gestures.
        Trigger(gesture: .swipe, fingers: 1, device: .pointer),
        Trigger(gesture: .longPress, fingers: 1, device: .pointer),
        // Pointer strokes: every right-drag's path is collected and compared at the release,
        // and its swipe waits for the release.
        Trigger(gesture: .stroke, device: .pointer, shape: "circle"),
        Trigger(gesture: .stroke, device: .pointer, shape: "v"),
        // Touchpad-only bindings (the 3-finger swipes above apply to touchpads too).
        Trigger(gesture: .swipe, fingers: 4, direction: .up, device: .touchpad),
        Trigger(gesture: .pinch, fingers: 2, direction: .in, device: .touchpad),
    ]

    /// The configuration: default thresholds, right button (3) for pointer gestures.
    public static var configuration: EngineConfiguration {
        EngineConfiguration(settings: RecognizerSettings(), pointerButton: 3, triggers: triggers)
    }
}
