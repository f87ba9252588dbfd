import Foundation
import GestureEngine
import GestureTestKit
import Testing

/// The arm says ahead what the engine decides at the next pointer motion (``SwipeArm``): the
/// live daemon types a key on its word before the engine has seen the motion, so a wrong word
/// is a wrong key. Checked here against the engine itself, on drags of every shape and on
/// random streams of every device.
@Suite struct SwipeArmTests {
    /// Configurations where the swipe's verdict decides a drag, and where it must not be armed
    /// (a stroke bound makes the swipe wait for the lift).
    static let configurations: [(name: String, triggers: [Trigger], armable: Bool)] = [
        ("a swipe right", [swipe(.right, device: .pointer)], true),
        ("a swipe any way", [swipe(device: .pointer)], true),
        ("four ways and a diagonal", [swipe(.left, device: .pointer), swipe(.right, device: .pointer), swipe(.up, device: .pointer),
                                      swipe(.down, device: .pointer), swipe(.upRight, device: .pointer)], true),
        ("a swipe beside a long press and a pan", [swipe(.right, device: .pointer), longPress(device: .pointer),
                                                   pan(.down, device: .pointer, every: 40)], true),
        ("a swipe with Super held only", [swipe(.right, device: .pointer, mods: .super), swipe(.left, device: .pointer)], true),
        ("a swipe beside a stroke", [swipe(.right, device: .pointer), stroke("circle", device: .pointer)], false),
        ("a swipe of button 2", [swipe(.right, device: .pointer, button: 2)], true),
    ]

    /// A drag: the press, then steps at set times, then the release.
    static func drag(seed: UInt64) -> [InputEvent] {
        var rng = SplitMix64(seed: seed)
        var t = Double.random(in: 0...50, using: &rng)
        var p = Point(x: Double.random(in: 0...1280, using: &rng), y: Double.random(in: 0...800, using: &rng))
        let button = [3, 3, 3, 2, 1].randomElement(using: &rng)!
        let modifiers: Modifiers = Bool.random(using: &rng) ? [] : .super
        var events = [InputEvent(time: Instant(milliseconds: t), .buttonPress(button: button, at: p, modifiers: modifiers))]
        // Half of them to the right, what most of the configurations bind.
        let angle = Bool.random(using: &rng) ? Double.random(in: -0.3...0.3, using: &rng) : Double.random(in: 0..<(2 * Double.pi), using: &rng)
        // The benchmark's shapes and others: few large steps, many small ones, slow, paused
        // past the swipe's window or a long press's deadline, wavering.
        let (steps, size, gap): (Int, Double, ClosedRange<Double>) = [
            (5, 20, 3...3), (2, 75, 8...40), (120, 1.5, 1...1), (60, 2, 5...5), (8, 15, 0...400), (30, 6, 0...30),
        ].randomElement(using: &rng)!
        // Some wait first, past a long press's deadline or the swipe's window.
        t += [0, 0, 0, 300, 600, 900].randomElement(using: &rng)!
        for _ in 0..<steps {
            t += Double.random(in: gap, using: &rng)
            let wobble = Double.random(in: -0.6...0.6, using: &rng)
            let s = size * Double.random(in: 0.5...1.5, using: &rng)
            p = p + Point(x: s * cos(angle + wobble), y: s * sin(angle + wobble))
            p = Point(x: min(max(p.x, 0), 1279), y: min(max(p.y, 0), 799))
            // A stamp a little before the last (the capture feeds such an event at the last time).
            let stamp = Bool.random(using: &rng) && t > 2 ? t - 2 : t
            events.append(InputEvent(time: Instant(milliseconds: stamp), .motion(at: p)))
        }
        t += Double.random(in: 0...50, using: &rng)
        events.append(InputEvent(time: Instant(milliseconds: t), .buttonRelease(button: button, at: p)))
        return events
    }

    /// Handles `events`, checking at every motion the arm made before it; returns how many
    /// swipes the engine fired at a motion, and how many of them the arm had said.
    static func check(_ configuration: EngineConfiguration, _ events: [InputEvent], label: String) -> (fired: Int, armed: Int) {
        var engine = Engine(configuration)
        var fired = 0, armed = 0
        var last = Instant(milliseconds: 0)
        for event in events {
            var said: Int? = nil
            if case .motion(let p) = event.kind, let arm = engine.swipeArm {
                said = arm.firing(motionTo: p, at: event.time)
            }
            var outputs: [EngineOutput] = []
            engine.handle(event) { outputs.append($0) }
            last = max(last, event.time)
            let firstGesture = outputs.firstIndex { if case .gesture = $0 { true } else { false } }
            var atMotion: GestureReport? = nil
            if case .motion = event.kind, let i = firstGesture, case .gesture(let report) = outputs[i], report.gesture == .swipe,
                report.phase == .recognized, report.firing != nil
            {
                atMotion = report
                fired += 1
            }
            guard let said else { continue }
            armed += 1
            // What was said is what the engine fired, first, at that motion, with nothing before
            // it but the claim of the press, transitions and the path.
            #expect(atMotion?.firing == said, "\(label): the arm said trigger \(said) at \(event); the engine: \(outputs)")
            if let i = firstGesture {
                for output in outputs[..<i] {
                    switch output {
                    case .pointer(_, .claim), .transition, .path: break
                    default: Issue.record("\(label): \(output) before the armed swipe at \(event)")
                    }
                }
            }
        }
        return (fired, armed)
    }

