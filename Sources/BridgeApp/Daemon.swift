public import BridgeCore
public import GestureConfig
import GestureEngine
import Glibc
public import Logging
public import X11Backend

/// The running gesture-bridge: X input → observers and pipeline → X actions, on one thread.
///
/// The loop polls the X connection, a signalfd and an inotify descriptor that follows the
/// config (``ConfigFollower``), with the engine's next deadline as the timeout: idle, it sleeps
/// in `poll` and wakes for nothing. SIGHUP, or a change of the config once the writes settle,
/// looks along the config search again and reloads (a bad config is logged with its
/// FILE:LINE:COLUMN and the previous one stays active; a file caught empty or missing in the
/// middle of a save is waited for); SIGINT and SIGTERM (and SIGUSR1, SIGUSR2, SIGALRM:
/// ``stopSignals``) release every grab and anything held, then end with exit 0 — within 2 s,
/// giving the X connection up when the server does not answer (``StopDeadline``); a lost X
/// connection, or an observer that cannot go on (``RunOutcome``), ends with exit 1. What a
/// daemon killed or crashed held is released by its watcher (``HeldKeyWatch``).
///
/// What a command does with the input is not a mode of the loop but its parts: the
/// ``X11Session`` takes input or observes, the ``Role`` says whether gestures are recognized,
/// and the ``PipelineObserver``s (the live log, the report printer, the trace recorder, the
/// shape learner) do the rest.
///
/// ```swift
/// let session = try X11Session(takingInput: Daemon.Role.live.takesInput, config: config, environment: environment, logger: logger)
/// let daemon = Daemon(.live, session: session, config: config, source: source, search: search,
///                     environment: environment, logger: logger)
/// exit(daemon.run(observers: [LiveLogObserver(logger: logger, failures: session.performer?.failures,
///                                             config: { daemon.config })]))
/// ```
public final class Daemon {
    /// What a run is for, beyond its observers.
    public struct Role: Sendable {
        /// How the `ready` line names it (`mode=`).
        public var name: String
        /// Input is taken and actions performed: the session grabs and claims (see
        /// ``X11Session/init(displayName:takingInput:config:environment:logger:)``), and
        /// pages are let go of when idle. Otherwise input is only observed: nothing is taken
        /// from applications or injected.
        public var takesInput: Bool
        /// Gestures are recognized (a pipeline, the screen lock, start-up warnings about
        /// bindings); `record` and `learn` only watch the input.
        public var recognizes: Bool

        public init(name: String, takesInput: Bool, recognizes: Bool) {
            self.name = name
            self.takesInput = takesInput
            self.recognizes = recognizes
        }

        /// The daemon: takes input, recognizes and performs.
        public static let live = Role(name: "live", takesInput: true, recognizes: true)
        /// `--dry-run`: observes and recognizes; its observer prints what would happen.
        public static let dryRun = Role(name: "dry-run", takesInput: false, recognizes: true)
        /// `record`: observes the input for its trace.
        public static let record = Role(name: "record", takesInput: false, recognizes: false)
        /// `learn`: observes the input for a stroke.
        public static let learn = Role(name: "learn", takesInput: false, recognizes: false)
    }

    private let role: Role
    private let session: X11Session
    private let source: ConfigSource
    private let search: ConfigSearch
    /// The config in force (observers read it through a closure).
    public private(set) var config: Config
    private let logger: Logger
    private let environment: [String: String]
    /// When to let go of the pages that start-up, a reload or a session of gestures mapped and
    /// the waiting loop does not use (see ``ResidentPages``); nil: nothing due. Input moves it
    /// on: it comes due only once input has paused, never in the middle of a gesture.
    private var trimDue: ContinuousClock.Instant?
    /// How long after start-up (with no input since) its pages are let go of: well within the
    /// first second, so that from then on the idle daemon does not wake at all (it was 3 s: a
    /// tick of CPU and a wake-up in the middle of the idle daemon's first seconds, more on a
    /// busy machine; docs/performance.md).
    static let startupTrimDelay = Duration.milliseconds(500)
    /// How long after a reload (with no input since) pages are let go of: reloads come in
    /// storms (an editor's saves, SIGHUPs in a row), and the parser runs for each.
    static let trimDelay = Duration.seconds(3)
    /// How long after the last input pages are let go of. The first gesture after that maps
    /// back the code it runs (minor faults: about 0.5 ms more latency, docs/performance.md),
    /// so only after a pause long enough that gestures in a row all run warm.
    static let idleTrimDelay = Duration.seconds(60)

    /// - Parameters:
    ///   - role: what the run is for.
    ///   - session: the X side, made for the role: taking input (live) or observing.
    ///   - config: the config loaded at start.
    ///   - source: where it came from.
    ///   - search: how it was found, looked along again on every reload.
    ///   - environment: the process environment (`XDG_SESSION_TYPE`, `NOTIFY_SOCKET`).
    ///   - logger: where the daemon logs.
    public init(
        _ role: Role, session: X11Session, config: Config, source: ConfigSource, search: ConfigSearch,
        environment: [String: String], logger: Logger
    ) {
        precondition(session.takesInput == role.takesInput, "a \(role.name) run needs a session that \(role.takesInput ? "takes" : "observes") input")
        self.role = role
        self.session = session
        self.config = config
        self.source = source
        self.search = search
        self.environment = environment
        self.logger = logger
    }

