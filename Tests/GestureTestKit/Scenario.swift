public import GestureEngine

/// One recognition scenario for a table of tests: bindings, input, and the report lines it must
/// give (see ``describe(_:)``).
///
/// Its `description` is its name, which is what Swift Testing shows for a test case (the kit
/// does not import Testing: the benchmarks link it).
///
/// ```swift
/// let tapScenarios: [Scenario] = [
///     Scenario("a single tap fires on release", [tap()], expected: ["tap recognized taps=1 f1 touchscreen →0"]) {
///         $0.tap(at: 100, 100, time: 0)
///     },
/// ]
/// @Test(arguments: tapScenarios) func taps(_ s: Scenario) { #expect(lines(s.outputs()) == s.expected) }
/// ```
public struct Scenario: Sendable, CustomStringConvertible {
    /// What the scenario shows, as a sentence.
    public let name: String
    /// The bindings, in binding order (a report's `→index` is an index into them).
    public let triggers: [Trigger]
    /// The input.
    public let script: Script
    /// The report lines the input must give.
    public let expected: [String]
    /// The recognizer settings (thresholds) to run with.
    public var settings = RecognizerSettings()
    /// The pointer's trigger button (0: pointer gestures off).
    public var pointerButton = 3

    /// The name: what Swift Testing shows for the test case.
    public var description: String { name }

    /// A scenario named `name`; `build` writes its input into a script that begins with the
    /// `screen` size and the focused `app` when they are given.
    public init(
        _ name: String, _ triggers: [Trigger], expected: [String], settings: RecognizerSettings = RecognizerSettings(),
        screen: (Int, Int)? = nil, app: String? = nil, pointerButton: Int = 3, _ build: (inout Script) -> Void
    ) {
        self.name = name
        self.triggers = triggers
        var s = Script(screen: screen, app: app)
        build(&s)
        self.script = s
        self.expected = expected
        self.settings = settings
        self.pointerButton = pointerButton
    }

    /// What the engine emits for the input (see ``run(_:_:settings:pointerButton:claimOnSecondFinger:)``).
    public func outputs() -> [EngineOutput] { run(triggers, script, settings: settings, pointerButton: pointerButton) }
}

// MARK: - Short trigger builders for the tables

/// A tap binding: `taps` taps of `f` fingers.
public func tap(_ taps: Int = 1, f: Int = 1, device: DeviceKind? = nil, app: String? = nil, mods: Modifiers? = nil) -> Trigger {
    Trigger(gesture: .tap, fingers: f, taps: taps, device: device, app: app, modifiers: mods)
}

/// A long-press binding of `f` fingers, firing `on` its begin or end, repeating `every` ms;
/// with `mods` held, started by `button` (pointer).
public func longPress(
    f: Int = 1, device: DeviceKind? = nil, on: FiringPoint = .begin, every: Double? = nil, mods: Modifiers? = nil, button: Int? = nil
) -> Trigger {
    Trigger(gesture: .longPress, fingers: f, device: device, on: on, repeatEvery: every, modifiers: mods, button: button)
}

/// A swipe binding of `f` fingers in direction `d` (nil: any); with `mods` held (nil: any),
/// started by `button` (pointer; nil: `[pointer] button`).
public func swipe(
    _ d: Direction? = nil, f: Int = 1, edge: Edge? = nil, device: DeviceKind? = nil, app: String? = nil, mods: Modifiers? = nil,
    button: Int? = nil
) -> Trigger {
    Trigger(gesture: .swipe, fingers: f, direction: d, edge: edge, device: device, app: app, modifiers: mods, button: button)
}

/// A pan binding of `f` fingers in direction `d` (nil: any).
public func pan(
    _ d: Direction? = nil, f: Int = 1, edge: Edge? = nil, device: DeviceKind? = nil, on: FiringPoint = .begin, every: Double? = nil,
    mods: Modifiers? = nil, button: Int? = nil
) -> Trigger {
    Trigger(gesture: .pan, fingers: f, direction: d, edge: edge, device: device, on: on, repeatEvery: every, modifiers: mods, button: button)
}

/// A pinch binding of `f` fingers, `in` or `out` (nil: either).
public func pinch(
    _ d: Direction? = nil, f: Int = 2, device: DeviceKind? = nil, on: FiringPoint = .begin, every: Double? = nil, mods: Modifiers? = nil
) -> Trigger {
    Trigger(gesture: .pinch, fingers: f, direction: d, device: device, on: on, repeatEvery: every, modifiers: mods)
}

/// A rotate binding of `f` fingers, `cw` or `ccw` (nil: either).
public func rotate(_ d: Direction? = nil, f: Int = 2, device: DeviceKind? = nil, on: FiringPoint = .begin, every: Double? = nil) -> Trigger {
    Trigger(gesture: .rotate, fingers: f, direction: d, device: device, on: on, repeatEvery: every)
}

/// A stroke binding: `shape` (a built-in name or a config shape's) drawn with one finger or the
/// pointer.
public func stroke(_ shape: String, device: DeviceKind? = nil, app: String? = nil, mods: Modifiers? = nil, button: Int? = nil) -> Trigger {
    Trigger(gesture: .stroke, device: device, app: app, shape: shape, modifiers: mods, button: button)
}
