import GestureEngine
import GestureTestKit
import Testing

/// What a tracing engine emits for `script`, call by call: each `handle` (and the final
/// `advance`, 10 s after the last event) with its outputs.
func pathCalls(
    _ triggers: [Trigger], _ script: Script, tracesPaths: Bool = true, claimOnSecondFinger: Bool = false
) -> [[EngineOutput]] {
    var engine = Engine(EngineConfiguration(triggers: triggers, claimOnSecondFinger: claimOnSecondFinger))
    engine.tracesPaths = tracesPaths
    var calls: [[EngineOutput]] = []
    for e in script.events {
        var out: [EngineOutput] = []
        engine.handle(e) { out.append($0) }
        calls.append(out)
    }
    var out: [EngineOutput] = []
    engine.advance(to: (script.events.last?.time ?? Instant(milliseconds: 0)) + Interval(milliseconds: 10_000)) { out.append($0) }
    calls.append(out)
    return calls
}

extension Script {
    /// The end of the last path a tracing engine draws for this script, if any.
    func pathEnd(_ triggers: [Trigger]) -> PathEvent? {
        pathCalls(triggers, self).flatMap(pathSteps).last { $0.kind == .end }
    }
}

/// The path steps among `outputs`.
func pathSteps(_ outputs: [EngineOutput]) -> [PathEvent] {
    outputs.compactMap { if case .path(let p) = $0 { p } else { nil } }
}

/// A compact line per output, for the order of a path's end among the phases and decisions:
/// `path begin pointer`, `claim pointer`, `stroke recognized` …
func outline(_ outputs: [EngineOutput]) -> [String] {
    outputs.compactMap { out -> String? in
        switch out {
        case .path(let p): "path \(p.kind.rawValue) \(p.device.rawValue)"
        case .gesture(let r): "\(r.gesture.rawValue) \(r.phase.rawValue)"
        case .pointer(_, let o): "\(o.rawValue) pointer"
        case .touch(let id, let o): "\(o.rawValue) touch \(id)"
        case .touchpad(let o): "\(o.rawValue) touchpad"
        case .transition, .bug: nil
        }
    }
}

/// The promises of the path output, checked call by call: per device a `begin`, `point`s and an
/// `end`; only for pointer and touchscreen gestures; a path still open after a call is that of
/// an undecided gesture or a running pan (no phase but a pan's, no release of the pointer, in
/// that call); every path ended once the input is over.
func pathViolations(_ calls: [[EngineOutput]]) -> [String] {
    var problems: [String] = []
    var open: [DeviceKind: Instant] = [:]
    for (k, call) in calls.enumerated() {
        var decided: Set<DeviceKind> = []
        for out in call {
            switch out {
            case .path(let p):
                if p.device == .touchpad { problems.append("call \(k): a touchpad path") }
                switch p.kind {
                case .begin:
                    if open[p.device] != nil { problems.append("call \(k): \(p) while a path is open") }
                    open[p.device] = p.time
                case .point, .end:
                    guard let last = open[p.device] else {
                        problems.append("call \(k): \(p) without a begin")
                        continue
                    }
                    if p.time < last { problems.append("call \(k): \(p) at \(p.time), before \(last)") }
                    open[p.device] = p.kind == .end ? nil : p.time
                }
            case .gesture(let r):
                // A tap is reported by the multi-tap sequence, possibly while the next group draws.
                if r.gesture != .tap && !(r.gesture == .pan && (r.phase == .began || r.phase == .changed)) {
                    decided.insert(r.device)
                }
            case .pointer(_, .release):
                decided.insert(.pointer)
            case .pointer, .touch, .touchpad, .transition, .bug:
                break
            }
        }
        for device in decided where open[device] != nil {
            problems.append("call \(k): the \(device.rawValue) path is still open after its gesture was decided: \(outline(call))")
        }
    }
    for (device, _) in open { problems.append("the \(device.rawValue) path never ended") }
    return problems
}

@Suite struct PathTests {
    @Test func thereIsNoPathUnlessOneIsAskedFor() {
        var s = Script()
        s.pointerPath(drawn("circle"), time: 0, duration: 600)
        #expect(pathCalls([stroke("circle")], s, tracesPaths: false).allSatisfy { pathSteps($0).isEmpty })
    }

