public import BridgeCore
public import GestureConfig

/// The live performer, made safe for the capture: a click of the trigger button is injected
/// with the button grab lifted, so it reaches the application and not the bridge; a click or
/// scroll while a claimed press holds the pointer, and every action after it, waits until the
/// pointer is free (``HeldPointerOutput``: the application gets the click whole, and nothing of
/// the held button).
///
/// Actions come after the ownership decisions of the same event: the engine claims input
/// before it reports the phase that fires. That order matters on the server: a touch grab that
/// accepts a pointer-emulating touch only after the touch ended leaves the emulated button 1
/// down, so a long press whose right click the user answers by lifting the finger must be
/// accepted before the click happens.
public final class GrabSafePerformer: ActionPerformer {
    let inner: X11ActionPerformer
    let capture: X11InputCapture
    /// Logs each failing action once, and when it works again.
    public let failures: ActionFailureLog

    init(_ inner: X11ActionPerformer, capture: X11InputCapture) {
        self.inner = inner
        self.capture = capture
        self.failures = ActionFailureLog(logger: inner.logger)
    }

    public func perform(_ action: Action, context: ActionContext) throws(ActionError) {
        // Only keys go out before the thaw of the press that claimed (``X11InputCapture/defersClaims``):
        // pointer input would queue behind the freeze, and other actions may wait on the server.
        if case .key = action {} else { capture.sendDeferredClaim() }
        capture.sendHeldPointerOutput()
        if capture.pointerHeldByGesture, action.injectsPointerInput || capture.holdsPointerOutput {
            // Performed once the pointer is free, in order; a failure is logged then.
            capture.holdUntilPointerFree { [self] in
                do throws(ActionError) {
                    try performNow(action, context: context)
                } catch {
                    failures.failed(action, error, binding: "performed once the pointer was free")
                }
            }
            return
        }
        try performNow(action, context: context)
    }

    private func performNow(_ action: Action, context: ActionContext) throws(ActionError) {
        switch action {
        case .click(let button) where capture.isTriggerButton(button):
            try capture.suspendingButtonGrab(button) { () throws(ActionError) in try inner.perform(action, context: context) }
        default:
            try inner.perform(action, context: context)
        }
        failures.succeeded(action)
    }

    public func releaseEverything() { inner.releaseEverything() }

    public func pressHeldKey(_ key: KeyCombo.Key, context: ActionContext) throws(ActionError) {
        capture.sendHeldPointerOutput()
        try inner.pressHeldKey(key, context: context)
    }

    public func releaseHeldKey(_ key: KeyCombo.Key) {
        // A click that waited for the pointer goes out with the keys the gesture held, as bound.
        capture.sendHeldPointerOutput()
        inner.releaseHeldKey(key)
    }

    public func reapChildren() { _ = inner.reapChildren() }

    /// When the performer has something to do (a temporary key mapping to restore, an action's
    /// effect to look for), if anything.
    public var nextMaintenance: ContinuousClock.Instant? {
        if capture.holdsPointerOutput, !capture.pointerHeldByGesture { return .now }
        return inner.nextMaintenanceDeadline
    }

    /// Also sends the output that waited for the pointer, once a claimed press let it go (the
    /// loop turn that read its release).
    public func maintain() {
        capture.sendHeldPointerOutput()
        inner.maintain()
    }
}

extension Action {
    /// Whether performing it injects pointer input (XTest button events).
    var injectsPointerInput: Bool {
        switch self {
        case .click, .scroll: true
        default: false
        }
    }
}
