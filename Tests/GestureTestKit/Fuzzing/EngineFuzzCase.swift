public import GestureEngine

/// One step of a run: an input event, or time running on to an instant with no event
/// (what the daemon's poll timeout does at ``Engine/nextDeadline``).
public enum FuzzStep: Hashable, Sendable {
    case event(InputEvent)
    case advance(Instant)
}

/// What the engine fuzzer decodes its bytes into: a configuration (bindings, thresholds,
/// trigger button) and a stream of steps.
///
/// The decoding covers what the engine's callers can hand it and more: touches that begin,
/// move, end and are cancelled under a small pool of ids (so ids repeat, end before they begin,
/// begin twice), presses of any button with any modifiers held, touchpad sequences that never end or end as the other
/// family, focus and screen changes, time that stands still, runs backwards or jumps by 1e12 ms,
/// and coordinates, deltas, scales and angles up to ±1.7e308. Every number is finite: the
/// engine's two callers (the trace reader and the X capture) never produce anything else, and
/// counts, buttons, scales and screen sizes keep to what the trace reader accepts.
/// Thresholds come from the range the config accepts; `repeat_every` goes beyond it (1e-15 to
/// 1e300), as the engine promises bounded work for any positive step.
///
/// ```swift
/// let fuzzCase = EngineFuzzCase(decoding: bytes)
/// let violations = pipelineViolations(fuzzCase.config, fuzzCase.steps)
/// ```
public struct EngineFuzzCase: Sendable {
    /// The bindings, thresholds and trigger button.
    public var configuration: EngineConfiguration
    /// Whether the engine reports its transitions (`--verbose`).
    public var tracesTransitions: Bool
    /// The input, in order.
    public var steps: [FuzzStep]

    /// Time steps (ms) between events: mostly a hand's pace, sometimes standing still, going
    /// back, or jumping far.
    static let gaps: [Double] = [0, 0, 1, 3, 8, 16, 16, 40, 100, 250, 400, 700, 1_500, 60_000, -50, 1e12]
    /// Absolute instants a step may jump to instead (the last ones are far in the past).
    static let instants: [Double] = [0, 4e18, 1e300, .greatestFiniteMagnitude, -1e300, -.greatestFiniteMagnitude]
    /// Coordinates beyond the screen.
    static let farCoordinates: [Double] = [
        -1, -1e300, 1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0, 1e15,
    ]
    /// Values of a threshold in the config's accepted range (0 only where zero is allowed).
    static let thresholds: [Double] = [1e-9, 0.5, 1, 5, 30, 100, 300, 1_000, 1e6, 1e300]
    /// `repeat_every` values, sane and absurd.
    static let repeats: [Double] = [1e-15, 1e-8, 0.001, 0.1, 1, 10, 50, 150, 1e6, 1e300]
    /// Scales of a touchpad pinch.
    static let scales: [Double] = [1, 0.5, 1.2, 2, 0, 1e-300, 1e300, .greatestFiniteMagnitude]

    /// Decodes `bytes`; every input gives a case.
    public init(decoding bytes: [UInt8]) {
        var b = FuzzBytes(bytes)
        let flags = b.byte()
        tracesTransitions = flags & 0b10 != 0
        let pointerButton = [3, 1, 0, 3][Int(flags >> 2) & 3]
        var settings = RecognizerSettings()
        if flags & 0b1_0000 != 0 {
            func value(zeroAllowed: Bool, default d: Double) -> Double {
                let k = b.below(Self.thresholds.count + 2)
                if k == Self.thresholds.count { return d }
                if k == Self.thresholds.count + 1 { return zeroAllowed ? 0 : d }
                return Self.thresholds[k]
            }
            settings.slopPx = value(zeroAllowed: true, default: settings.slopPx)
            settings.tapMaxMs = value(zeroAllowed: false, default: settings.tapMaxMs)
            settings.multiTapIntervalMs = value(zeroAllowed: false, default: settings.multiTapIntervalMs)
            settings.multiTapDistancePx = value(zeroAllowed: true, default: settings.multiTapDistancePx)
            settings.longPressMs = value(zeroAllowed: false, default: settings.longPressMs)
            settings.swipeMinPx = value(zeroAllowed: false, default: settings.swipeMinPx)
            settings.swipeMinVelocity = value(zeroAllowed: false, default: settings.swipeMinVelocity)
            settings.fingerSettleMs = value(zeroAllowed: true, default: settings.fingerSettleMs)
            settings.pinchMinScale = value(zeroAllowed: false, default: settings.pinchMinScale)
            settings.rotateMinDegrees = value(zeroAllowed: false, default: settings.rotateMinDegrees)
            settings.edgePx = value(zeroAllowed: true, default: settings.edgePx)
        }
        var triggers: [Trigger] = []
        for _ in 0..<b.below(13) { triggers.append(Self.trigger(&b)) }
        configuration = EngineConfiguration(
            settings: settings, pointerButton: pointerButton, triggers: triggers, claimOnSecondFinger: flags & 1 != 0)
        steps = Self.steps(&b, pointerButton: pointerButton)
    }

