import ArgumentParser
import BridgeApp
import BridgeCore
import GestureConfig
import Logging
import X11Backend

extension GlobalOptions {
    /// Runs the daemon for a command and ends with its exit code: the X session made for
    /// `role` (taking input, or observing), the loop, and the observers that `observers` makes
    /// once both exist (they may read the session's failure log and the daemon's config).
    ///
    /// - Parameters:
    ///   - role: what the run is for (live, dry run, record, learn).
    ///   - config: the config loaded at start.
    ///   - logger: where the daemon logs.
    ///   - observers: the command's observers of the run.
    func runDaemon(
        _ role: Daemon.Role, config: Config, logger: Logger, observers: (X11Session, Daemon) -> [any PipelineObserver]
    ) throws {
        let environment = ProcessEnvironment.current
        let session: X11Session
        do {
            session = try X11Session(takingInput: role.takesInput, config: config, environment: environment, logger: logger)
        } catch {
            logger.critical("\(error)")
            throw Exit.runtimeFailure
        }
        if role.takesInput { HeldInputWatch.start(for: session, logger: logger) }
        let daemon = Daemon(
            role, session: session, config: config, source: configSource(), search: configSearch(), environment: environment, logger: logger)
        let code = daemon.run(observers: observers(session, daemon))
        if code != 0 { throw ExitCode(code) }
    }
}

/// The on-screen feedback of a run that recognizes gestures (the daemon, `--dry-run`): a trail
/// and an OSD on an X connection of their own, as the config in force says (docs/config.md,
/// «Feedback»); nothing is shown while the screen is locked.
func feedbackObserver(_ session: X11Session, _ daemon: Daemon, logger: Logger) -> FeedbackObserver {
    FeedbackObserver(
        canvas: X11FeedbackCanvas(displayName: session.name, logger: logger, glyphRenderer: OSDGlyphRender.command), config: { [unowned daemon] in daemon.config },
        isLocked: { [unowned session] in session.capture.screenLock?.lock != nil })
}
