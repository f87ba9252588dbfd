internal import CX11
public import BridgeCore
public import GestureConfig
import GestureEngine
public import Logging

/// The keys and buttons gesture-bridge holds down at a moment.
public struct HeldInput: Hashable, Sendable {
    /// Keys pressed and not released, in press order.
    public var keys: [KeyCode] = []
    /// Buttons pressed and not released, in press order.
    public var buttons: [Int] = []

    public init(keys: [KeyCode] = [], buttons: [Int] = []) {
        self.keys = keys
        self.buttons = buttons
    }

    /// True when nothing is held.
    public var isEmpty: Bool { keys.isEmpty && buttons.isEmpty }
}

/// The live performer: injects actions into the X server through XTest and EWMH. What each
/// action does is docs/config.md's «Actions»; here, what the code alone does not say:
///
/// - Keysyms become keycodes through the server's keyboard mapping, read again after a
///   `MappingNotify`. A keysym that needs Shift gets `Shift_L` around it; one the keymap lacks
///   is lent a spare keycode for the moment and the mapping is put back
///   ``temporaryMappingHold`` later (``restoreTemporaryMappings(dueBy:)``).
/// - Window and workspace actions fail, naming the hint, when `_NET_SUPPORTED` lacks one they
///   cannot do without (``WindowManagerAbilities``); their client messages carry the server's
///   time (``serverTimestamp()``) and a pager's source indication. Window managers ignore
///   requests without a word, so the effect is looked for where X shows it (``ExpectedEffect``)
///   by ``maintain(now:)`` at later turns of the loop, never waited for; one not seen within
///   ``effectTimeout`` is logged once per action, with the reason where it is known.
/// - `exec` never waits for its child (``reapChildren()``).
///
/// Each action runs as one checked call on the ``X11Display`` (an X error fails the action
/// with an ``ActionError`` naming it) and ends with everything it pressed released.
///
/// ```swift
/// let performer = try X11ActionPerformer(display: display, logger: logger)
/// try performer.perform(.workspace(.next), context: context)
/// // in the loop: on SIGCHLD
/// for exit in performer.reapChildren() { logger.info("\(exit)") }
/// // in the loop: poll timeout no later than performer.nextMaintenanceDeadline
/// performer.maintain()
/// ```
public final class X11ActionPerformer: ActionPerformer {
    /// How long a keysym mapped on a spare keycode stays mapped after its key was released.
    ///
    /// Applications translate a keycode to a keysym when they process the event, after the
    /// `MappingNotify` the temporary mapping caused; restoring at once would race them and
    /// they would see `NoSymbol` (xdotool sleeps for the same reason). Half a second covers a
    /// busy application; keeping the mapping longer harms nobody, since the keycode was spare.
    public static let defaultTemporaryMappingHold = Duration.milliseconds(500)

    /// The display actions are injected into.
    public let display: X11Display
    /// See ``defaultTemporaryMappingHold``.
    public let temporaryMappingHold: Duration

