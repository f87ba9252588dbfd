internal import CX11
public import BridgeCore
public import GestureConfig
import GestureEngine
import Glibc
public import Logging

/// What the live process does with recognized gestures.
public enum DaemonMode {
    /// Perform bound actions and take the input that bound gestures win.
    case live
    /// Print each phase and what would fire; inject nothing, take nothing.
    case dryRun(ReportPrinter.Format)
    /// Write the live input as a trace (docs/interface.md, «Trace format»).
    case record(TraceWriter)
    /// `learn NAME`: observe like `record` until one stroke is drawn, write its `[[shape]]`
    /// block with `write`, and end (exit 0).
    case learn(name: String, write: (String) -> Void)
}

/// The running gesture-bridge: X input → pipeline → X actions, on one thread.
///
/// The loop polls the X connection, a signalfd and an inotify descriptor that follows the
/// config (``ConfigFollower``), with the engine's next deadline as the timeout: idle, it sleeps
/// in `poll` and wakes for nothing. SIGHUP, or a change of the config once the writes settle,
/// looks along the config search again and reloads (a bad config is logged with its
/// FILE:LINE:COLUMN and the previous one stays active; a file caught empty or missing in the
/// middle of a save is waited for); SIGINT and SIGTERM release every grab and anything held,
/// then end with exit 0; a lost X connection, or a trace that can no longer be written, ends
/// with exit 1.
public final class Daemon {
    private let mode: DaemonMode
    private let source: ConfigSource
    private let search: ConfigSearch
    private var config: Config
    private let logger: Logger
    private let environment: [String: String]
    /// The first failed write of `record`'s trace: the run ends with it.
    private var recordFailure: TraceError?
    /// The live log's lines for gesture phases (repeats collapsed, why nothing fired).
    private var liveLog = LiveLog()
    /// `learn`: the path being followed, and whether the shape was written.
    private var learner: ShapeLearner? = nil
    private var learned = false
    /// Live: what the pipeline observed in this turn of the loop, not logged yet.
    private var deferredObservations: [PipelineEvent] = []
    /// The observations being logged; swapped with ``deferredObservations`` so that neither
    /// buffer is copied or reallocated from turn to turn.
    private var observationsBeingLogged: [PipelineEvent] = []
    /// Live: the performer, whose failure log the observations feed.
    private var livePerformer: GrabSafePerformer?
    /// When to let go of the pages that start-up, a reload or a session of gestures mapped and
    /// the waiting loop does not use (see ``ResidentPages``); nil: nothing due. Input moves it
    /// on: it comes due only once input has paused, never in the middle of a gesture.
    private var trimDue: ContinuousClock.Instant?
    /// How long after start-up or a reload (with no input since) pages are let go of.
    static let trimDelay = Duration.seconds(3)
    /// How long after the last input pages are let go of. The first gesture after that maps
    /// back the code it runs (minor faults: about 0.5 ms more latency, docs/performance.md),
    /// so only after a pause long enough that gestures in a row all run warm.
    static let idleTrimDelay = Duration.seconds(60)

    /// - Parameters:
    ///   - mode: live, dry run or record.
    ///   - config: the config loaded at start.
    ///   - source: where it came from.
    ///   - search: how it was found, looked along again on every reload.
    ///   - environment: the process environment (`XDG_RUNTIME_DIR`, `NOTIFY_SOCKET`).
    ///   - logger: where the daemon logs.
    public init(
        mode: DaemonMode, config: Config, source: ConfigSource, search: ConfigSearch, environment: [String: String], logger: Logger
    ) {
        self.mode = mode
        self.config = config
        self.source = source
        self.search = search
        self.environment = environment
        self.logger = logger
    }