    /// The signals that stop the daemon in order, letting go of grabs and of what it holds:
    /// SIGINT and SIGTERM, and the ones whose default action would end it without letting go
    /// (SIGUSR1, SIGUSR2, SIGALRM; nothing of gesture-bridge sends them). A crash or SIGKILL
    /// leaves that to the watcher (``HeldKeyWatch``).
    static let stopSignals = [SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM]

    /// Whether the run lets go of pages when idle: live only. `--dry-run` reads positions from
    /// the pointer and cannot afford the slower first gesture after it.
    private var trims: Bool { role.takesInput }

    /// Runs until a signal, the loss of the X connection or an observer's outcome; returns the
    /// exit code.
    public func run(observers: [any PipelineObserver]) -> Int32 {
        let signals: SignalChannel
        let deadline: StopDeadline
        do {
            signals = try SignalChannel(Self.stopSignals + [SIGHUP, SIGCHLD])
            deadline = try StopDeadline(
                signals: signals.fileDescriptor, stopSignals: Self.stopSignals,
                giveUp: { [logger, name = session.name, takesInput = role.takesInput] in
                    let rest = takesInput ? "; the server lets go of the grabs when it answers again, and the watcher releases the keys held" : ""
                    logger.error("X display \(name) did not answer within \(StopDeadline.giveUpAfter) of the stop: gave up the connection\(rest)")
                    X11Display.giveUpEveryConnection()
                },
                exit: { [logger] in
                    logger.error("still stopping after \(StopDeadline.exitAfter): exiting now")
                    _exit(0)
                })
        } catch {
            logger.critical("\(error)")
            return 1
        }
        // The signalfd stays open for as long as the deadline's thread may poll it.
        defer { withExtendedLifetime(signals) { deadline.finished() } }
        let follower = ConfigFollower(search: search, source: source)
        for warning in follower.newWatchWarnings() { logger.warning("\(warning)") }

        let run: PipelineRun
        if role.recognizes {
            // --verbose: recognizer transitions, old → event → new.
            run = PipelineRun(
                recognizing: config, performer: session.performer, arbiter: role.takesInput ? session.capture : nil,
                observers: observers, tracesTransitions: logger.logLevel <= .debug)
        } else {
            run = PipelineRun(watching: observers)
        }
        // Live: a key bound to a swipe is typed as the motion that completes it is read.
        run.pipeline?.keyArming = session.keyArming
        for event in session.initialEvents() { run.feed(event) }
        // While the screen is locked gestures perform nothing (live) or say they would not (dry run).
        if let pipeline = run.pipeline { session.followScreenLock(for: pipeline) }
        if case .failed(let message)? = run.outcome {
            logger.critical("\(message)")
            return 1
        }

        if role.recognizes {
            // Once, before ready: bindings that can never fire here, and a config that binds nothing.
            for warning in config.warnings(source: "\(source)") + session.startupWarnings(for: config, environment: environment) {
                logger.warning("\(warning)")
            }
            // First run: no config file on the search path. Said once, at start.
            if case .embedded = source, let path = search.paths.first {
                let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
                let looked = search.paths.joined(separator: ", ")
                logger.notice(
                    "no config file, so the embedded default config is used; gesture-bridge reads \(path) once it exists (looked for: \(looked)); start your own with: mkdir -p \(directory) && gesture-bridge print-config > \(path)")
            }
        }

        logger.notice(
            "ready on display \(session.name)",
            metadata: [
                "xinput": "\(session.xinputVersion)", "config": "\(source)", "bindings": "\(config.bindings.count)",
                "mode": "\(role.name)", "pointer-button": "\(config.pointerButton)",
            ])
        SystemdNotifier.notify("READY=1", environment: environment)
        run.started()
        // Start-up's code (argument parsing, the TOML parser, X set-up) stays mapped unless let
        // go of, once no input came for a moment (``startupTrimDelay``).
        if trims { trimDue = .now + Self.startupTrimDelay }

        var code = loop(run, signals: signals, follower: follower)

        // Shutdown: give back what is undecided, release grabs and anything held — unless the
        // server does not answer within the deadline.
        deadline.stopping()
        SystemdNotifier.notify("STOPPING=1", environment: environment)
        if !session.isLost {
            run.pipeline?.shutdown(at: session.now ?? Instant(milliseconds: 0))
            session.shutDown()
            run.turnEnded()
        } else if X11Display.connectionsGivenUp {
            // A stop signal came while the loop waited for the server: the stop is honoured.
            run.turnEnded()
            code = 0
        } else {
            run.turnEnded()
            logger.critical("lost the connection to X display \(session.name)")
            code = 1
        }
        return run.ending(exitCode: code)
    }

