/// The part of the configuration the recognizers consult: thresholds and triggers.
///
/// Made once per configuration and screen layout, never changed: a reference the gesture
/// groups read through. As a value (two tables of every device's thresholds inline, about
/// 1.3 kB), every read of it from the engine's environment copied it whole onto the stack,
/// dozens of times per event (docs/performance.md, «Latency by drag shape»).
final class Recognition: Sendable {
    /// Each device's thresholds, resolved once here so that no event looks them up. Distances
    /// may still be in millimetres: only their times count (``settings(_:)``).
    private let deviceSettings: PerDevice<RecognizerSettings>
    /// Each device's thresholds in pixels on each monitor of the screen (the layout's order),
    /// converted once per screen layout (``laid(on:)``), never per event.
    private let onMonitor: [PerDevice<RecognizerSettings>]
    /// Each device's thresholds in pixels while no screen is known (96 dpi).
    private let offScreen: PerDevice<RecognizerSettings>
    let triggers: [Trigger]
    /// `[pointer] button`: the button of the pointer triggers that name none.
    let pointerButton: Int
    /// Which presses start a pointer gesture.
    let pointerPresses: PointerPresses
    let claimOnSecondFinger: Bool
    /// The shapes strokes are compared with, prepared once per configuration.
    let strokes: ShapeMatcher
    /// For each trigger, the index of its shape in ``strokes`` (-1: no stroke, or a shape
    /// that does not exist), so that no event looks a name up.
    let shapeIndex: [Int]

    convenience init(_ configuration: EngineConfiguration, screen: ScreenLayout? = nil) {
        let settings = PerDevice(configuration.settings(for:))
        let shapes = configuration.shapes
        self.init(
            deviceSettings: settings,
            onMonitor: Self.onMonitor(settings, screen),
            offScreen: PerDevice { settings[$0].inPixels(for: $0, pixelsPerMillimetre: nil) },
            triggers: configuration.triggers,
            pointerButton: configuration.pointerButton,
            pointerPresses: PointerPresses(triggers: configuration.triggers, defaultButton: configuration.pointerButton),
            claimOnSecondFinger: configuration.claimOnSecondFinger,
            strokes: ShapeMatcher(shapes: shapes),
            shapeIndex: configuration.triggers.map { trigger in
                guard trigger.gesture == .stroke, let name = trigger.shape else { return -1 }
                // A later shape of the same name replaces an earlier one (a config shape a built-in).
                return shapes.lastIndex { $0.name == name } ?? -1
            })
    }

    private init(
        deviceSettings: PerDevice<RecognizerSettings>, onMonitor: [PerDevice<RecognizerSettings>], offScreen: PerDevice<RecognizerSettings>,
        triggers: [Trigger], pointerButton: Int, pointerPresses: PointerPresses, claimOnSecondFinger: Bool, strokes: ShapeMatcher,
        shapeIndex: [Int]
    ) {
        self.deviceSettings = deviceSettings
        self.onMonitor = onMonitor
        self.offScreen = offScreen
        self.triggers = triggers
        self.pointerButton = pointerButton
        self.pointerPresses = pointerPresses
        self.claimOnSecondFinger = claimOnSecondFinger
        self.strokes = strokes
        self.shapeIndex = shapeIndex
    }

    /// The thresholds of `device`'s gestures (`[recognizer]`, or `[recognizer.DEVICE]`), for
    /// their times: a distance may be in millimetres here, and only
    /// ``settings(_:onMonitor:)`` has it in the pixels of a monitor.
    @inline(__always) func settings(_ device: DeviceKind) -> RecognizerSettings {
        deviceSettings[device]
    }

    /// The thresholds of `device`'s gestures that start on the monitor at `index` of the
    /// layout last laid on (``lay(on:)``), every distance in that monitor's pixels; a negative
    /// index: no screen is known (96 dpi).
    @inline(__always) func settings(_ device: DeviceKind, onMonitor index: Int) -> RecognizerSettings {
        index >= 0 && index < onMonitor.count ? onMonitor[index][device] : offScreen[device]
    }

    /// The same recognition with the thresholds given in millimetres converted for every
    /// monitor of `screen`: once per layout (a `screen` event, a reload), so that no gesture
    /// converts anything.
    func laid(on screen: ScreenLayout?) -> Recognition {
        Recognition(
            deviceSettings: deviceSettings, onMonitor: Self.onMonitor(deviceSettings, screen), offScreen: offScreen,
            triggers: triggers, pointerButton: pointerButton, pointerPresses: pointerPresses,
            claimOnSecondFinger: claimOnSecondFinger, strokes: strokes, shapeIndex: shapeIndex)
    }

