import ArgumentParser

/// Options every command accepts, before or after the subcommand's name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Use FILE instead of the config search path.", valueName: "FILE"))
    var config: String?

    @Flag(name: .long, help: "Recognize live and print what would happen; inject nothing, take nothing from applications.")
    var dryRun = false

    @Flag(name: .long, help: "Print gesture phases as JSON Lines.")
    var json = false

    @Flag(name: .long, help: "Log recognizer transitions and X details.")
    var verbose = false
}