    /// One binding's trigger, valid as the config would accept it except for `repeat_every`.
    private static func trigger(_ b: inout FuzzBytes) -> Trigger {
        // The gesture's byte also gives the modifiers and a pointer binding's button, so that
        // the inputs kept from before they existed decode to the same gestures.
        let gestureByte = Int(b.byte())
        let gesture = GestureKind.allCases[gestureByte % GestureKind.allCases.count]
        let extra = gestureByte / GestureKind.allCases.count
        let modifiers: Modifiers? = extra % 3 == 0 && extra / 3 % Modifiers.combinations != 0
            ? Modifiers(rawValue: UInt8(extra / 3 % Modifiers.combinations)) : nil
        let fingers = gesture == .pinch || gesture == .rotate ? 2 + b.below(4) : gesture == .stroke ? 1 : 1 + b.below(5)
        let direction: Direction? = switch gesture {
        case .swipe, .pan: b.pick([nil] + Direction.planar)
        case .pinch: b.pick([nil, .in, .out])
        case .rotate: b.pick([nil, .cw, .ccw])
        case .tap, .longPress, .stroke: nil
        }
        let strokeShape: String? = gesture == .stroke ? b.pick(StrokeShape.builtIn).name : nil
        let shape = b.byte()
        let edge: Edge? = (gesture == .swipe || gesture == .pan) && shape & 0b11 == 0 ? Edge.allCases[Int(shape >> 2) & 3] : nil
        let device: DeviceKind? = [nil, nil, .touchscreen, .touchpad, .pointer][Int(shape >> 4) % 5]
        let app: String? = shape & 0x80 != 0 ? "firefox" : nil
        let on: FiringPoint = gesture.isContinuous && b.flag() ? .end : .begin
        let repeatEvery: Double? = gesture.isContinuous && on == .begin && b.flag() ? b.pick(repeats) : nil
        let button: Int? = device == .pointer && extra % 2 == 1 ? [1, 2, 3, 8, 9][extra / 2 % 5] : nil
        return Trigger(
            gesture: gesture, fingers: fingers, taps: gesture == .tap ? 1 + b.below(3) : 1, direction: direction,
            edge: edge, device: device, app: app, on: on, repeatEvery: repeatEvery, shape: strokeShape, modifiers: modifiers,
            button: button)
    }

