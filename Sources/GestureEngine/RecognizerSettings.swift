/// Every threshold of the recognizers, with its unit and where its default comes from.
/// All of them are overridable in the config's `[recognizer]` table under the snake_case name.
///
/// Distances are pixels; each may instead be given in millimetres on the screen (the `…Mm`
/// values, `slop_mm` …), which replace their pixel counterparts for the devices whose gestures
/// are on the screen (``DeviceDescriptor/isOnScreen``) once converted with the density of the
/// monitor a gesture starts on (``inPixels(pixelsPerMillimetre:)``). A touchpad's distances are
/// pointer motion, not lengths on the screen: it keeps the pixels.
///
/// ```swift
/// var s = RecognizerSettings()
/// s.swipeMinMm = 20
/// s.inPixels(pixelsPerMillimetre: 96 / 25.4).swipeMinPx   // 75.6: 20 mm at 96 dpi
/// ```
public struct RecognizerSettings: Hashable, Sendable {
    /// How far (px) a tap, or a long press that has not begun, may wander from where each
    /// finger landed. Android's touch slop is 8 dp; Hammer.js allows 10 px for a tap.
    public var slopPx: Double = 10
    /// Longest press (ms, first landing to last lift) that still counts as a tap. Hammer.js
    /// uses 250 ms; 300 ms forgives slower fingers on glass.
    public var tapMaxMs: Double = 300
    /// Longest gap (ms) from one tap's release to the next tap's press in a multi-tap.
    /// Android's `DOUBLE_TAP_TIMEOUT` is 300 ms.
    public var multiTapIntervalMs: Double = 300
    /// How far apart (px) the taps of one multi-tap may be. Android's double-tap slop is 100 dp;
    /// 50 px keeps two quick taps on neighbouring targets apart.
    public var multiTapDistancePx: Double = 50
    /// How long (ms) fingers must rest before a long press begins. UIKit's
    /// `minimumPressDuration` is 0.5 s.
    public var longPressMs: Double = 500
    /// Centroid displacement (px) at which a fast enough movement is a swipe.
    public var swipeMinPx: Double = 80
    /// Average speed (px/ms) from the gesture's start that a swipe needs. 0.3 px/ms is
    /// Hammer.js's swipe velocity.
    public var swipeMinVelocity: Double = 0.3
    /// Fingers that land within this window (ms) of the first count as one gesture.
    public var fingerSettleMs: Double = 100
    /// |scale − 1| a pinch must reach before it begins.
    public var pinchMinScale: Double = 0.15
    /// Degrees of rotation before a rotate begins.
    public var rotateMinDegrees: Double = 15
    /// Distance (px) from a screen side within which a gesture starts "at the edge".
    public var edgePx: Double = 20
    /// The score (0 to 1, 1 is identical) a stroke's best matching shape needs to fire
    /// (docs/interface.md, «Strokes»'s default). On the generated strokes of docs/performance.md a shape
    /// drawn scores above it against itself and, but for a few closed look-alikes (a rectangle
    /// against the circle), below it against the other shapes.
    public var strokeMinScore: Double = 0.80
    /// The diagonal (px) of a path's bounding box below which it is no stroke: smaller paths
    /// are taps and jitter, too small to have a shape.
    public var strokeMinPx: Double = 60

    /// ``slopPx`` in millimetres on the screen; `nil`: the pixels count.
    public var slopMm: Double? = nil
    /// ``multiTapDistancePx`` in millimetres on the screen; `nil`: the pixels count.
    public var multiTapDistanceMm: Double? = nil
    /// ``swipeMinPx`` in millimetres on the screen; `nil`: the pixels count.
    public var swipeMinMm: Double? = nil
    /// ``swipeMinVelocity`` in millimetres per millisecond on the screen; `nil`: pixels per
    /// millisecond count. Given with ``swipeMinMm``, it keeps the time a swipe may take
    /// (``swipeWindowMs``) the same on every screen.
    public var swipeMinVelocityMm: Double? = nil
    /// ``edgePx`` in millimetres on the screen; `nil`: the pixels count.
    public var edgeMm: Double? = nil
    /// ``strokeMinPx`` in millimetres on the screen; `nil`: the pixels count.
    public var strokeMinMm: Double? = nil

    /// The documented defaults (docs/config.md).
    public init() {}

