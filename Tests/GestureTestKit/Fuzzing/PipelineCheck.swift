import BridgeCore
public import GestureConfig
import GestureEngine

/// Runs steps through a ``Pipeline`` — the path the daemon, `--dry-run` and `replay` share —
/// with a recording performer and arbiter, and returns every broken promise: the engine's
/// (``EngineInvariants``) and the pipeline's own.
///
/// The pipeline's promises: each fired phase is performed once with its binding's action, in
/// order; each ownership decision reaches the arbiter once, in order, as the observer hears it;
/// shutting down abandons everything (every gesture ended, every input decided) and tells the
/// performer to release whatever it holds, exactly once. A phase skipped because the screen is
/// locked is checked as a phase and not performed.
///
/// Held keys: a combination is pressed and released within one `perform`; a binding's `hold`
/// keys go down through `pressHeldKey` and must each come up through `releaseHeldKey` exactly
/// once, none pressed twice while down and none left down after shutdown, and only an `ended`
/// or `cancelled` phase may carry `release`. `Pipeline.shutdown` calling `releaseEverything()`
/// once is what this checks of the rest.
///
/// After the last step, time runs 10 s on (timers fire), then the pipeline shuts down at that
/// instant.
///
/// ```swift
/// let violations = pipelineViolations(config, events.map(FuzzStep.event))
/// #expect(violations.isEmpty, "\(violations)")
/// ```
public func pipelineViolations(_ config: Config, _ steps: [FuzzStep], tracesTransitions: Bool = false) -> [String] {
    let performer = RecordingPerformer()
    let arbiter = RecordingArbiter()
    var check = EngineInvariants(config.engineConfiguration)
    var problems: [String] = []
    var decisions: [OwnershipDecision] = []
    var fired: [Action] = []
    let pipeline = Pipeline(config: config, performer: performer, arbiter: arbiter) { event in
        switch event {
        case .phase(let report, let binding, let release):
            check.observe(.gesture(report))
            if release != nil, report.phase != .ended, report.phase != .cancelled {
                problems.append("a \(report.phase) phase released held keys: \(describe(report))")
            }
            if let binding {
                fired.append(contentsOf: binding.actions)
                if report.firing.map({ config.bindings.indices.contains($0) && config.bindings[$0] == binding }) != true {
                    problems.append("the binding performed is not the one the report fires: \(describe(report))")
                }
            } else if report.firing != nil {
                problems.append("a firing report without its binding: \(describe(report))")
            }
        case .passedOn(let decision, _), .claimed(let decision, _):
            decisions.append(decision)
            switch decision {
            case .touch(let id, let ownership): check.observe(.touch(id: id, ownership))
            case .pointer(let button, let ownership): check.observe(.pointer(button: button, ownership))
            case .touchpad(let ownership): check.observe(.touchpad(ownership))
            }
        case .skipped(let report, _, _):
            // The screen is locked: the phase happened, nothing is performed.
            check.observe(.gesture(report))
        case .actionFailed(let binding, _, let error):
            problems.append("the recording performer failed \(binding.actionText): \(error)")
        case .transition(let transition):
            check.observe(.transition(transition))
        case .engineBug(let bug):
            check.observe(.bug(bug))
        case .path(let step):
            check.observe(.path(step))
        }
    }
    pipeline.tracesTransitions = tracesTransitions
    var last: Instant? = nil
    for step in steps {
        switch step {
        case .event(let event):
            check.willHandle(event)
            pipeline.handle(event)
            last = max(last ?? event.time, event.time)
        case .advance(let instant):
            check.willAdvance(to: instant)
            pipeline.advance(to: instant)
            last = max(last ?? instant, instant)
        }
        check.endCall()
    }
    let end = (last ?? Instant(milliseconds: 0)) + Interval(milliseconds: 10_000)
    check.willAdvance(to: end)
    pipeline.advance(to: end)
    check.endCall()
    pipeline.shutdown(at: end)
    check.endCall()
    check.finish()

    if arbiter.decisions != decisions {
        problems.append("the arbiter got \(arbiter.decisions.count) decisions, the observer heard \(decisions.count), or in another order")
    }
    if performer.performed.map(\.0) != fired {
        problems.append("performed \(performer.performed.count) actions for \(fired.count) firings, or others")
    }
    var down: Set<String> = []
    for event in performer.heldKeyEvents {
        let key = String(event.drop { $0 != " " }.dropFirst())
        if event.hasPrefix("down") {
            if !down.insert(key).inserted { problems.append("\(key) was pressed again while held") }
        } else if down.remove(key) == nil {
            problems.append("\(key) was released while not held")
        }
    }
    if !down.isEmpty { problems.append("left held after shutdown: \(down.sorted())") }
    if performer.released != 1 {
        problems.append("shutdown told the performer to release everything \(performer.released) times, not once")
    }
    return check.violations + problems
}

extension EngineFuzzCase {
    /// Actions for the fuzzed bindings, as a config would have them (parsed from their text).
    static let actionTexts = ["key ctrl+alt+Right", "click right", "workspace next", "scroll down", "exec true"]

    /// Held keys for the fuzzed bindings that can hold (continuous, `on = "begin"`), none of them
    /// in ``actionTexts``: a held key is left out of a `key` action, which the check of what was
    /// performed does not model.
    static let holdTexts = ["super", "shift+super", "Hyper_L"]

    /// The case as a config: each trigger bound to one of a few real actions; every other
    /// binding that can hold keys holds some.
    public var config: Config {
        var bindings: [Binding] = []
        for (k, trigger) in configuration.triggers.enumerated() {
            let text = Self.actionTexts[k % Self.actionTexts.count]
            let action: Action
            do {
                action = try Action(parsing: text)
            } catch {
                preconditionFailure("the fuzz action '\(text)' does not parse: \(error)")
            }
            let holdText = trigger.gesture.isContinuous && trigger.on == .begin && k % 2 == 0
                ? Self.holdTexts[(k / 2) % Self.holdTexts.count] : nil
            let hold = holdText.map { text in
                do {
                    return try KeyCombo(holding: text)
                } catch {
                    preconditionFailure("the fuzz hold '\(text)' does not parse: \(error)")
                }
            }
            bindings.append(Binding(
                trigger: trigger, actions: [action], actionTexts: [text], isList: false, hold: hold, holdText: holdText,
                source: SourcePosition(file: "fuzz", line: k + 1, column: 1)))
        }
        return Config(
            settings: configuration.settings, pointerButton: configuration.pointerButton, bindings: bindings,
            claimOnSecondFinger: configuration.claimOnSecondFinger)
    }
}