    /// Runs until a signal or the loss of the X connection; returns the exit code.
    public func run(displayName: String? = nil) -> Int32 {
        let display: X11Display
        do {
            display = try X11Display(name: displayName)
        } catch {
            logger.critical("\(error)")
            return 1
        }
        display.onConnectionLost { [logger] error in logger.critical("\(error)") }

        var lock: InstanceLock? = nil
        if case .live = mode {
            do {
                lock = try InstanceLock(display: display.name, environment: environment)
                if let notice = lock?.notice { logger.warning("\(notice)") }
            } catch {
                logger.critical("\(error)")
                return 1
            }
        }
        // The lock is held for as long as this function runs.
        defer { withExtendedLifetime(lock) {} }

        let capture: X11InputCapture
        var performer: GrabSafePerformer? = nil
        do {
            switch mode {
            case .live:
                capture = try X11InputCapture(
                    display: display, mode: .grab, button: config.pointerButton, needs: CaptureNeeds(config), logger: logger)
                let injector = try X11ActionPerformer(display: display, logger: logger)
                injector.restoreStaleLentKeycodes()
                performer = GrabSafePerformer(injector, capture: capture)
                // Keys go out before the thaw of the press they follow (see `defersClaims`).
                capture.defersClaims = true
            case .dryRun, .record, .learn:
                capture = try X11InputCapture(
                    display: display, mode: .observe, button: config.pointerButton, needs: CaptureNeeds(config), logger: logger)
            }
        } catch {
            logger.critical("\(error)")
            return 1
        }

        let signals: SignalChannel
        do {
            signals = try SignalChannel([SIGINT, SIGTERM, SIGHUP, SIGCHLD])
        } catch {
            logger.critical("\(error)")
            return 1
        }
        let follower = ConfigFollower(search: search, source: source)

        let pipeline = makePipeline(performer: performer, arbiter: capture)
        for event in capture.initialEvents() { feed(event, pipeline) }
        // While the screen is locked gestures perform nothing (live) or say they would not (dry run).
        if isObserver {} else { ScreenLockMonitor.follow(display: display, capture: capture, pipeline: pipeline, logger: logger) }
        if let recordFailure {
            logger.critical("cannot record: \(recordFailure)")
            return 1
        }

        // Once, before ready: bindings that can never fire here, and a config that binds nothing.
        if isObserver {} else {
            let roles = (try? display.listDevices()).map { Set($0.map(\.role)) }
            let session = StartupWarnings.Session(
                display: display.name, roles: roles, xinput: display.xinputVersion, environment: environment,
                monitors: display.gestureMonitors())
            for warning in config.warnings(source: "\(source)") + StartupWarnings.lines(for: config, in: session) {
                logger.warning("\(warning)")
            }
        }

        // First run: no config file on the search path. Said once, at start.
        if case .embedded = source, !isObserver, let path = search.paths.first {
            let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            let looked = search.paths.joined(separator: ", ")
            logger.notice(
                "no config file, so the embedded default config is used; gesture-bridge reads \(path) once it exists (looked for: \(looked)); start your own with: mkdir -p \(directory) && gesture-bridge print-config > \(path)")
        }

        logger.notice(
            "ready on display \(display.name)",
            metadata: [
                "xinput": "\(display.xinputVersion)", "config": "\(source)", "bindings": "\(config.bindings.count)",
                "mode": "\(modeName)", "pointer-button": "\(config.pointerButton)",
            ])
        SystemdNotifier.notify("READY=1", environment: environment)
        if case .learn(let name, _) = mode { startLearning(name) }
        // Start-up's code (argument parsing, the TOML parser, X set-up) stays mapped unless let
        // go of, once no input came for a while (``trimDelay``). Live only: `--dry-run` reads
        // positions from the pointer and cannot afford the slower first gesture after it.
        if case .live = mode { trimDue = .now + Self.trimDelay }

        var code: Int32 = 0
        var fds = [
            pollfd(fd: display.connectionFileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: follower.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        /// Ends a step of the loop: the grab back if an action lifted it, the claim's thaw and
        /// the requests on their way, then the log lines of what the pipeline observed.
        func settle() {
            capture.restoreButtonGrab()
            capture.sendDeferredClaim()
            display.flush()
            logDeferredObservations()
        }
        loop: while true {
            var hadInput = false
            capture.drain { hadInput = true; feed($0, pipeline) }
            if hadInput, case .live = mode { trimDue = .now + Self.idleTrimDelay }
            if learned { break }
            if let recordFailure {
                logger.critical("cannot record: \(recordFailure)")
                code = 1
                break
            }
            settle()
            if display.isConnectionLost { code = 1; break }
            for error in display.takeAsynchronousErrors() { logger.warning("X error: \(error)") }

            // The rest of what a wake-up may bring, after the input: between poll's wake and
            // the injection of a gesture's action, every step is latency.
            if let deadline = pipeline.nextDeadline, let now = capture.now, deadline <= now {
                pipeline.advance(to: now)
            }
            performer?.maintain()
            if let due = trimDue, due <= .now { trimResidentPages() }
            if fds[1].revents & Int16(POLLIN) != 0 {
                for signal in signals.drain() {
                    switch signal {
                    case SIGINT, SIGTERM:
                        logger.notice("stopping on signal \(signal)")
                        break loop
                    case SIGHUP:
                        reload(follower.reloadNow(), follower: follower, pipeline, capture: capture, trigger: .signal)
                    case SIGCHLD:
                        performer?.reapChildren()
                    default:
                        break
                    }
                }
            }
            if fds[2].revents & Int16(POLLIN) != 0 { follower.noteFileEvents(now: .now) }
            if let attempt = follower.dueReload(now: .now) {
                reload(attempt, follower: follower, pipeline, capture: capture, trigger: .fileChange)
            }
            settle()
            // A round trip since the drain (a press given back at its deadline, a key mapping
            // restored, a reload, the grab put back) has read whatever the server had sent into
            // Xlib's queue, where poll cannot see it: a press waiting there while its drag's raw
            // motion is not selected yet would lose the drag. Those events first.
            if display.hasQueuedEvents {
                for i in fds.indices { fds[i].revents = 0 }
                continue
            }

            // Milliseconds until the engine's next timer or the performer's next restore; -1: none.
            let timeout = pipeline.nextDeadline.map(capture.milliseconds(until:))
                .earliest(performer?.nextMaintenance).earliest(follower.timeout(now: .now))
                .earliest(trimDue.map(pollTimeout(until:))) ?? -1
            for i in fds.indices { fds[i].revents = 0 }
            do throws(SystemError) {
                try SystemCall.poll(&fds, timeout: timeout)
            } catch {
                logger.critical("poll failed: \(error.message)")
                code = 1
                break
            }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                // Let Xlib notice and run its IO error path (which marks the connection lost).
                _ = display.pendingEventCount
                if display.isConnectionLost { code = 1; break }
            }
        }

        // Shutdown: give back what is undecided, release grabs and anything held.
        if !display.isConnectionLost {
            pipeline.shutdown(at: capture.now ?? Instant(milliseconds: 0))
            capture.releaseGrabs()
            performer?.releaseEverything()
            try? display.sync()
            logDeferredObservations()
        } else {
            logDeferredObservations()
            logger.critical("lost the connection to X display \(display.name)")
            code = 1
        }
        if case .record(let writer) = mode { writer.close() }
        if case .learn = mode, code == 0, !learned {
            logger.notice("stopped before a stroke was drawn: nothing learned")
            code = 1
        }
        return code
    }

    private var modeName: String {
        switch mode {
        case .live: "live"
        case .dryRun: "dry-run"
        case .record: "record"
        case .learn: "learn"
        }
    }

    /// `record` and `learn` only watch the input: no gestures, no screen lock, no warnings
    /// about bindings.
    private var isObserver: Bool {
        switch mode {
        case .record, .learn: true
        case .live, .dryRun: false
        }
    }

    private func startLearning(_ name: String) {
        let config = self.config
        learner = ShapeLearner(pointerButton: config.pointerButton) { config.engineConfiguration.settings(for: $0).strokeMinPx }
        let pointer = config.pointerButton == 0 ? "" : ", or the pointer with button \(config.pointerButton) held"
        logger.notice("draw the shape \(name) now: one finger on the touchscreen\(pointer) (nothing is taken from applications)")
    }

    /// `learn`: one event for the path; a finished stroke is written and ends the run.
    private func learn(_ event: InputEvent) {
        guard case .learn(let name, let write) = mode, !learned, var learner else { return }
        let outcome = learner.handle(event)
        self.learner = learner
        switch outcome {
        case .learned(let points)?:
            write(ShapeLearner.block(name: name, points: points))
            learned = true
        case .tooSmall(let diagonal, let minimum, let device)?:
            logger.notice(
                "that stroke was \(Int(diagonal.rounded())) px across, smaller than stroke_min_px (\(Int(minimum.rounded())) px for the \(device.rawValue)): draw it larger")
        case .moreThanOneFinger?:
            logger.notice("that was more than one finger: draw the shape with one finger")
        case .cancelled?:
            logger.notice("that touch was cancelled: draw the shape again")
        case nil:
            break
        }
    }

    private func makePipeline(performer: GrabSafePerformer?, arbiter: X11InputCapture) -> Pipeline {
        let pipeline = makeBarePipeline(performer: performer, arbiter: arbiter)
        // --verbose: recognizer transitions, old → event → new.
        pipeline.tracesTransitions = logger.logLevel <= .debug
        return pipeline
    }

    private func makeBarePipeline(performer: GrabSafePerformer?, arbiter: X11InputCapture) -> Pipeline {
        switch mode {
        case .live:
            livePerformer = performer
            // Logged once the loop turn's actions are on their way to the server (see
            // ``logDeferredObservations()``): a log line costs a clock and time-zone read and a
            // write, which would otherwise sit between the gesture and its injection. A failed
            // action is logged at once, after what came before it: the failure log's state
            // (``ActionFailureLog``) must see it before a later success of the same action.
            return Pipeline(config: config, performer: performer, arbiter: arbiter) { [unowned self] event in
                deferredObservations.append(event)
                if case .actionFailed = event { logDeferredObservations() }
            }
        case .dryRun(let format):
            let printer = ReportPrinter(format: format, config: { [unowned self] in self.config })
            return Pipeline(config: config, performer: nil, arbiter: nil, observe: printer.print)
        case .record, .learn:
            return Pipeline(config: config, performer: nil, arbiter: nil) { _ in }
        }
    }

    /// Lets go of the pages start-up or a reload used and the loop does not (``ResidentPages``).
    private func trimResidentPages() {
        trimDue = nil
        let released = ResidentPages.trim()
        logger.debug("let go of \(released) kB of pages the loop does not use")
    }

    /// Logs what the live pipeline observed since the last call, in order.
    private func logDeferredObservations() {
        guard !deferredObservations.isEmpty else { return }
        swap(&deferredObservations, &observationsBeingLogged)
        for event in observationsBeingLogged { logObservation(event) }
        observationsBeingLogged.removeAll(keepingCapacity: true)
    }

    private func logObservation(_ event: PipelineEvent) {
        let logger = self.logger
        let performer = livePerformer
        switch event {
        case .phase(let report, let binding, let release):
            // One line per performed binding, repeats counted at the end; why nothing fired.
            for line in liveLog.lines(for: report, binding: binding, config: config) {
                logger.log(level: line.level == .info ? .info : .debug, "\(line.message)",
                           metadata: line.metadata.isEmpty ? nil : line.metadata.mapValues { .string($0) })
            }
            if let release {
                logger.info("\(report.gesture.rawValue) \(report.phase.rawValue): released \(release)",
                            metadata: ["fingers": "\(report.fingers)", "device": "\(report.device.rawValue)"])
            }
        case .actionFailed(let binding, let action, let error):
            // Once per reason, not at every firing (see ActionFailureLog).
            if let performer {
                performer.failures.failed(action, error, binding: "\(binding.source)")
            } else {
                logger.error("action failed: \(error)", metadata: ["binding": "\(binding.source)"])
            }
        case .skipped(let report, let binding, let lock):
            logger.debug("\(report.gesture.rawValue) \(report.phase.rawValue): skipped \(binding.actionExcerpt), the screen is locked (\(lock))",
                         metadata: ["fingers": "\(report.fingers)", "device": "\(report.device.rawValue)", "binding": "\(binding.source)"])
        case .passedOn(let decision):
            logger.debug("passed on to the application: \(decision.input)")
        case .claimed(let decision):
            logger.debug("claimed: \(decision.input)")
        case .transition(let transition):
            logger.debug("\(transition)")
        case .engineBug(let bug):
            logger.debug("\(bug)")
        case .path:
            break  // for an observer that draws it; the daemon does not ask for paths
        }
    }

    private func feed(_ event: InputEvent, _ pipeline: Pipeline) {
        if case .learn = mode { return learn(event) }
        if case .record(let writer) = mode {
            // After a failed write (a closed pipe, a full disk) nothing more can be recorded.
            guard recordFailure == nil else { return }
            do {
                try writer.write(event)
            } catch {
                if writer.outputFailed {
                    recordFailure = error
                } else {
                    logger.error("\(error)")
                }
            }
            return
        }
        pipeline.handle(event)
    }

    /// Applies what the follower found, or says why not; the previous config stays whole
    /// unless all of the new one could be applied.
    private func reload(
        _ attempt: ConfigFollower.Attempt, follower: ConfigFollower, _ pipeline: Pipeline, capture: X11InputCapture, trigger: ReloadTrigger
    ) {
        let reason = trigger.rawValue
        // What the old config's gestures did is logged with the old config.
        logDeferredObservations()
        // The parser ran again: its pages are let go of once reloads have settled (a storm of
        // SIGHUPs, an editor's saves) and input has paused, not after each one.
        defer { if case .live = mode { trimDue = .now + Self.trimDelay } }
        switch attempt {
        case .postponed(let why):
            logger.notice("config not reloaded yet (\(reason)): \(why)")
        case .invalid(let errors, _):
            // One problem (a file unreadable, garbage, cut short): one line that says it all.
            if errors.errors.count == 1, let e = errors.errors.first {
                logger.error("config not reloaded (\(reason)): \(e); the previous config stays active")
                return
            }
            for e in errors.errors { logger.error("\(e)") }
            logger.error("config not reloaded (\(reason)): the previous config stays active")
        case .loaded(let loaded):
            let fresh = loaded.config
            // A file event that changed nothing (a touch, a save of the same text, a neighbour
            // on the search path): keep what runs, gestures in progress included.
            if trigger == .fileChange, fresh == config, loaded.source == follower.source {
                follower.applied(loaded)
                logger.debug("config unchanged (\(reason))", metadata: ["config": "\(loaded.source)"])
                return
            }
            do throws(X11Error) {
                try capture.setButton(fresh.pointerButton)
            } catch {
                logger.error("config not reloaded (\(reason)): \(error); the previous config stays active")
                return
            }
            capture.apply(CaptureNeeds(fresh))
            pipeline.reload(fresh, at: capture.now ?? Instant(milliseconds: 0))
            config = fresh
            follower.applied(loaded)
            logger.notice("config reloaded (\(reason))", metadata: ["config": "\(loaded.source)", "bindings": "\(fresh.bindings.count)"])
            for warning in fresh.warnings(source: "\(loaded.source)") { logger.warning("\(warning)") }
        }
    }
}

/// What asked for a reload; the raw value is how log lines say it.
private enum ReloadTrigger: String {
    case signal = "SIGHUP"
    case fileChange = "the config file changed"
}

/// The live performer, made safe for the capture: a click of the trigger button is injected
/// with the button grab lifted, so it reaches the application and not the bridge.
///
/// Actions come after the ownership decisions of the same event: the engine claims input
/// before it reports the phase that fires. That order matters on the server: a touch grab that
/// accepts a pointer-emulating touch only after the touch ended leaves the emulated button 1
/// down, so a long press whose right click the user answers by lifting the finger must be
/// accepted before the click happens.
final class GrabSafePerformer: ActionPerformer {
    let inner: X11ActionPerformer
    let capture: X11InputCapture
    /// Logs each failing action once, and when it works again.
    let failures: ActionFailureLog

