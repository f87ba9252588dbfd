import BridgeCore
import Logging
import X11Backend

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's held-input watcher (``HeldKeyWatch``, ``HeldInputWatcher``): this same binary,
/// started by the daemon as `gesture-bridge --held-input-watcher DISPLAY PID` with a pipe as its
/// standard input and the page of what is held as its descriptor 3. Not a command for people,
/// so not one of argument-parser's: it is recognised before the command line is parsed and
/// appears in no help, manual or completion.
enum HeldInputWatch {
    /// The word that starts the watcher.
    static let flag = "--held-input-watcher"

    /// The watcher's command line for the daemon of this process on `display`: the binary this
    /// daemon runs, by its path (so `ps` names it gesture-bridge), or `/proc/self/exe` when a
    /// package upgrade removed that file since the daemon started.
    static func command(display: String) -> [String] {
        [executable, flag, display, String(getpid())]
    }

    /// The binary this process runs, by its path, or `/proc/self/exe` when that file is gone.
    static var executable: String {
        ShapesCommand.executablePath().flatMap { $0.hasSuffix(" (deleted)") ? nil : $0 } ?? "/proc/self/exe"
    }

    /// Runs the watcher and exits, when `arguments` (the whole command line) start it.
    static func runIfAsked(_ arguments: [String]) {
        guard arguments.count == 4, arguments[1] == flag, let daemon = Int32(arguments[3]) else { return }
        LoggingSystem.bootstrap { label in StreamLogHandler.standardError(label: label) }
        let logger = Logger(label: "gesture-bridge")
        exit(HeldInputWatcher.run(display: arguments[2], daemon: daemon, logger: logger))
    }

    /// Starts the watcher for a daemon that takes input on `session`, or says why it cannot.
    static func start(for session: X11Session, logger: Logger) {
        do {
            session.watchHeldInput(try HeldKeyWatch(command: command(display: session.name)))
        } catch {
            logger.warning("cannot start the held-input watcher (\(error)): keys held when gesture-bridge is killed or crashes stay down")
        }
    }
}
