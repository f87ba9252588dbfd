/// The part of the configuration the recognizers consult: thresholds and triggers.
///
/// Passed by value into the gesture groups (it holds two small values and one array buffer,
/// so copying it costs a retain, never an allocation).
struct Recognition {
    /// Each device's thresholds, resolved once here so that no event looks them up.
    private var touchscreenSettings: RecognizerSettings
    private var touchpadSettings: RecognizerSettings
    private var pointerSettings: RecognizerSettings
    var triggers: [Trigger]
    var pointerButton: Int
    var claimOnSecondFinger: Bool
    /// The shapes strokes are compared with, prepared once per configuration.
    var strokes: ShapeMatcher
    /// For each trigger, the index of its shape in ``strokes`` (-1: no stroke, or a shape
    /// that does not exist), so that no event looks a name up.
    var shapeIndex: [Int]

    init(_ configuration: EngineConfiguration) {
        touchscreenSettings = configuration.settings(for: .touchscreen)
        touchpadSettings = configuration.settings(for: .touchpad)
        pointerSettings = configuration.settings(for: .pointer)
        triggers = configuration.triggers
        pointerButton = configuration.pointerButton
        claimOnSecondFinger = configuration.claimOnSecondFinger
        strokes = ShapeMatcher(shapes: configuration.shapes)
        let shapes = configuration.shapes
        shapeIndex = configuration.triggers.map { trigger in
            guard trigger.gesture == .stroke, let name = trigger.shape else { return -1 }
            // A later shape of the same name replaces an earlier one (a config shape a built-in).
            return shapes.lastIndex { $0.name == name } ?? -1
        }
    }

    /// The thresholds of `device`'s gestures (`[recognizer]`, or `[recognizer.DEVICE]`).
    @inline(__always) func settings(_ device: DeviceKind) -> RecognizerSettings {
        switch device {
        case .touchscreen: touchscreenSettings
        case .touchpad: touchpadSettings
        case .pointer: pointerSettings
        }
    }

    /// Whether any trigger for this device and app asks for more than `fingers` fingers: only
    /// then do landing fingers wait for more to join.
    func wantsMoreFingers(than fingers: Int, device: DeviceKind, app: FocusedApp) -> Bool {
        triggers.contains { $0.fingers > fingers && $0.applies(to: device, app: app) }
    }

    /// Whether any trigger for this device and app uses exactly `fingers` fingers, wherever the
    /// gesture starts (edges are only judged once the count is fixed).
    func usesFingers(_ fingers: Int, device: DeviceKind, app: FocusedApp) -> Bool {
        triggers.contains { $0.fingers == fingers && $0.applies(to: device, app: app) }
    }

    /// The most specific trigger among `candidates` that fires for one phase. Ties (possible
    /// only between different directions) go to the one bound first.
    func bestFiring(
        among candidates: [Int], gesture: GestureKind, taps: Int = 1, direction: Direction?, on: FiringPoint?,
        shape: Int = -1
    ) -> Int? {
        var best: Int? = nil
        var bestSpecificity = -1
        for i in candidates {
            let t = triggers[i]
            guard t.gesture == gesture else { continue }
            if gesture == .tap && t.taps != taps { continue }
            if gesture == .stroke && shapeIndex[i] != shape { continue }
            if let on, t.on != on { continue }
            if let wanted = t.direction, wanted != direction { continue }
            if t.specificity > bestSpecificity {
                best = i
                bestSpecificity = t.specificity
            }
        }
        return best
    }
}

/// What the bound triggers of one gesture group make possible: the recognizers that exist.
struct ContextFlags: Equatable {
    /// Highest tap count bound (0: no tap recognizer).
    var maxTaps = 0
    var longPress = false
    var swipe = false
    var swipeDiagonals = false
    var pan = false
    var panDiagonals = false
    var pinch = false
    var rotate = false
    /// A stroke is bound (with a shape that exists): swipes wait for the lift.
    var stroke = false

    var isEmpty: Bool { maxTaps == 0 && !longPress && !swipe && !pan && !pinch && !rotate && !stroke }

    /// Collects the triggers that apply to a group into `candidates` and summarizes them.
    static func collect(
        _ recognition: Recognition, device: DeviceKind, fingers: Int, app: FocusedApp, edge: Edge?,
        monitor: String?, into candidates: inout [Int]
    ) -> ContextFlags {
        candidates.removeAll(keepingCapacity: true)
        var flags = ContextFlags()
        for (i, t) in recognition.triggers.enumerated()
        where t.applies(to: device, app: app, fingers: fingers, edge: edge, monitor: monitor) {
            candidates.append(i)
            let diagonal = t.direction?.isDiagonal ?? false
            switch t.gesture {
            case .tap: flags.maxTaps = max(flags.maxTaps, t.taps)
            case .longPress: flags.longPress = true
            case .swipe:
                flags.swipe = true
                flags.swipeDiagonals = flags.swipeDiagonals || diagonal
            case .pan:
                flags.pan = true
                flags.panDiagonals = flags.panDiagonals || diagonal
            case .pinch: flags.pinch = true
            case .rotate: flags.rotate = true
            case .stroke: flags.stroke = flags.stroke || recognition.shapeIndex[i] >= 0
            }
        }
        return flags
    }
}
