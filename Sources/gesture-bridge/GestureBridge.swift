import ArgumentParser
import BridgeApp
import BridgeCore
import Logging
import X11Backend

#if canImport(Glibc)
import Glibc
#endif

/// The `gesture-bridge` command: the daemon when run without a subcommand.
@main
struct GestureBridge: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-bridge",
        abstract: "Touchscreen, touchpad and mouse gestures for X11 desktops.",
        discussion: """
            Without a subcommand, runs in the foreground of an X session: captures input through \
            XInput2, recognizes the gestures bound in the config and performs their actions. \
            --dry-run shows live what it recognizes and would do, without doing it (with --json: as \
            JSON Lines). SIGHUP or a \
            change of the config file reloads it; SIGINT and SIGTERM stop it cleanly.

            Config: --config FILE, else $XDG_CONFIG_HOME/gesture-bridge/config.toml \
            (~/.config/...), else each $XDG_CONFIG_DIRS entry (/etc/xdg) + \
            /gesture-bridge/config.toml, else the embedded default (see print-config).

            Exit codes: 0 success, 1 runtime failure, 2 invalid config or trace, 64 usage error.
            """,
        version: "0.1.0",
        subcommands: [
            CheckConfigCommand.self, ReplayCommand.self, RecordCommand.self, ListDevicesCommand.self,
            PrintConfigCommand.self, DoctorCommand.self, LearnCommand.self, ShapesCommand.self,
        ]
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup var dryRunFlag: DryRunFlag
    @OptionGroup var jsonFlag: JSONFlag
    @OptionGroup var verboseFlag: VerboseFlag

    static func main() {
        // Before anything opens a descriptor: started with stdin, stdout or stderr closed, the
        // X connection would take its number, and log lines would go into the X protocol.
        guard StandardStream.openMissingStandardDescriptors() else { Glibc.exit(Exit.runtimeFailure.rawValue) }
        // A closed stdout pipe must end output quietly, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        HeldInputWatch.runIfAsked(CommandLine.arguments)
        OSDGlyphRender.runIfAsked(CommandLine.arguments)
        if let error = unknownSubcommand(in: CommandLine.arguments.dropFirst()) { Self.exit(withError: error) }
        Self.main(nil)
    }

    func run() throws {
        // Here, not in validate(): argument-parser validates this command for its subcommands too.
        if global.json && !global.dryRun {
            throw ValidationError("--json needs --dry-run: the daemon logs to standard error; --dry-run --json prints gesture phases as JSON Lines")
        }
        let logger = global.bootstrapLogging()
        let config = try global.loadConfig()
        if global.dryRun {
            let format: ReportPrinter.Format = global.json ? .json : .human
            try global.runDaemon(.dryRun, config: config, logger: logger) { session, daemon in
                [ReportPrinter(format: format, config: { [unowned daemon] in daemon.config }), feedbackObserver(session, daemon, logger: logger)]
            }
        } else {
            try global.runDaemon(.live, config: config, logger: logger) { session, daemon in
                [LiveLogObserver(logger: logger, failures: session.performer?.failures, config: { [unowned daemon] in daemon.config }),
                 feedbackObserver(session, daemon, logger: logger)]
            }
        }
    }
}

/// `gesture-bridge record [FILE]`: writes live X input as a trace until interrupted.
struct RecordCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Write the live X input as a trace (JSON Lines) until interrupted.",
        discussion: "Observes only: nothing is grabbed or taken from applications. Without FILE, writes to standard output."
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup(visibility: .hidden) var jsonFlag: JSONFlag
    @OptionGroup var verboseFlag: VerboseFlag

    @Argument(help: ArgumentHelp("Where to write the trace.", valueName: "FILE"), completion: .file())
    var file: String?

    func validate() throws {
        try global.refuse(for: "record", [
            (.dryRun, "record never injects or takes anything"), (.json, "a trace is always JSON Lines"),
        ])
    }

    func run() throws {
        let logger = global.bootstrapLogging()
        let config = try global.loadConfig()
        let writer: TraceWriter
        if let file {
            do {
                writer = try TraceWriter(path: file)
            } catch {
                complain(error.description)
                throw Exit.runtimeFailure
            }
        } else {
            writer = TraceWriter(fileDescriptor: StandardStream.output)
        }
        try global.runDaemon(.record, config: config, logger: logger) { _, _ in [TraceRecorder(writer, logger: logger)] }
    }
}

/// `gesture-bridge list-devices`: the X input devices and what each is used as.
struct ListDevicesCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-devices",
        abstract: "List the X input devices and what each is used as (touchscreen, touchpad, pointer, ignored).",
        discussion: "--json prints one JSON object per device (id, name, role, reason, use, attachment, enabled, xtest, touch, max_touches, gestures)."
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup var jsonFlag: JSONFlag
    @OptionGroup(visibility: .hidden) var verboseFlag: VerboseFlag

    func validate() throws {
        try global.refuse(for: "list-devices", [
            (.dryRun, "it only lists devices"),
            (.verbose, "every device is listed with the reason for its role"),
        ])
    }

    func run() throws {
        do {
            let display = try X11Display()
            let devices = try display.listDevices().sorted(by: { $0.id < $1.id })
            if global.json {
                for d in devices { print(d.jsonText) }
                return
            }
            print("display \(display.name), XInput \(display.xinputVersion)")
            for d in devices {
                let id = String(d.id).leftPadded(to: 3)
                print("\(id)  \(d.role.rawValue.padded(to: 12))  \(d.name)  (\(d.reason))")
            }
        } catch {
            complain("gesture-bridge: \(error)")
            throw Exit.runtimeFailure
        }
    }
}

extension String {
    func padded(to n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}

extension GlobalOptions {
    /// swift-log to standard error, journald-friendly (no colours, one line per record).
    func bootstrapLogging() -> Logger {
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "gesture-bridge")
        logger.logLevel = level
        return logger
    }
}
