import ArgumentParser
import GestureConfig

extension GestureBridge {
    /// A usage error for a first word that is no subcommand but close to one (`check` for
    /// `check-config`, `replya` for `replay`), naming the one meant, as swift-argument-parser
    /// does for a mistyped option (`--dryrun`); `nil` otherwise, and argument-parser reports the
    /// arguments as it does.
    ///
    /// The command itself takes no positional argument, so its first word that is neither an
    /// option nor the value of `--config` can only be meant as a subcommand.
    ///
    /// ```swift
    /// GestureBridge.unknownSubcommand(in: ["check", "my.toml"])
    /// // Unknown command 'check'. Did you mean 'check-config'?
    /// ```
    static func unknownSubcommand(in arguments: some Sequence<String>) -> ValidationError? {
        var takesValue = false
        for argument in arguments {
            if takesValue {
                takesValue = false
                continue
            }
            if argument == "--" { return nil }
            if argument.hasPrefix("-") {
                takesValue = argument == "--config"
                continue
            }
            let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
            guard !names.contains(argument), let meant = Suggestion.closest(to: argument, among: names) else { return nil }
            return ValidationError("Unknown command '\(argument)'. Did you mean '\(meant)'?")
        }
        return nil
    }
}