    let logger: Logger
    let launcher = ProcessLauncher()
    /// What this performer holds down now.
    public internal(set) var held = HeldInput() {
        didSet { if held != oldValue { holdingChanged?(holding) } }
    }
    /// Told of every change of ``holding`` as it is made: a press is written down just after it
    /// was queued in Xlib's buffer, before it can reach the server (the daemon's watcher learns
    /// of it first, ``HeldKeyWatch``).
    public var holdingChanged: ((HeldInput) -> Void)?
    /// Told of keys a key typed ahead is about to press (``typeAhead(_:)``), before they can
    /// reach the server: what ``holdingChanged`` would say of them, sooner and with less on the
    /// way to the key; ``held`` takes them once they are sent.
    public var willPressKeys: ((UnsafeBufferPointer<UInt8>) -> Void)?
    /// Every key and button down through this performer: ``held`` and the ``borrowedKeys``.
    public var holding: HeldInput {
        borrowedKeys.isEmpty ? held : HeldInput(keys: held.keys + borrowedKeys.filter { !held.keys.contains($0) }, buttons: held.buttons)
    }
    /// The presses of a key typed ahead of its action (``typeAhead(_:)``), until the action
    /// comes.
    var typedAhead: KeyPresses?
    /// Keysyms mapped on spare keycodes that are still to be restored.
    var temporaryMappings: [TemporaryMapping] = []
    /// The keycodes pressed for each held keysym (`hold`), in press order: the key, and Shift
    /// before it when the keysym needs it.
    var holdKeycodes: [UInt32: [KeyCode]] = [:]
    /// The keyboard mapping last read, and ``X11Display/keyboardMappingChanges`` when it was
    /// read (see ``currentKeyboardMapping()``).
    var cachedKeyboardMapping: (mapping: KeyboardMapping, changes: Int)?
    /// The unmapped window whose property changes tell the server's time (``serverTimestamp()``).
    var timestampWindowID: Window?
    /// The workspace or window action whose effect is still to be seen (``maintain(now:)``).
    var pendingEffect: PendingEffect?
    /// Says once per action what the window manager did not do.
    let effectLog: EffectLog
    /// The window manager's name, by its check window (read once per window manager).
    var windowManagerName: (check: WindowID, name: String)?
    /// Modifier keys the user holds that a `key` action lifted and put back through XTest: the
    /// XTest keyboard holds a copy of each until the user lets go of it
    /// (``userReleased(_:)``), in the order they were put back.
    public internal(set) var borrowedKeys: [KeyCode] = [] {
        didSet { if borrowedKeys != oldValue { holdingChanged?(holding) } }
    }
    /// Turns on (true) and off the capture's raw key releases, which tell when the user lets go
    /// of a borrowed key (the daemon wires it to ``X11InputCapture/followKeyReleases(_:)``).
    public var followKeyReleases: ((Bool) -> Void)?
    /// Whether raw key releases are followed now.
    var followingKeyReleases = false

    /// A spare keycode lent to a keysym, and what to put back.
    struct TemporaryMapping: Hashable {
        var keycode: KeyCode
        var keysym: UInt
        var original: [UInt]
        var restoreAfter: ContinuousClock.Instant
    }

    /// Creates a performer on `display`.
    ///
    /// - Throws: ``X11Error/missingExtension(_:display:)`` when the server has no XTEST.
    public init(
        display: X11Display,
        temporaryMappingHold: Duration = X11ActionPerformer.defaultTemporaryMappingHold,
        logger: Logger = Logger(label: "gesture-bridge.performer")
    ) throws(X11Error) {
        let hasXTest = try display.call("XTestQueryExtension") { display -> Bool in
            var event: Int32 = 0, error: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
            return XTestQueryExtension(display, &event, &error, &major, &minor) != 0
        }
        guard hasXTest else { throw .missingExtension("XTEST", display: display.name) }
        // The keyboard mapping is kept between actions; this is how a change reaches it.
        display.followKeyboardMapping()
        self.display = display
        self.temporaryMappingHold = temporaryMappingHold
        self.logger = logger
        self.effectLog = EffectLog(logger: logger)
    }

    // MARK: - Between actions

    /// What the daemon's loop calls each turn: restores the temporary key mappings that are due
    /// and looks for the effect of the last workspace or window action when that is due. Never
    /// waits for the server beyond a few property reads, and takes no grab.
    public func maintain(now: ContinuousClock.Instant = .now) {
        restoreTemporaryMappings(dueBy: now)
        checkPendingEffect(now: now)
        refreshChangedKeyboardMapping()
    }

