public import BridgeCore
public import GestureConfig
public import GestureEngine
public import Logging

/// The X side of a running gesture-bridge, as one object for the app's loop: the display, the
/// capture (the input source, and the arbiter when it takes input) and, when it takes input
/// (the live daemon), the one-instance lock and the performer.
///
/// Taking input, the capture grabs what the bindings need and the performer injects; observing
/// (`--dry-run`, `record`, `learn`) the capture reads raw events only and nothing is taken
/// from applications or injected. The loop itself — poll, signals, reloads, observers — is the
/// app's (`BridgeApp`); this type names what the loop asks of X at each step.
///
/// ```swift
/// let session = try X11Session(takingInput: true, config: config, environment: environment, logger: logger)
/// for event in session.initialEvents() { pipeline.handle(event) }
/// _ = session.capture.read { pipeline.handle($0) }
/// session.endTurn()
/// ```
public final class X11Session {
    /// The connection everything of the session goes through (an overlay would draw on it).
    public let display: X11Display
    /// Where input comes from, and, taking input, where ownership decisions go.
    public let capture: X11InputCapture
    /// Taking input: the performer, made safe for the capture's grab; nil when observing.
    public let performer: GrabSafePerformer?
    /// Taking input: where the pipeline leaves the key the next motion may type at once
    /// (``ArmedKeys``); nil when observing.
    public let keyArming: ArmedKeys?
    /// Taking input: one gesture-bridge per display. Held as long as the session lives.
    private let instanceLock: InstanceLock?
    /// Taking input, once ``watchHeldInput(_:)`` was called: the process that releases what the
    /// performer holds if the daemon ends without doing so itself.
    private var heldInputWatch: HeldKeyWatch?
    /// The performer said it holds something else, or will press keys, since the watcher was
    /// last told what is held (``confirmHeldInput()``): nothing to confirm otherwise, and the
    /// loop confirms at every turn.
    private var heldChangedSinceConfirm = true
    /// Taking input: keeps the touchscreens on `[touchscreen] output`; nil when observing
    /// (`--dry-run` and `record` change nothing in the server).
    private let touchscreenMapper: TouchscreenMapper?
    private let logger: Logger

    /// Why a session could not start (logged as it is, as critical; exit 1).
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens the display and sets up the capture (and, taking input, the lock and the performer).
    ///
    /// - Parameters:
    ///   - displayName: the display; nil for `$DISPLAY`.
    ///   - takingInput: grab, claim and perform (the live daemon); false: observe only.
    ///   - config: the config at start (the trigger button, what the bindings need grabbed).
    ///   - environment: the process environment (`XDG_RUNTIME_DIR` for the lock).
    ///   - logger: where the session logs (a lost connection, X errors, grabs).
    public init(
        displayName: String? = nil, takingInput: Bool, config: Config, environment: [String: String], logger: Logger
    ) throws(StartFailure) {
        self.logger = logger
        do {
            display = try X11Display(name: displayName)
        } catch {
            throw StartFailure(description: "\(error)")
        }
        // A connection given up on a stop (``X11Display/giveUpEveryConnection()``) is said so by
        // whoever gave it up.
        display.onConnectionLost { [logger] error in
            if !X11Display.connectionsGivenUp { logger.critical("\(error)") }
        }

        // Before the capture grabs anything: a second daemon must fail on the lock, not on the
        // grab the first one holds.
        if takingInput {
            do {
                instanceLock = try InstanceLock(display: display.name, environment: environment)
                if let notice = instanceLock?.notice { logger.warning("\(notice)") }
            } catch {
                throw StartFailure(description: "\(error)")
            }
        } else {
            instanceLock = nil
        }

        do {
            capture = try X11InputCapture(
                display: display, mode: takingInput ? .grab : .observe, needs: CaptureNeeds(config), logger: logger)
            if takingInput {
                let injector = try X11ActionPerformer(display: display, logger: logger)
                injector.restoreStaleLentKeycodes()
                performer = GrabSafePerformer(injector, capture: capture)
                keyArming = ArmedKeys(capture: capture, performer: injector)
                // Keys go out before the thaw of the press they follow (see `defersClaims`).
                capture.defersClaims = true
                touchscreenMapper = TouchscreenMapper(display: display, request: config.touchscreenOutput, logger: logger)
                touchscreenMapper?.apply()
                // The bridge's own keys are never a gesture's modifiers.
                capture.ownModifierMask = { [unowned injector] in injector.heldModifierMask }
                // A modifier key put back for the user is let go when the user lets go.
                injector.followKeyReleases = { [unowned capture] in capture.followKeyReleases($0) }
                capture.userKeyReleased = { [unowned injector] in injector.userReleased($0) }
            } else {
                performer = nil
                keyArming = nil
                touchscreenMapper = nil
            }
        } catch {
            throw StartFailure(description: Self.startFailure(error, display: display.name, takingInput: takingInput))
        }
        logGrabConflicts(config)
    }

