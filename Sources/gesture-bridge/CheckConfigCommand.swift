import ArgumentParser
import GestureConfig

/// `gesture-bridge check-config [FILE]`: validates a config and says what it binds.
struct CheckConfigCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a config: exit 0 when valid, else print every problem as FILE:LINE:COLUMN: message.",
        discussion: "Without FILE, checks the config gesture-bridge would use (--config, the search path, or the embedded default)."
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup(visibility: .hidden) var jsonFlag: JSONFlag
    @OptionGroup(visibility: .hidden) var verboseFlag: VerboseFlag

    @Argument(help: ArgumentHelp("The config file to check.", valueName: "FILE"), completion: .file(extensions: ["toml"]))
    var file: String?

    func validate() throws {
        try global.refuse(for: "check-config", [
            (.dryRun, "it only reads the config"), (.json, "its output is the problems, FILE:LINE:COLUMN: message"),
            (.verbose, "it always prints every problem"),
        ])
        if let file, let config = global.config, file != config {
            throw ValidationError("check-config was given two configs, \(file) and --config \(config): give one")
        }
    }

    func run() throws {
        let source = global.configSource(explicit: file)
        let config = try global.loadConfig(explicit: file)
        let n = config.bindings.count
        let shapes = config.shapes.count
        let shapesText = shapes == 0 ? "" : ", \(shapes) shape\(shapes == 1 ? "" : "s")"
        print("\(source): valid, \(n) binding\(n == 1 ? "" : "s")\(shapesText)")
        for warning in config.warnings(source: "\(source)") { complain("warning: \(warning)") }
    }
}

/// `gesture-bridge print-config`: prints the embedded default config.
struct PrintConfigCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "print-config",
        abstract: "Print the embedded default config (a starting point for ~/.config/gesture-bridge/config.toml).",
        discussion: "With --config FILE, prints FILE once it is checked (exit 2 and FILE:LINE:COLUMN when it is not valid)."
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup(visibility: .hidden) var jsonFlag: JSONFlag
    @OptionGroup(visibility: .hidden) var verboseFlag: VerboseFlag

    func validate() throws {
        try global.refuse(for: "print-config", [
            (.dryRun, "it only prints a config"), (.json, "a config is TOML"), (.verbose, "it prints the whole config"),
        ])
    }

    func run() throws {
        var text = DefaultConfig.text
        // With --config, that file (checked first, as every command checks it).
        if let path = global.config {
            _ = try global.loadConfig()
            do {
                text = try Config.text(contentsOf: path)
            } catch {
                complain(error.description)
                throw Exit.invalidInput
            }
        }
        print(text, terminator: text.hasSuffix("\n") || text.isEmpty ? "" : "\n")
    }
}