    /// When ``maintain(now:)`` has something to do next; the loop's `poll()` should wake no
    /// later than this.
    public var nextMaintenanceDeadline: ContinuousClock.Instant? {
        // Asked at every turn of the loop: no array for two optionals.
        switch (nextRestoreDeadline, pendingEffect?.nextCheck) {
        case (let restore?, let check?): min(restore, check)
        case (let restore?, nil): restore
        case (nil, let check): check
        }
    }

    // MARK: - ActionPerformer

    /// Performs one action; on failure nothing stays held and the error names the action.
    public func perform(_ action: Action, context: ActionContext) throws(ActionError) {
        restoreTemporaryMappings()
        if case .exec(let argv) = action {
            let pid = try launcher.spawn(argv)
            // The gesture's own line names the action: this is detail (--verbose).
            logger.debug("exec: started \(Excerpt.of(argv[0]))", metadata: ["pid": "\(pid)"])
            return
        }
        // For log lines and errors, which must not grow with the config; built only when one
        // is written (formatting it took longer than injecting the key).
        func text() -> String { Excerpt.of(action.description) }
        do {
            try display.call(text(), sync: true) { (_) throws(X11Error) in
                switch action {
                case .key(let combo) where !context.modifiers.isEmpty: try typeCombo(combo, liftingHeldModifiers: true)
                case .key(let combo): try typeCombo(combo)
                case .click(let button): try click(button: button, context: context)
                case .scroll(let direction, let steps): try scroll(direction, steps: steps)
                case .workspace, .window, .tile, .moveWindowToWorkspace, .showDesktop: try askWindowManager(action)
                case .exec: break
                }
            }
            logger.debug("performed \(text())", metadata: ["device": "\(context.device)"])
        } catch {
            releaseHeldExceptHolds()
            if case .refused(let why, _) = error { throw ActionError("\(text()): \(why)") }
            throw ActionError("\(text()): \(error)")
        }
    }

    /// Releases every key and button still held and restores every temporary key mapping.
    ///
    /// Called on exit and when the X connection is lost (then nothing can be released from
    /// here: the server keeps XTest keys down after their client is gone, and the daemon's
    /// watcher releases them, ``HeldKeyWatch``).
    public func releaseEverything() {
        typedAhead = nil
        releaseBorrowedKeys()
        let released = releaseHeld()
        if !released.isEmpty {
            logger.notice("released held input", metadata: ["keys": "\(released.keys.map(\.rawValue))", "buttons": "\(released.buttons)"])
        }
        restoreTemporaryMappings(dueBy: nil)
    }

    /// Releases what is held, in reverse press order, and returns what it released.
    @discardableResult
    public func releaseHeld() -> HeldInput {
        let released = held
        guard !released.isEmpty else { return released }
        held = HeldInput()
        guard !display.isConnectionLost else { return released }
        do {
            try display.call("release held input", sync: true) { (display) throws(X11Error) in
                for button in released.buttons.reversed() {
                    XTestFakeButtonEvent(display, UInt32(button), 0, 0)
                }
                for key in released.keys.reversed() {
                    XTestFakeKeyEvent(display, UInt32(key.rawValue), 0, 0)
                }
            }
        } catch {
            logger.error("could not release held input: \(error)")
        }
        return released
    }

    // MARK: - exec children

    /// Reaps the `exec` children that have ended, without waiting; call it on `SIGCHLD`.
    @discardableResult
    public func reapChildren() -> [ChildExit] {
        let exits = launcher.reap()
        // A program that ends well is no news; one that fails is worth a line.
        for exit in exits {
            if exit.termination == .exited(0) { logger.debug("exec: \(exit)") } else { logger.notice("exec: \(exit)") }
        }
        return exits
    }

    /// The pids of `exec` children not yet reaped.
    public var runningChildren: [Int32] { launcher.running.keys.sorted() }

    // MARK: - Helpers

    /// An error for an action that cannot be done as asked (no window manager, no spare
    /// keycode …), as opposed to an X call that failed.
    func refuse(_ why: String) -> X11Error {
        .refused(why, display: display.name)
    }
}