    /// What to say when the capture or the performer cannot start: the error, or, when another
    /// client already selects the XInput events an observing run needs, who that probably is
    /// and what to do. Only one client may select XInput 2.4's touchpad gesture events on a
    /// window (the server answers `BadAccess`, as for touch events), and an observing run
    /// selects them on the root window: so does every other `--dry-run`, `record` or `learn`.
    static func startFailure(_ error: X11Error, display: String, takingInput: Bool) -> String {
        guard !takingInput, case .request(let request, _) = error, request.code == .badAccess,
              request.operation?.hasPrefix("XISelectEvents") ?? false
        else { return "\(error)" }
        return "cannot watch the input on X display \(display): another client already selects the touchpad gesture "
            + "events this needs (XISelectEvents: BadAccess) — most likely another gesture-bridge --dry-run, record or "
            + "learn on this display; stop it and try again"
    }

    /// The capture grabs, claims and performs (the live daemon), rather than observing.
    public var takesInput: Bool { capture.mode == .grab }

    /// The display's name (`:0`).
    public var name: String { display.name }

    /// The XInput version the server speaks.
    public var xinputVersion: XInputVersion { display.xinputVersion }

    /// The events to feed first: the screen and its monitors, the focused application.
    public func initialEvents() -> [InputEvent] { capture.initialEvents() }

    /// Follows the screen lock for `pipeline`, in order with the input (``ScreenLockMonitor``).
    public func followScreenLock(for pipeline: Pipeline) {
        ScreenLockMonitor.follow(display: display, capture: capture, pipeline: pipeline, logger: logger)
    }

    /// The lines to warn about once at start: bindings that can never fire in this session.
    public func startupWarnings(for config: Config, environment: [String: String]) -> [String] {
        let roles = (try? display.listDevices()).map { Set($0.map(\.role)) }
        let session = StartupWarnings.Session(
            display: display.name, roles: roles, xinput: display.xinputVersion, environment: environment,
            monitors: display.gestureMonitors())
        return StartupWarnings.lines(for: config, in: session)
    }

    // MARK: - The loop's turn

    /// The descriptor the loop polls for X input.
    public var fileDescriptor: Int32 { display.connectionFileDescriptor }

    /// The server's time now, estimated, for timers.
    public var now: Instant? { capture.now }

    /// Milliseconds until `deadline` on the server clock, for `poll`.
    public func milliseconds(until deadline: Instant) -> Int32 { capture.milliseconds(until: deadline) }

    /// Ends a step of the loop: the button grab back if an action lifted it, the claim's thaw,
    /// and the requests on their way to the server; then the watcher learns what is held now.
    public func endTurn() {
        // The touchscreens follow the outputs: after a monitor came or went, a rotation, a mode
        // change, or a new touchscreen.
        if capture.takeLayoutChange() { touchscreenMapper?.apply() }
        performer?.inner.releaseUnfinishedTypeAhead()
        capture.restoreButtonGrab()
        capture.sendDeferredClaim()
        display.flush()
        confirmHeldInput()
    }

    // MARK: - The held-input watcher

