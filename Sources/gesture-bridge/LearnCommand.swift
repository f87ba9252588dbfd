import ArgumentParser
import BridgeApp
import BridgeCore

/// `gesture-bridge learn NAME`: records the next stroke drawn live and prints it as a
/// `[[shape]]` block (docs/interface.md, «Command line» and «Strokes»).
struct LearnCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Record the next stroke drawn live and print it as a [[shape]] block for the config.",
        discussion: """
            Draw with one finger on the touchscreen, or with the pointer while the trigger button ([pointer] \
            button) is held. Observes only, as --dry-run does: nothing is grabbed or taken from applications \
            (a right-button drag still reaches the window under it). A stroke smaller than stroke_min_px is \
            refused with a message and the next one is awaited. Prints the block and exits 0; interrupted \
            before a stroke, exits 1. NAME may be a built-in shape's name: the learned shape then replaces it.
            """
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup(visibility: .hidden) var jsonFlag: JSONFlag
    @OptionGroup var verboseFlag: VerboseFlag

    @Argument(help: ArgumentHelp("The shape's name, as stroke bindings will name it (shape = \"NAME\").", valueName: "NAME"))
    var name: String

    func validate() throws {
        try global.refuse(for: "learn", [
            (.dryRun, "learn never injects or takes anything"), (.json, "it prints a TOML [[shape]] block"),
        ])
        if let problem = ShapeLearner.problem(with: name) { throw ValidationError(problem) }
    }

    func run() throws {
        let logger = global.bootstrapLogging()
        let config = try global.loadConfig()
        let learning = ShapeLearnerObserver(name: name, config: config, logger: logger) {
            StandardStream.writeLine($0, to: StandardStream.output)
        }
        try global.runDaemon(.learn, config: config, logger: logger) { _, _ in [learning] }
    }
}