    @Test(arguments: PropertyTests.seeds.prefix(30))
    func pathsChangeNothingElseAndKeepTheirPromises(seed: UInt64) {
        var s = Script()
        for e in randomStream(seed: seed) { s.add(e.time.milliseconds, e.kind) }
        let traced = pathCalls(everythingBound + [stroke("circle"), stroke("v", device: .pointer)], s)
        let plain = pathCalls(everythingBound + [stroke("circle"), stroke("v", device: .pointer)], s, tracesPaths: false)
        #expect(traced.map { $0.filter { if case .path = $0 { false } else { true } } } == plain)
        let violations = pathViolations(traced)
        #expect(violations.isEmpty, "seed \(seed): \(violations.joined(separator: "\n"))")
    }

    @Test func aPointerStrokeIsDrawnFromThePressToTheReleaseAndEndsBeforeItsPhase() throws {
        let points = drawn("circle")
        var s = Script()
        s.pointerPath(points, time: 0, duration: 600)
        let calls = pathCalls([stroke("circle")], s)
        let steps = calls.flatMap(pathSteps)
        #expect(steps.first?.kind == .begin && steps.first?.point == points.first)
        #expect(steps.dropFirst().dropLast().allSatisfy { $0.kind == .point })
        // The press and every motion (the release is where the last one was): the whole
        // drawing, in order, each point once.
        #expect(steps.dropLast().map(\.point) == s.events.compactMap { e -> Point? in
            switch e.kind {
            case .buttonPress(_, let p, _): p
            case .motion(let p): p
            default: nil
            }
        })
        #expect(steps.last?.point == points.last)
        let release = try #require(calls.dropLast().last)
        #expect(outline(release) == ["path end pointer", "claim pointer", "stroke recognized"])
        #expect(pathViolations(calls).isEmpty)
    }

    /// A stroke that matched nothing says why on its path's end: the best bound shape and
    /// its score, or, for a path too small to compare, only its size; a matched stroke's end
    /// carries nothing.
    @Test func aFailedStrokeSaysWhyOnItsPathsEnd() throws {
        var scribble = Script()
        scribble.pointerPath(drawn("zig-zag"), time: 0, duration: 600)
        let missed = try #require(scribble.pathEnd([stroke("circle"), stroke("v")]))
        let miss = try #require(missed.strokeMiss)
        #expect(miss.shape == "circle" || miss.shape == "v")
        #expect(miss.score.map { $0 >= 0 && $0 < RecognizerSettings().strokeMinScore } == true, "\(miss)")
        #expect(miss.diagonal > 200)

        var small = Script()
        small.pointerPath(drawn("circle", size: 30), time: 0, duration: 300)
        let tiny = try #require(small.pathEnd([stroke("circle")])?.strokeMiss)
        #expect(tiny.shape == nil && tiny.score == nil && tiny.diagonal < RecognizerSettings().strokeMinPx)

        var circle = Script()
        circle.pointerPath(drawn("circle"), time: 0, duration: 600)
        #expect(try #require(circle.pathEnd([stroke("circle")])).strokeMiss == nil)
    }

    @Test func aSwipeEndsThePathAtTheMotionThatDecidesIt() {
        var s = Script()
        s.pointerDrag(3, from: 100, 300, by: 300, 0, time: 0, duration: 200, steps: 10)
        let calls = pathCalls([swipe(.right, device: .pointer)], s)
        let deciding = calls.firstIndex { outline($0).contains("swipe recognized") }
        #expect(deciding != nil)
        if let deciding {
            #expect(outline(calls[deciding]).suffix(3) == ["path end pointer", "claim pointer", "swipe recognized"])
            #expect(calls[(deciding + 1)...].allSatisfy { pathSteps($0).isEmpty }, "nothing drawn once decided")
        }
        #expect(pathViolations(calls).isEmpty)
    }

    @Test func aPanIsDrawnWhileItRunsUntilTheLift() {
        var s = Script()
        s.drag(from: 100, 300, by: 200, 0, time: 0, duration: 2_000, steps: 40)
        let calls = pathCalls([pan()], s)
        let began = calls.firstIndex { outline($0).contains("pan began") }
        let ended = calls.firstIndex { outline($0).contains("pan ended") }
        #expect(began != nil && ended != nil)
        if let began, let ended {
            #expect(calls[(began + 1)..<ended].allSatisfy { pathSteps($0).map(\.kind) == [.point] }, "a point per move while it runs")
            #expect(outline(calls[ended]) == ["pan ended", "path end touchscreen"])
        }
        #expect(pathViolations(calls).isEmpty)
    }

    @Test func aLongPressEndsThePathWhenItBegins() throws {
        var s = Script()
        s.press(3, 200, 200, at: 0)
        s.motion(202, 201, at: 100)
        s.motion(203, 201, at: 900)
        s.release(3, 203, 201, at: 1_000)
        var engine = Engine(EngineConfiguration(triggers: [longPress(device: .pointer)]))
        engine.tracesPaths = true
        var timer: [EngineOutput] = []
        engine.handle(s.events[0]) { _ in }
        engine.handle(s.events[1]) { _ in }
        engine.advance(to: Instant(milliseconds: 600)) { timer.append($0) }
        #expect(outline(timer) == ["path end pointer", "claim pointer", "long-press began"])
        var later: [EngineOutput] = []
        for e in s.events.dropFirst(2) { engine.handle(e) { later.append($0) } }
        #expect(pathSteps(later).isEmpty, "a running long press draws nothing")
    }

    @Test func aClickGivenBackEndsThePathWithTheRelease() {
        var s = Script()
        s.press(3, 200, 200, at: 0)
        s.release(3, 203, 200, at: 80)
        let calls = pathCalls([swipe(.right, device: .pointer), stroke("circle", device: .pointer)], s)
        #expect(outline(calls[0]) == ["path begin pointer"])
        #expect(outline(calls[1]) == ["path point pointer", "path end pointer", "release pointer"])
        #expect(pathSteps(calls[1]).map(\.point) == [Point(x: 203, y: 200), Point(x: 203, y: 200)])
    }

    /// The centroid of the fingers down: where the first landed, between the two, as one
    /// moves; once one lifted, the other's (a path's last point is where its last finger lifted).
    @Test func aTouchscreenPathFollowsTheFingersCentroidFromTheFirstTouch() {
        var s = Script()
        s.down(1, 100, 100, at: 0)
        s.down(2, 300, 100, at: 20)
        s.move(1, 110, 100, at: 40)
        s.up(1, 110, 100, at: 60)
        s.up(2, 300, 100, at: 70)
        let calls = pathCalls([tap(f: 2)], s)
        let steps = calls.flatMap(pathSteps)
        #expect(steps.map(\.point) == [
            Point(x: 100, y: 100), Point(x: 200, y: 100), Point(x: 205, y: 100), Point(x: 300, y: 100), Point(x: 300, y: 100),
        ])
        #expect(steps.map(\.kind) == [.begin, .point, .point, .point, .end])
        #expect(pathViolations(calls).isEmpty)
    }

    @Test func aPinchEndsThePathWhenItBegins() {
        var s = Script()
        s.twoFingers(around: 450, 400, span: 100, factor: 2, time: 0)
        let calls = pathCalls([pinch(.out)], s)
        let began = calls.firstIndex { outline($0).contains("pinch began") }
        #expect(began.map { outline(calls[$0]).suffix(4) } == ["path end touchscreen", "claim touch 1", "claim touch 2", "pinch began"])
        #expect(began.map { calls[($0 + 1)...].allSatisfy { pathSteps($0).isEmpty } } == true, "nothing drawn once it began")
        #expect(pathViolations(calls).isEmpty)
    }

    @Test func aCancelledTouchEndsThePath() {
        var s = Script()
        s.down(1, 100, 100, at: 0)
        s.move(1, 120, 100, at: 50)
        s.cancel(1, at: 80)
        let calls = pathCalls([stroke("circle")], s)
        #expect(outline(calls[2]).contains("path end touchscreen"))
        #expect(pathViolations(calls).isEmpty)
    }

    @Test func aTouchpadDrawsNoPath() {
        var s = Script()
        s.touchpadSwipe(fingers: 3, by: 300, 0, time: 0, duration: 200, steps: 10)
        #expect(pathCalls([swipe(.right, f: 3)], s).allSatisfy { pathSteps($0).isEmpty })
    }
}