    /// Whether any distance is given in millimetres.
    public var usesMillimetres: Bool {
        slopMm != nil || multiTapDistanceMm != nil || swipeMinMm != nil || swipeMinVelocityMm != nil || edgeMm != nil
            || strokeMinMm != nil
    }

    /// The thresholds with every distance in pixels: each one given in millimetres converted at
    /// `pixelsPerMillimetre` (and no longer given in millimetres). Without millimetres, the
    /// settings themselves.
    public func inPixels(pixelsPerMillimetre k: Double) -> RecognizerSettings {
        var s = withoutMillimetres
        if let mm = slopMm { s.slopPx = mm * k }
        if let mm = multiTapDistanceMm { s.multiTapDistancePx = mm * k }
        if let mm = swipeMinMm { s.swipeMinPx = mm * k }
        if let mm = swipeMinVelocityMm { s.swipeMinVelocity = mm * k }
        if let mm = edgeMm { s.edgePx = mm * k }
        if let mm = strokeMinMm { s.strokeMinPx = mm * k }
        return s
    }

    /// The thresholds in pixels for `device`'s gestures on a monitor of `pixelsPerMillimetre`
    /// (`nil`: one that reports no size, counted at 96 dpi), as the engine converts them: an
    /// on-screen device converts millimetres, a touchpad's distances are pointer motion and keep
    /// their pixels (docs/config.md, «Distances in millimetres»).
    public func inPixels(for device: DeviceKind, pixelsPerMillimetre: Double?) -> RecognizerSettings {
        guard device.descriptor.isOnScreen else { return withoutMillimetres }
        return inPixels(pixelsPerMillimetre: pixelsPerMillimetre ?? Monitor.fallbackPixelsPerMillimetre)
    }

    /// The thresholds in pixels alone: what is given in millimetres is dropped (a touchpad's
    /// thresholds, which are pointer motion).
    public var withoutMillimetres: RecognizerSettings {
        var s = self
        (s.slopMm, s.multiTapDistanceMm, s.swipeMinMm, s.swipeMinVelocityMm, s.edgeMm, s.strokeMinMm) = (nil, nil, nil, nil, nil, nil)
        return s
    }

    /// The time (ms) after which a swipe can no longer happen: reaching `swipeMinPx` later than
    /// this means an average speed below `swipeMinVelocity`.
    @inlinable public var swipeWindowMs: Double { swipeMinPx / swipeMinVelocity }
}

/// Everything the engine needs: thresholds, the pointer trigger button, the bound triggers and
/// when touches are claimed.
public struct EngineConfiguration: Hashable, Sendable {
    /// Recognizer thresholds.
    public var settings: RecognizerSettings
    /// The mouse button that starts a pointer gesture; 0 turns pointer gestures off.
    public var pointerButton: Int
    /// The bound triggers; reports name a firing trigger by its index here.
    public var triggers: [Trigger]
    /// Claim every touch of a touchscreen group the moment its fingers make a count that a
    /// binding in the context uses (from the second finger on), instead of when a gesture wins.
    ///
    /// The touches are then taken while the fingers are still down, which the X server handles
    /// cleanly (a touch accepted after its end leaves the emulated button 1 down on
    /// xorg-server 21.1); the price is that applications never get those touches, even when
    /// no gesture then matches. Off by default.
    public var claimOnSecondFinger: Bool
    /// Thresholds for one device's gestures in place of ``settings`` (`[recognizer.touchpad]`
    /// …), each complete: the `[recognizer]` values with that table's keys written over them.
    public var deviceSettings: [DeviceKind: RecognizerSettings]
    /// The shapes strokes are compared with: the built-in ones, with config `[[shape]]`s
    /// replacing built-in ones of the same name and added after them. A stroke trigger names
    /// one by its name.
    public var shapes: [StrokeShape]

    public init(
        settings: RecognizerSettings = RecognizerSettings(), pointerButton: Int = 3, triggers: [Trigger],
        claimOnSecondFinger: Bool = false, deviceSettings: [DeviceKind: RecognizerSettings] = [:],
        shapes: [StrokeShape] = StrokeShape.builtIn
    ) {
        self.settings = settings
        self.pointerButton = pointerButton
        self.triggers = triggers
        self.claimOnSecondFinger = claimOnSecondFinger
        self.deviceSettings = deviceSettings
        self.shapes = shapes
    }

    /// The thresholds every recognizer of `device`'s gestures uses: its own, or ``settings``.
    public func settings(for device: DeviceKind) -> RecognizerSettings {
        deviceSettings[device] ?? settings
    }
}