    private static func steps(_ b: inout FuzzBytes, pointerButton: Int) -> [FuzzStep] {
        var steps: [FuzzStep] = []
        var t = 0.0
        var positions: [Int: Point] = [:]
        var pointer = Point(x: 640, y: 400)
        // Buttons are numbered from 1; with pointer gestures off (0), button 3 is pressed instead.
        let trigger = pointerButton == 0 ? 3 : pointerButton
        func coordinate(_ b: inout FuzzBytes) -> Double {
            let v = b.byte()
            return v < 248 ? Double(v) * 6 : farCoordinates[Int(v - 248)]
        }
        func place(_ b: inout FuzzBytes, from p: Point) -> Point {
            // Mostly a move near where the finger was, sometimes anywhere (far off included).
            if b.below(4) != 0 {
                let scale = b.pick([1.0, 4, 20, 1e6])
                return Point(x: p.x + Double(b.signed()) * scale, y: p.y + Double(b.signed()) * scale)
            }
            return Point(x: coordinate(&b), y: coordinate(&b))
        }
        while !b.isAtEnd && steps.count < 4_096 {
            let op = b.byte()
            let jump = b.byte()
            if jump < 240 {
                t += gaps[Int(jump) % gaps.count]
            } else {
                t = instants[Int(jump - 240) % instants.count]
            }
            if !t.isFinite { t = .greatestFiniteMagnitude }
            let time = Instant(milliseconds: t)
            let id = Int(b.byte() & 7)
            // The operation's byte's high bits: the modifier keys held at a beginning.
            let held = Modifiers(rawValue: op >> 4)
            let kind: InputEvent.Kind
            switch op % 16 {
            case 0, 1:
                let p = place(&b, from: Point(x: 300 + Double(id) * 60, y: 400))
                positions[id] = p
                kind = .touchBegin(id: id, at: p, modifiers: held)
            case 2, 3, 4:
                let p = place(&b, from: positions[id] ?? .zero)
                positions[id] = p
                kind = .touchUpdate(id: id, at: p)
            case 5:
                kind = .touchEnd(id: id, at: positions[id] ?? .zero)
            case 6:
                kind = .touchCancel(id: id, at: positions[id] ?? .zero)
            case 7:
                pointer = place(&b, from: pointer)
                kind = .buttonPress(button: b.pick([trigger, trigger, 1, 2, 3, 8]), at: pointer, modifiers: held)
            case 8:
                pointer = place(&b, from: pointer)
                kind = .buttonRelease(button: b.pick([trigger, trigger, 1, 3]), at: pointer)
            case 9:
                pointer = place(&b, from: pointer)
                kind = .motion(at: pointer)
            case 10:
                let fingers = b.pick([3, 2, 4, 1, 5, 1_000])
                let at: Point? = b.flag() ? pointer : nil
                kind = b.flag()
                    ? .touchpadPinchBegin(fingers: fingers, at: at, modifiers: held)
                    : .touchpadSwipeBegin(fingers: fingers, at: at, modifiers: held)
            case 11:
                let delta = place(&b, from: .zero)
                kind = b.flag()
                    ? .touchpadPinchUpdate(fingers: 2, delta: delta, scale: b.pick(scales), angle: Double(b.signed()) * b.pick([0.5, 10, 1e11, 1e300]))
                    : .touchpadSwipeUpdate(fingers: 3, delta: delta)
            case 12:
                let cancelled = b.flag()
                kind = b.flag() ? .touchpadPinchEnd(fingers: 2, cancelled: cancelled) : .touchpadSwipeEnd(fingers: 3, cancelled: cancelled)
            case 13:
                kind = .screen(width: b.pick([1280, 1920, 1, 100_000]), height: b.pick([800, 1080, 1]))
            case 14:
                kind = .focus(app: b.pick(["", "firefox", "xterm", "Firefox"]), appClass: b.pick([nil, "Navigator", ""]))
            default:
                steps.append(.advance(time))
                continue
            }
            steps.append(.event(InputEvent(time: time, kind)))
        }
        return steps
    }
}

extension EngineFuzzCase: CustomStringConvertible {
    /// The case as a person reads it: the configuration, then one step per line (at most 300),
    /// numbered as ``EngineInvariants`` numbers them in its violations.
    public var description: String {
        var text = "settings: \(configuration.settings)\npointer button \(configuration.pointerButton), "
            + "claim on second finger: \(configuration.claimOnSecondFinger), traces transitions: \(tracesTransitions)\n"
        for (k, trigger) in configuration.triggers.enumerated() { text += "trigger \(k): \(trigger)\n" }
        for (k, step) in steps.prefix(300).enumerated() {
            switch step {
            case .event(let e): text += "step \(k + 1): \(e.time.milliseconds) \(e.kind)\n"
            case .advance(let t): text += "step \(k + 1): advance to \(t.milliseconds)\n"
            }
        }
        if steps.count > 300 { text += "… \(steps.count - 300) more steps\n" }
        return text
    }
}
