import ArgumentParser
import BridgeApp
import BridgeCore

/// `gesture-bridge learn NAME [--samples N]`: records the next `N` strokes drawn live, asks
/// again for one too unlike the others, and prints them as one `[[shape]]` block with a
/// template per drawing (docs/interface.md, «Command line»; docs/config.md, «`gesture-bridge
/// learn NAME`»).
struct LearnCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Record strokes drawn live (3 by default) and print them as a [[shape]] block for the config.",
        discussion: """
            Draw the shape --samples times with one finger on the touchscreen, or with the pointer while the \
            trigger button ([pointer] button) is held. Observes only, as --dry-run does: nothing is grabbed or \
            taken from applications (a right-button drag still reaches the window under it). A stroke smaller \
            than stroke_min_px (or stroke_min_mm) is refused with a message and the next one is awaited. Each \
            drawing is scored against the others as the recognizer would score it; one that scores below \
            stroke_min_score is asked for again, saying which and why. Then it says how alike the drawings \
            are, prints the block (one template per drawing) and exits 0; interrupted before, exits 1. NAME \
            may be a built-in shape's name: the learned shape then replaces it.
            """
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup(visibility: .hidden) var jsonFlag: JSONFlag
    @OptionGroup var verboseFlag: VerboseFlag

    @Argument(help: ArgumentHelp("The shape's name, as stroke bindings will name it (shape = \"NAME\").", valueName: "NAME"))
    var name: String

    @Option(help: ArgumentHelp(
        "How many times to draw the shape (1 to 16): each drawing becomes one of its templates.", valueName: "N"))
    var samples: Int = 3

    func validate() throws {
        try global.refuse(for: "learn", [
            (.dryRun, "learn never injects or takes anything"), (.json, "it prints a TOML [[shape]] block"),
        ])
        if let problem = ShapeLearner.problem(with: name) { throw ValidationError(problem) }
        guard (1...ShapeSamples.maximumCount).contains(samples) else {
            throw ValidationError("--samples must be 1 to \(ShapeSamples.maximumCount) (a [[shape]] has at most 16 templates), not \(samples)")
        }
    }

    func run() throws {
        let logger = global.bootstrapLogging()
        let config = try global.loadConfig()
        let learning = ShapeLearnerObserver(name: name, samples: samples, config: config, logger: logger) {
            StandardStream.writeLine($0, to: StandardStream.output)
        }
        try global.runDaemon(.learn, config: config, logger: logger) { _, _ in [learning] }
    }
}
