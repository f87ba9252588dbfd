import ArgumentParser
import GestureConfig
import X11Backend

/// `gesture-bridge doctor`: checks what the bridge needs in this session, one line each.
struct DoctorCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what the bridge needs in this session, one line each (ok, warn, fail); exit 0 when it can run, else 1.",
        discussion: """
            Checks DISPLAY, XInput (2.2 for touch, 2.4 for touchpad gestures), XTEST, the input \
            devices and the role each gets, whether the button, touch and touchpad grabs can be \
            taken (each for a moment, then released), the window manager, its EWMH support of the \
            actions the config uses and its desktops, the RandR monitors, the screen lock, the \
            config (which file, and every problem as FILE:LINE:COLUMN) and whether a gesture-bridge \
            already runs on the display. Every warn and fail line says what to do. --json prints \
            one JSON object per check.
            """
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup var jsonFlag: JSONFlag
    @OptionGroup(visibility: .hidden) var verboseFlag: VerboseFlag

    func validate() throws {
        try global.refuse(for: "doctor", [
            (.dryRun, "it never injects or takes anything"), (.verbose, "every check prints all it found"),
        ])
    }

    func run() throws {
        let source = global.configSource()
        let search = global.configSearch()
        let result: Result<Config, ConfigErrors>
        do {
            result = .success(try Config.load(from: source))
        } catch {
            result = .failure(error)
        }
        let finding = Doctor.ConfigFinding(source: source, searchPaths: search.paths, result: result)
        let checks = Doctor(config: finding, environment: ProcessEnvironment.current).run()
        for check in checks { print(global.json ? check.jsonText : check.humanText) }
        if !global.json {
            let warnings = checks.count { $0.status == .warn }, failures = checks.count { $0.status == .fail }
            let counted = [failures > 0 ? "\(failures) failed" : nil, warnings > 0 ? "\(warnings) to look at" : nil].compactMap { $0 }
            let tail = counted.isEmpty ? "" : " (\(counted.joined(separator: ", ")))"
            print(Doctor.canRun(checks) ? "gesture-bridge can run here\(tail)" : "gesture-bridge cannot run here\(tail)")
        }
        if !Doctor.canRun(checks) { throw Exit.runtimeFailure }
    }
}