    /// Each device's thresholds in the pixels of each monitor of `screen`; none when every
    /// distance is in pixels (every monitor has the off-screen thresholds then).
    private static func onMonitor(_ settings: PerDevice<RecognizerSettings>, _ screen: ScreenLayout?) -> [PerDevice<RecognizerSettings>] {
        guard DeviceKind.allCases.contains(where: { settings[$0].usesMillimetres }) else { return [] }
        return (screen?.monitors ?? []).map { monitor in
            PerDevice { settings[$0].inPixels(for: $0, pixelsPerMillimetre: monitor.pixelsPerMillimetre) }
        }
    }

    /// Whether any trigger for this device, app and modifiers asks for more than `fingers`
    /// fingers: only then do landing fingers wait for more to join.
    func wantsMoreFingers(than fingers: Int, device: DeviceKind, app: FocusedApp, modifiers: Modifiers) -> Bool {
        triggers.contains { $0.fingers > fingers && $0.applies(to: device, app: app, modifiers: modifiers) }
    }

    /// Whether any trigger for this device, app and modifiers uses exactly `fingers` fingers,
    /// wherever the gesture starts (edges are only judged once the count is fixed).
    func usesFingers(_ fingers: Int, device: DeviceKind, app: FocusedApp, modifiers: Modifiers) -> Bool {
        triggers.contains { $0.fingers == fingers && $0.applies(to: device, app: app, modifiers: modifiers) }
    }

    /// The most specific trigger among `candidates` that fires for one phase. Ties (possible
    /// only between different directions) go to the one bound first.
    func bestFiring(
        among candidates: [Int], gesture: GestureKind, taps: Int = 1, direction: Direction?, on: FiringPoint?,
        shape: Int = -1
    ) -> Int? {
        var best: Int? = nil
        var bestSpecificity = -1
        // Read in place: a copy of a trigger retains its strings (the arm asks this for eight
        // directions at every step of a drag).
        for i in candidates {
            guard triggers[i].gesture == gesture else { continue }
            if gesture == .tap && triggers[i].taps != taps { continue }
            if gesture == .stroke && shapeIndex[i] != shape { continue }
            if let on, triggers[i].on != on { continue }
            if let wanted = triggers[i].direction, wanted != direction { continue }
            let specificity = triggers[i].specificity
            if specificity > bestSpecificity {
                best = i
                bestSpecificity = specificity
            }
        }
        return best
    }
}

/// One value for each kind of device, in one table indexed by the device (``DeviceKind/slot``).
struct PerDevice<Value> {
    private var values: InlineArray<3, Value>

    /// The table of `value(device)` for every device.
    init(_ value: (DeviceKind) -> Value) {
        values = InlineArray { value(DeviceKind.allCases[$0]) }
    }

    @inline(__always) subscript(device: DeviceKind) -> Value {
        get { values[device.slot] }
        set { values[device.slot] = newValue }
    }
}

extension PerDevice: Sendable where Value: Sendable {}

/// What the bound triggers of one gesture group make possible: the recognizers that exist.
struct ContextFlags: Equatable {
    /// The kinds some applying trigger binds (``GestureKind/bit``).
    private var kinds: UInt8 = 0
    /// Highest tap count bound (0: no tap recognizer).
    var maxTaps = 0
    var swipeDiagonals = false
    var panDiagonals = false

    /// Whether a trigger binds `kind` here: its recognizer comes into play. A stroke counts
    /// only with a shape that exists.
    @inline(__always) func contains(_ kind: GestureKind) -> Bool { kinds & kind.bit != 0 }

    /// Keeps `kind`'s recognizer out of play.
    mutating func remove(_ kind: GestureKind) { kinds &= ~kind.bit }

    var pinch: Bool { contains(.pinch) }
    var rotate: Bool { contains(.rotate) }

    /// Collects the triggers that apply to a group into `candidates` and summarizes them.
    static func collect(
        _ recognition: Recognition, device: DeviceKind, fingers: Int, app: FocusedApp, edge: Edge?,
        monitor: String?, modifiers: Modifiers, button: Int, into candidates: inout [Int]
    ) -> ContextFlags {
        candidates.removeAll(keepingCapacity: true)
        var flags = ContextFlags()
        for (i, t) in recognition.triggers.enumerated()
        where t.applies(
            to: device, app: app, fingers: fingers, edge: edge, monitor: monitor, modifiers: modifiers, button: button,
            defaultButton: recognition.pointerButton)
        {
            candidates.append(i)
            let diagonal = t.direction?.isDiagonal ?? false
            switch t.gesture {
            case .tap: flags.maxTaps = max(flags.maxTaps, t.taps)
            case .swipe: flags.swipeDiagonals = flags.swipeDiagonals || diagonal
            case .pan: flags.panDiagonals = flags.panDiagonals || diagonal
            case .stroke: if recognition.shapeIndex[i] < 0 { continue }
            case .longPress, .pinch, .rotate: break
            }
            flags.kinds |= t.gesture.bit
        }
        if flags.maxTaps == 0 { flags.remove(.tap) }
        return flags
    }
}
