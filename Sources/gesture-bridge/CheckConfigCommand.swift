import ArgumentParser
import GestureConfig

/// `gesture-bridge check-config [FILE]`: validates a config and says what it binds.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a config: exit 0 when valid, else print every problem as FILE:LINE:COLUMN: message.",
        discussion: "Without FILE, checks the config gesture-bridge would use (--config, the search path, or the embedded default)."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The config file to check.", valueName: "FILE"))
    var file: String?

    func run() throws {
        let source = global.configSource(explicit: file)
        let config = try global.loadConfig(explicit: file)
        let n = config.bindings.count
        print("\(source): valid, \(n) binding\(n == 1 ? "" : "s")")
    }
}

/// `gesture-bridge print-config`: prints the embedded default config.
struct PrintConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print-config",
        abstract: "Print the embedded default config (a starting point for ~/.config/gesture-bridge/config.toml)."
    )

    @OptionGroup var global: GlobalOptions

    func run() {
        print(DefaultConfig.text, terminator: DefaultConfig.text.hasSuffix("\n") ? "" : "\n")
    }
}