    /// The loop: returns the exit code so far (0 on a signal or an observer done; 1 on a lost
    /// connection, a failed poll or an observer that cannot go on).
    private func loop(_ run: PipelineRun, signals: SignalChannel, follower: ConfigFollower) -> Int32 {
        let input = session.capture
        var fds = [
            pollfd(fd: session.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: follower.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        /// Ends a step of the loop: the X requests on their way, then what the observers held
        /// back until they were (the live log's lines).
        func settle() {
            session.endTurn()
            run.turnEnded()
        }
        // SIGHUP came and its reload is waiting (see below).
        var reloadAsked = false
        while true {
            var hadInput = false
            _ = input.read { event in
                hadInput = true
                run.feed(event)
            }
            if hadInput, trims { trimDue = .now + Self.idleTrimDelay }
            switch run.outcome {
            case .done?:
                return 0
            case .failed(let message)?:
                logger.critical("\(message)")
                return 1
            case nil:
                break
            }
            settle()
            if session.isLost { return 1 }
            session.logAsynchronousErrors()

            // The rest of what a wake-up may bring, after the input: between poll's wake and
            // the injection of a gesture's action, every step is latency.
            if let deadline = run.nextDeadline, let now = session.now, deadline <= now {
                run.advance(to: now)
            }
            session.maintain()
            if let due = trimDue, due <= .now { trimResidentPages() }
            if fds[1].revents & Int16(POLLIN) != 0 {
                for signal in signals.drain() {
                    switch signal {
                    case let stop where Self.stopSignals.contains(stop):
                        logger.notice("stopping on signal \(signal)")
                        return 0
                    case SIGHUP:
                        reloadAsked = true
                    case SIGCHLD:
                        session.reapChildren()
                    default:
                        break
                    }
                }
            }
            if fds[2].revents & Int16(POLLIN) != 0 {
                follower.noteFileEvents(now: .now)
                for warning in follower.newWatchWarnings() { logger.warning("\(warning)") }
            }
            // A reload waits while a press holds the pointer frozen for every client: the press
            // is decided within its deadline, and a large config's load would be time the
            // pointer stands still. The press's end wakes the loop, which comes back here.
            if !input.freezesPointer {
                if reloadAsked {
                    reloadAsked = false
                    reload(follower.reloadNow(), follower: follower, run, trigger: .signal)
                } else if let attempt = follower.dueReload(now: .now) {
                    reload(attempt, follower: follower, run, trigger: .fileChange)
                }
            }
            settle()
            // A round trip since the drain (a press given back at its deadline, a key mapping
            // restored, a reload, the grab put back) has read whatever the server had sent into
            // Xlib's queue, where poll cannot see it: a press waiting there while its drag's raw
            // motion is not selected yet would lose the drag. Those events first.
            if session.hasQueuedInput {
                for i in fds.indices { fds[i].revents = 0 }
                continue
            }

            // Milliseconds until the engine's next timer, the performer's next restore or an
            // observer's next frame; -1: none.
            let timeout = run.nextDeadline.map(session.milliseconds(until:))
                .earliest(session.nextMaintenance.map(pollTimeout(until:)))
                .earliest(input.freezesPointer ? nil : follower.timeout(now: .now))
                .earliest(trimDue.map(pollTimeout(until:))).earliest(run.observersDeadline.map(pollTimeout(until:))) ?? -1
            for i in fds.indices { fds[i].revents = 0 }
            do throws(SystemError) {
                try SystemCall.poll(&fds, timeout: timeout)
            } catch {
                logger.critical("poll failed: \(error.message)")
                return 1
            }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                session.noticeHangUp()
                if session.isLost { return 1 }
            }
        }
    }

    /// Lets go of the pages start-up or a reload used and the loop does not (``ResidentPages``).
    private func trimResidentPages() {
        trimDue = nil
        let released = ResidentPages.trim()
        logger.debug("let go of \(released) kB of pages the loop does not use")
    }

    /// Applies what the follower found, or says why not; the previous config stays whole
    /// unless all of the new one could be applied.
    private func reload(_ attempt: ConfigFollower.Attempt, follower: ConfigFollower, _ run: PipelineRun, trigger: ReloadTrigger) {
        let reason = trigger.rawValue
        // systemd shows the service reloading until it is ready again, whatever came of it.
        SystemdNotifier.notify(SystemdNotifier.reloading(), environment: environment)
        defer { SystemdNotifier.notify("READY=1", environment: environment) }
        // What the old config's gestures did is logged with the old config.
        run.turnEnded()
        // The parser ran again: its pages are let go of once reloads have settled (a storm of
        // SIGHUPs, an editor's saves) and input has paused, not after each one.
        defer { if trims { trimDue = .now + Self.trimDelay } }
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
                try session.apply(fresh)
            } catch {
                logger.error("config not reloaded (\(reason)): \(error); the previous config stays active")
                return
            }
            run.pipeline?.reload(fresh, at: session.now ?? Instant(milliseconds: 0))
            config = fresh
            run.refreshPathTracing()
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

/// Whole milliseconds from now until `instant`, at least 0: a `poll` timeout.
private func pollTimeout(until instant: ContinuousClock.Instant) -> Int32 {
    let ms = (instant - .now) / .milliseconds(1)
    return Int32(max(0, min(ms.rounded(.up), Double(Int32.max))))
}