    @Test(arguments: configurations.indices)
    func theArmSaysWhatTheEngineFires(_ index: Int) {
        let (name, triggers, armable) = Self.configurations[index]
        let configuration = EngineConfiguration(triggers: triggers)
        var fired = 0, armed = 0
        for seed in UInt64(1)...400 {
            var events = [InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800))]
            events += Self.drag(seed: seed)
            let (f, a) = Self.check(configuration, events, label: "\(name), seed \(seed)")
            fired += f
            armed += a
        }
        // Not vacuous: where only the swipe's verdict decides, every swipe fired at a motion was
        // said before it; beside a stroke, none is.
        if armable { #expect(fired >= 15, "\(name): only \(fired) swipes in 400 drags") }
        #expect(armed == (armable ? fired : 0), "\(name): \(armed) of \(fired) swipes armed")
    }

    @Test(arguments: PropertyTests.seeds)
    func randomStreamsOfEveryDevice(seed: UInt64) {
        // Touches, touchpad sequences, taps waiting for a second, focus changes and pointer
        // presses interleaved: whatever the arm says holds.
        let events = randomStream(seed: seed)
        for triggers in [everythingBound, [swipe(device: .pointer), tap(2), longPress(f: 2)]] {
            _ = Self.check(EngineConfiguration(triggers: triggers), events, label: "seed \(seed)")
        }
    }

    @Test func aMotionAfterTheNextDeadlineIsNotArmed() throws {
        // A long press is due 500 ms after the press: a motion that comes later lets it begin first.
        var engine = Engine(EngineConfiguration(triggers: [swipe(.right, device: .pointer), longPress(device: .pointer)]))
        engine.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800))) { _ in }
        engine.handle(InputEvent(time: Instant(milliseconds: 10), .buttonPress(button: 3, at: Point(x: 100, y: 100)))) { _ in }
        let armed = engine.swipeArm
        let arm = try #require(armed)
        #expect(arm.button == 3)
        #expect(arm.firing(motionTo: Point(x: 200, y: 100), at: Instant(milliseconds: 60)) == 0)
        #expect(arm.firing(motionTo: Point(x: 200, y: 100), at: Instant(milliseconds: 2_000)) == nil)
        // Left is bound to nothing: its input goes back, nothing is armed that way.
        #expect(arm.firing(motionTo: Point(x: 0, y: 100), at: Instant(milliseconds: 60)) == nil)
        // Too short a move: the engine waits.
        #expect(arm.firing(motionTo: Point(x: 120, y: 100), at: Instant(milliseconds: 60)) == nil)
    }

    @Test func aTimerOfAnotherDeviceDueBeforeTheMotionFiresFirst() {
        // A touchscreen tap waits 300 ms for a second one; a right drag begun meanwhile crosses
        // the swipe after that wait: the tap fires first, at its deadline, and the arm made
        // before it (at the previous motion) says nothing of that motion.
        let configuration = EngineConfiguration(triggers: [tap(device: .touchscreen), tap(2, device: .touchscreen), swipe(.right, device: .pointer)])
        let p = Point(x: 100, y: 400)
        let events = [
            InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800)),
            InputEvent(time: Instant(milliseconds: 10), .touchBegin(id: 1, at: Point(x: 900, y: 300))),
            InputEvent(time: Instant(milliseconds: 60), .touchEnd(id: 1, at: Point(x: 900, y: 300))),
            InputEvent(time: Instant(milliseconds: 200), .buttonPress(button: 3, at: p)),
            InputEvent(time: Instant(milliseconds: 330), .motion(at: p + Point(x: 30, y: 0))),
            InputEvent(time: Instant(milliseconds: 365), .motion(at: p + Point(x: 100, y: 0))),
        ]
        var engine = Engine(configuration)
        for event in events.dropLast() { engine.handle(event) { _ in } }
        let arm = engine.swipeArm
        #expect(arm?.firing(motionTo: p + Point(x: 100, y: 0), at: Instant(milliseconds: 355)) == 2)
        #expect(arm?.firing(motionTo: p + Point(x: 100, y: 0), at: Instant(milliseconds: 365)) == nil)
        let (fired, armed) = Self.check(configuration, events, label: "a tap's deadline")
        #expect(fired == 0 && armed == 0)
    }

    @Test func keepingDropsTheTriggersNotKept() throws {
        var engine = Engine(EngineConfiguration(triggers: [swipe(.right, device: .pointer), swipe(.left, device: .pointer)]))
        engine.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800))) { _ in }
        engine.handle(InputEvent(time: Instant(milliseconds: 10), .buttonPress(button: 3, at: Point(x: 500, y: 100)))) { _ in }
        let armed = engine.swipeArm
        let arm = try #require(armed)
        #expect(Set(arm.triggers) == [0, 1])
        let kept = try #require(arm.keeping { $0 == 1 })
        #expect(kept.triggers == [1])
        #expect(kept.firing(motionTo: Point(x: 700, y: 100), at: Instant(milliseconds: 60)) == nil)
        #expect(kept.firing(motionTo: Point(x: 300, y: 100), at: Instant(milliseconds: 60)) == 1)
        #expect(arm.keeping { _ in false } == nil)
    }

    @Test func nothingIsArmedWithoutAPressOrOnceItIsDecided() throws {
        var engine = Engine(EngineConfiguration(triggers: [swipe(.right, device: .pointer)]))
        var arms: [Bool] = [engine.swipeArm != nil]
        engine.handle(InputEvent(time: Instant(milliseconds: 0), .screen(width: 1280, height: 800))) { _ in }
        arms.append(engine.swipeArm != nil)
        engine.handle(InputEvent(time: Instant(milliseconds: 10), .buttonPress(button: 3, at: Point(x: 100, y: 100)))) { _ in }
        arms.append(engine.swipeArm != nil)
        engine.handle(InputEvent(time: Instant(milliseconds: 30), .motion(at: Point(x: 300, y: 100)))) { _ in }
        arms.append(engine.swipeArm != nil)
        #expect(arms == [false, false, true, false])
    }
}
