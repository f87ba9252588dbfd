public import BridgeCore
public import GestureConfig

/// The live performer, made safe for the capture: a click of the trigger button is injected
/// with the button grab lifted, so it reaches the application and not the bridge.
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
        switch action {
        case .click(let button) where capture.isTriggerButton(button):
            try capture.suspendingButtonGrab(button) { () throws(ActionError) in
                try capture.lettingPointerInputThrough { () throws(ActionError) in try inner.perform(action, context: context) }
            }
        case .click, .scroll:
            // Injected pointer input must not come back to the grab of the press that claimed.
            try capture.lettingPointerInputThrough { () throws(ActionError) in try inner.perform(action, context: context) }
        default:
            try inner.perform(action, context: context)
        }
        failures.succeeded(action)
    }

    public func releaseEverything() { inner.releaseEverything() }

    public func pressHeldKey(_ key: KeyCombo.Key, context: ActionContext) throws(ActionError) {
        try inner.pressHeldKey(key, context: context)
    }

    public func releaseHeldKey(_ key: KeyCombo.Key) { inner.releaseHeldKey(key) }

    public func reapChildren() { _ = inner.reapChildren() }

    /// When the performer has something to do (a temporary key mapping to restore, an action's
    /// effect to look for), if anything.
    public var nextMaintenance: ContinuousClock.Instant? { inner.nextMaintenanceDeadline }

    public func maintain() { inner.maintain() }
}