    /// Starts telling `watch` what the performer holds (taking input only): each press before
    /// it is sent, each release once flushed (``endTurn()``). If the daemon then ends without
    /// releasing — killed, crashed, or its connection given up — the watcher releases.
    public func watchHeldInput(_ watch: HeldKeyWatch) {
        guard let injector = performer?.inner else { return }
        heldInputWatch = watch
        injector.holdingChanged = { [unowned self, unowned watch] holding in
            heldChangedSinceConfirm = true
            // A keycode is its byte (``KeyCode``): the performer's list is read as it is.
            holding.keys.withUnsafeBufferPointer { keys in
                keys.withMemoryRebound(to: UInt8.self) { watch.willHold(keys: $0, buttons: holding.buttons) }
            }
        }
        injector.willPressKeys = { [unowned self, unowned watch] keys in
            heldChangedSinceConfirm = true
            watch.willHold(keys: keys, buttons: [])
        }
        watch.confirm(HeldCodes(injector.holding))
    }

    /// Tells the watcher what is held, once the requests so far were sent. Not after the
    /// connection was lost or given up: releases queued then never reached the server, and the
    /// watcher must still release what it was told of.
    private func confirmHeldInput() {
        guard heldChangedSinceConfirm, let heldInputWatch, let injector = performer?.inner, !display.isConnectionLost
        else { return }
        heldChangedSinceConfirm = false
        heldInputWatch.confirm(HeldCodes(injector.holding))
    }

    /// The connection to the server is gone.
    public var isLost: Bool { display.isConnectionLost }

    /// Logs the X errors of requests that were not waited for (a claim's, a flush's).
    public func logAsynchronousErrors() {
        for error in display.takeAsynchronousErrors() { logger.warning("X error: \(error)") }
    }

    /// Events already read into Xlib's queue, where `poll` cannot see them: a round trip since
    /// the last drain (a give-back, a reload, the grab put back) reads what the server sent.
    public var hasQueuedInput: Bool { display.hasQueuedEvents }

    /// `poll` saw the connection hang up or fail: lets Xlib notice and run its IO error path
    /// (which marks the connection lost, ``isLost``).
    public func noticeHangUp() { _ = display.pendingEventCount }

    /// What the performer does between gestures (a lent keycode's mapping restored).
    public func maintain() { performer?.maintain() }

    /// When ``maintain()`` is next due, if ever.
    public var nextMaintenance: ContinuousClock.Instant? { performer?.nextMaintenance }

    /// A child process ended (SIGCHLD): the performer reaps the programs it started, and a
    /// watcher that ended is started again.
    public func reapChildren() {
        performer?.reapChildren()
        if let line = heldInputWatch?.reap() { logger.warning("\(line)") }
    }

    /// Takes what a new config needs: the trigger buttons' grabs move, touch and touchpad grabs
    /// follow the bindings. Throws, with nothing changed, when a button that must be grabbed
    /// with any modifiers cannot be; a modifier state another client holds is logged once,
    /// naming the bindings that cannot fire (``logGrabConflicts(_:)``).
    public func apply(_ config: Config) throws(X11Error) {
        let needs = CaptureNeeds(config)
        try capture.setPointerGrabs(needs.pointer)
        capture.apply(needs)
        touchscreenMapper?.configure(config.touchscreenOutput)
        logGrabConflicts(config)
    }

    /// The pointer grabs another client holds, as the last log said them: each is said once.
    private var loggedConflicts: [ButtonGrabConflict] = []

    /// Logs each trigger button's modifier state that another client holds, with the bindings
    /// that cannot fire, once (again only when a reload changes them).
    public func logGrabConflicts(_ config: Config) {
        let conflicts = capture.grabConflicts
        defer { loggedConflicts = conflicts }
        guard conflicts != loggedConflicts else { return }
        for conflict in conflicts { logger.warning("\(conflict.explanation(in: config))") }
    }

    /// Shutdown: gives back what is undecided, releases every grab and anything held, and
    /// waits until the server has done it; then the watcher is told that nothing is held and
    /// let go. When the server does not answer, the stop gives the connection up
    /// (``X11Display/giveUpEveryConnection()``): the watcher, told nothing more, releases what
    /// was held once the server answers again.
    public func shutDown() {
        capture.releaseGrabs()
        performer?.releaseEverything()
        try? display.sync()
        confirmHeldInput()
        heldInputWatch?.close()
    }
}