    init(_ inner: X11ActionPerformer, capture: X11InputCapture) {
        self.inner = inner
        self.capture = capture
        self.failures = ActionFailureLog(logger: inner.logger)
    }

    func perform(_ action: Action, context: ActionContext) throws(ActionError) {
        // Only keys go out before the thaw of the press that claimed (``X11InputCapture/defersClaims``):
        // pointer input would queue behind the freeze, and other actions may wait on the server.
        if case .key = action {} else { capture.sendDeferredClaim() }
        switch action {
        case .click(let button) where button == capture.button:
            try capture.suspendingButtonGrab { () throws(ActionError) in
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

    func releaseEverything() { inner.releaseEverything() }

    func pressHeldKey(_ key: KeyCombo.Key, context: ActionContext) throws(ActionError) {
        try inner.pressHeldKey(key, context: context)
    }

    func releaseHeldKey(_ key: KeyCombo.Key) { inner.releaseHeldKey(key) }

    func reapChildren() { _ = inner.reapChildren() }

    /// Milliseconds until the performer has something to do (a temporary key mapping to
    /// restore, an action's effect to look for), if anything.
    var nextMaintenance: Int32? {
        inner.nextMaintenanceDeadline.map(pollTimeout(until:))
    }

    func maintain() { inner.maintain() }
}

/// Whole milliseconds from now until `instant`, at least 0: a `poll` timeout.
private func pollTimeout(until instant: ContinuousClock.Instant) -> Int32 {
    let ms = (instant - .now) / .milliseconds(1)
    return Int32(max(0, min(ms.rounded(.up), Double(Int32.max))))
}
