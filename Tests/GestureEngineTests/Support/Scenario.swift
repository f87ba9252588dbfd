import GestureEngine
import Testing

/// One recognition scenario: bindings, input, and the expected report lines (see `describe`).
struct Scenario: Sendable, CustomTestStringConvertible {
    let name: String
    let triggers: [Trigger]
    let script: Script
    let expected: [String]
    var settings = RecognizerSettings()
    var pointerButton = 3
    var testDescription: String { name }

    init(_ name: String, _ triggers: [Trigger], expected: [String], settings: RecognizerSettings = RecognizerSettings(),
         screen: (Int, Int)? = nil, app: String? = nil, pointerButton: Int = 3, _ build: (inout Script) -> Void) {
        self.name = name
        self.triggers = triggers
        var s = Script(screen: screen, app: app)
        build(&s)
        self.script = s
        self.expected = expected
        self.settings = settings
        self.pointerButton = pointerButton
    }

    func outputs() -> [EngineOutput] { run(triggers, script, settings: settings, pointerButton: pointerButton) }
}

// Short trigger builders for the tables.
func tap(_ taps: Int = 1, f: Int = 1, device: DeviceKind? = nil, app: String? = nil) -> Trigger {
    Trigger(gesture: .tap, fingers: f, taps: taps, device: device, app: app)
}
func longPress(f: Int = 1, device: DeviceKind? = nil, on: FiringPoint = .begin, every: Double? = nil) -> Trigger {
    Trigger(gesture: .longPress, fingers: f, device: device, on: on, repeatEvery: every)
}
func swipe(_ d: Direction? = nil, f: Int = 1, edge: Edge? = nil, device: DeviceKind? = nil, app: String? = nil) -> Trigger {
    Trigger(gesture: .swipe, fingers: f, direction: d, edge: edge, device: device, app: app)
}
func pan(_ d: Direction? = nil, f: Int = 1, edge: Edge? = nil, device: DeviceKind? = nil, on: FiringPoint = .begin, every: Double? = nil) -> Trigger {
    Trigger(gesture: .pan, fingers: f, direction: d, edge: edge, device: device, on: on, repeatEvery: every)
}
func pinch(_ d: Direction? = nil, f: Int = 2, device: DeviceKind? = nil, on: FiringPoint = .begin, every: Double? = nil) -> Trigger {
    Trigger(gesture: .pinch, fingers: f, direction: d, device: device, on: on, repeatEvery: every)
}
func rotate(_ d: Direction? = nil, f: Int = 2, device: DeviceKind? = nil, on: FiringPoint = .begin, every: Double? = nil) -> Trigger {
    Trigger(gesture: .rotate, fingers: f, direction: d, device: device, on: on, repeatEvery: every)
}
