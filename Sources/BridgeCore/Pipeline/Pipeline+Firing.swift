import GestureConfig
import GestureEngine

extension Pipeline {
    /// One gesture phase that is not skipped: the binding's held keys go down, its actions run
    /// in order, and a gesture that ends lets go of what it held, after the last action.
    ///
    /// The phase is reported with what an ending gesture releases: `replay` and `--dry-run`
    /// (no performer) print exactly the lines the live daemon acts on. It is reported after the
    /// actions went out and before their failures: an observation copies the report and the
    /// binding, time the user would otherwise wait for the action.
    func fire(_ binding: Binding?, at report: GestureReport) {
        let context = ActionContext(device: report.device, position: report.position, time: report.time, modifiers: report.modifiers)
        let pressing = binding.flatMap { b in b.hold.map { heldKeys.take($0.keys, spelled: b.holdSpellings, for: report) } } ?? []
        let ending = report.phase == .ended || report.phase == .cancelled
        let ended = ending ? heldKeys.end(report) : (release: nil, up: [])
        var failures: [PipelineEvent] = []
        if let binding, let performer {
            failures = perform(binding, pressing: pressing, with: performer, context: context)
        }
        observe(.phase(report, binding: binding, release: ended.release))
        for failure in failures { observe(failure) }
        if let performer { for key in ended.up { performer.releaseHeldKey(key) } }
    }

    /// Performs the binding's held keys and actions; returns what failed, in order.
    private func perform(
        _ binding: Binding, pressing: [KeyCombo.Key], with performer: any ActionPerformer, context: ActionContext
    ) -> [PipelineEvent] {
        var failures: [PipelineEvent] = []
        for key in pressing {
            do {
                try performer.pressHeldKey(key, context: context)
            } catch {
                failures.append(.actionFailed(binding, .key(KeyCombo(keys: [key])), error))
            }
        }
        for action in binding.actions {
            // A key that is held down stays down: the action neither presses nor releases it.
            var action = action
            if case .key(var combo) = action, !heldKeys.down.isEmpty {
                combo.keys.removeAll { heldKeys.isDown($0.keysym) }
                if combo.keys.isEmpty { continue }
                action = .key(combo)
            }
            do {
                try performer.perform(action, context: context)
            } catch {
                // The later actions may rely on this one (a copy, then a paste): they do not run.
                failures.append(.actionFailed(binding, action, error))
                break
            }
        }
        return failures
    }

    /// Releases what the gesture of `report` held (its end came while its binding was skipped).
    func releaseHeldKeys(of report: GestureReport) {
        let up = heldKeys.end(report).up
        if let performer { for key in up { performer.releaseHeldKey(key) } }
    }

    /// Releases every held key, whatever gesture held it: after a reload, a lock or a shutdown
    /// cancelled what ran, nothing may stay down, even if a gesture's end never came.
    func releaseAllHeldKeys() {
        let up = heldKeys.endAll()
        if let performer { for key in up { performer.releaseHeldKey(key) } }
    }
}
