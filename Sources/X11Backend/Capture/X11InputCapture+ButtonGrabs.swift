public import GestureConfig
public import GestureEngine
import Logging

/// A trigger button's modifier state that another client holds grabbed on the root window (a
/// mouse-binding program's Alt + drag): presses in it reach that client, so the bindings of
/// that button and those modifiers cannot fire.
public struct ButtonGrabConflict: Hashable, Sendable, CustomStringConvertible {
    /// The mouse button.
    public var button: Int
    /// The modifiers the bindings name.
    public var modifiers: Modifiers
    /// Only the states with Caps Lock or Num Lock on are held: the bindings fire with both off.
    public var onlyWithLocks: Bool

    public init(button: Int, modifiers: Modifiers, onlyWithLocks: Bool) {
        self.button = button
        self.modifiers = modifiers
        self.onlyWithLocks = onlyWithLocks
    }

    /// `super + button 1 (with Caps Lock or Num Lock on)`.
    public var description: String {
        "\(modifiers) + button \(button)" + (onlyWithLocks ? " (with Caps Lock or Num Lock on)" : "")
    }

    /// The bindings of `config` that start with this button and these modifiers: those that
    /// cannot fire.
    public func bindings(in config: Config) -> [Binding] {
        config.bindings.filter {
            $0.trigger.applies(to: .pointer) && $0.trigger.modifiers == modifiers
                && $0.trigger.pointerButton(default: config.pointerButton) == button
        }
    }

    /// What the daemon's log and `doctor` say of it: which bindings cannot fire, and why.
    public func explanation(in config: Config, holder: String = "X does not say which client") -> String {
        let affected = bindings(in: config)
        let names = affected.map(StartupWarnings.describe).joined(separator: "; ")
        return "another client holds a grab of \(self) on the root window (\(holder)): "
            + "\(affected.count == 1 ? "1 binding cannot" : "\(affected.count) bindings cannot") fire"
            + (onlyWithLocks ? " while a lock is on" : "") + (names.isEmpty ? "" : ": \(names)")
    }

    /// The conflicts `refusals` of a grab of `button` make, one per modifier set.
    static func from(_ refusals: [PassiveGrab.Refusal], button: Int, map: ModifierMap) -> [ButtonGrabConflict] {
        var bySet: [Modifiers: Bool] = [:]
        for refusal in refusals {
            let set = map.modifiers(state: refusal.modifiers)
            let withLocks = refusal.modifiers & map.lockingMask != 0
            bySet[set] = (bySet[set] ?? true) && withLocks
        }
        return bySet.map { ButtonGrabConflict(button: button, modifiers: $0.key, onlyWithLocks: $0.value) }
            .sorted { ($0.button, $0.modifiers.rawValue) < ($1.button, $1.modifiers.rawValue) }
    }
}

extension X11InputCapture {
    /// Whether `button` starts pointer gestures (and is grabbed, taking input).
    func isTriggerButton(_ button: Int) -> Bool {
        pointer.buttons.contains { $0.button == button }
    }

    /// Grabs the presses that start pointer gestures (at start and on a reload): each button
    /// once, with any modifiers or in the modifier states its bindings name. A press still
    /// undecided is given back to the application first when the grabs change.
    ///
    /// A modifier state another client holds is noted in ``grabConflicts`` (its bindings cannot
    /// fire; the others work). A button that must be grabbed with any modifiers and cannot be
    /// throws, and the previous grabs are put back: the previous config stays whole.
    public func setPointerGrabs(_ presses: PointerPresses) throws(X11Error) {
        guard mode == .grab else {
            pointer = presses
            return
        }
        if let map = try? display.currentModifierMap() { modifierMap = map }
        let wanted = PassiveGrab.triggerButtons(presses, modifierMap)
        guard wanted != buttonGrabs || grabbedButtons.count != wanted.count else {
            pointer = presses
            return
        }
        sendDeferredClaim()
        if triggerPress?.decision == .undecided { decideTriggerPress(.release) }
        let previous = (buttonGrabs, pointer)
        releaseButtonGrabs()
        buttonGrabs = wanted
        pointer = presses
        do {
            grabConflicts = try takeButtonGrabs()
        } catch {
            releaseButtonGrabs()
            (buttonGrabs, pointer) = previous
            grabConflicts = (try? takeButtonGrabs()) ?? []
            throw error
        }
    }

    /// Takes every grab of ``buttonGrabs`` not in place; returns the modifier states another
    /// client holds.
    private func takeButtonGrabs() throws(X11Error) -> [ButtonGrabConflict] {
        var conflicts: [ButtonGrabConflict] = []
        for grab in buttonGrabs {
            guard case .button(let button) = grab.kind, !grabbedButtons.contains(button) else { continue }
            conflicts += try take(grab, button: button)
        }
        return conflicts
    }

    /// Takes one button's grab; throws when it is for any modifiers and refused.
    private func take(_ grab: PassiveGrab, button: Int) throws(X11Error) -> [ButtonGrabConflict] {
        let refusals = try grab.takeEach(on: display)
        if grab.isForAnyModifiers, let refused = refusals.first {
            throw .failed("cannot grab mouse button \(button) on the root window: another client holds it (status \(refused.status)); "
                + "choose another [pointer] button or stop that client", display: display.name)
        }
        grabbedButtons.insert(button)
        return ButtonGrabConflict.from(refusals, button: button, map: modifierMap)
    }

    /// Releases every trigger button's grab.
    func releaseButtonGrabs() {
        for grab in buttonGrabs {
            guard case .button(let button) = grab.kind, grabbedButtons.contains(button) else { continue }
            try? grab.release(on: display)
            grabbedButtons.remove(button)
        }
    }

    /// Runs `body` (an injection of a click of `button`) with that button's passive grab
    /// lifted, so the injected click reaches applications instead of coming back to the
    /// bridge. The grab is put back afterwards; if that fails, ``restoreButtonGrab()`` retries it.
    public func suspendingButtonGrab<R, E: Error>(_ button: Int, _ body: () throws(E) -> R) throws(E) -> R {
        sendDeferredClaim()
        guard grabbedButtons.contains(button), let grab = buttonGrabs.first(where: { $0.kind == .button(button) }) else {
            return try body()
        }
        try? grab.release(on: display)
        grabbedButtons.remove(button)
        defer { restoreButtonGrab() }
        return try body()
    }

    /// Puts the trigger buttons' grabs back where one is missing (the daemon calls this every
    /// loop turn; it costs nothing when they are in place). A failure is logged once, with what
    /// to do.
    public func restoreButtonGrab() {
        guard mode == .grab, grabbedButtons.count < buttonGrabs.count, !display.isConnectionLost,
            ContinuousClock.now >= nextGrabRetry
        else { return }
        do {
            _ = try takeButtonGrabs()
            if grabRestoreFailed { logger.notice("mouse buttons \(grabbedButtons.sorted()) are grabbed again: pointer gestures work again") }
            grabRestoreFailed = false
        } catch {
            if !grabRestoreFailed {
                logger.error("pointer gestures are paused: \(error); retrying")
            }
            grabRestoreFailed = true
            nextGrabRetry = .now + grabRetryInterval
        }
    }
}
