import ArgumentParser

/// Options every command accepts, before or after the subcommand's name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Use FILE instead of the config search path.", valueName: "FILE"))
    var config: String?

    @Flag(name: .long, help: "Recognize live and print what would happen; inject nothing, take nothing from applications. (The daemon only.)")
    var dryRun = false

    @Flag(name: .long, help: "Print JSON Lines: gesture phases (with --dry-run, replay), checks (doctor), devices (list-devices).")
    var json = false

    @Flag(name: .long, help: "Log recognizer transitions and X details. (The daemon, record; replay: transitions.)")
    var verbose = false

    /// Refuses, as a usage error (exit 64), each flag given that means nothing for `command`.
    ///
    /// - Parameters:
    ///   - command: the command's name, for the message.
    ///   - meaningless: the flags it refuses, each with why it means nothing there.
    func refuse(for command: String, _ meaningless: [(flag: GlobalFlag, why: String)]) throws {
        for (flag, why) in meaningless where isSet(flag) {
            throw ValidationError("\(flag.rawValue) means nothing for \(command): \(why)")
        }
    }

    /// The flags every command accepts.
    enum GlobalFlag: String {
        case dryRun = "--dry-run", json = "--json", verbose = "--verbose"
    }

    private func isSet(_ flag: GlobalFlag) -> Bool {
        switch flag {
        case .dryRun: dryRun
        case .json: json
        case .verbose: verbose
        }
    }
}
