import ArgumentParser

/// Options every command accepts, before or after the subcommand's name.
///
/// Each is its own option group so that a command can show in its `--help` only the flags that
/// mean something for it: the others are declared hidden (still accepted, so that a flag before
/// the subcommand's name parses the same everywhere) and refused when given (``refuse(for:_:)``).
struct GlobalOptions {
    var config: String?
    var dryRun = false
    var json = false
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

/// `--config FILE`.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Use FILE instead of the config search path.", valueName: "FILE"), completion: .file(extensions: ["toml"]))
    var config: String?
}

/// `--dry-run`.
struct DryRunFlag: ParsableArguments {
    @Flag(name: .long, help: "Recognize live and print what would happen; inject nothing, take nothing from applications.")
    var dryRun = false
}

/// `--json`.
struct JSONFlag: ParsableArguments {
    @Flag(name: .long, help: "Print JSON Lines instead of text.")
    var json = false
}

/// `--verbose`.
struct VerboseFlag: ParsableArguments {
    @Flag(name: .long, help: "Log more: recognizer transitions and X details.")
    var verbose = false
}

/// A command that takes the global options: it declares the four groups (hidden where the flag
/// means nothing for it) and reads them as one ``GlobalOptions``.
protocol GlobalOptionsCommand {
    var configOption: ConfigOption { get }
    var dryRunFlag: DryRunFlag { get }
    var jsonFlag: JSONFlag { get }
    var verboseFlag: VerboseFlag { get }
}

extension GlobalOptionsCommand {
    /// The global options as given.
    var global: GlobalOptions {
        GlobalOptions(config: configOption.config, dryRun: dryRunFlag.dryRun, json: jsonFlag.json, verbose: verboseFlag.verbose)
    }
}
