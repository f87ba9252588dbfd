import ArgumentParser
import BridgeCore
import GestureConfig

/// Exit codes (docs/interface.md, «Command line»): 0 success, 2 invalid config or trace, 64 usage (as
/// swift-argument-parser reports it), 1 a runtime failure.
enum Exit {
    static let invalidInput = ExitCode(2)
    static let runtimeFailure = ExitCode(1)
}

/// Says something on standard error, ending it with a newline.
///
/// In one write, not split into lines: a config with 100,000 problems is 10 MB of messages, and
/// splitting that by characters took longer than checking the config.
func complain(_ text: String) {
    StandardStream.writeLine(text, to: StandardStream.error)
}

extension GlobalOptions {
    /// Where the config comes from: `--config`, else the search path, else the embedded one.
    func configSource(explicit: String? = nil) -> ConfigSource {
        configSearch(explicit: explicit).resolve()
    }

    /// How the config is found (`--config`, else the search path), for a daemon to look again.
    func configSearch(explicit: String? = nil) -> ConfigSearch {
        ConfigSearch(explicit: explicit ?? config, environment: ProcessEnvironment.current)
    }

    /// Loads the config or prints every problem as FILE:LINE:COLUMN and exits with 2.
    func loadConfig(explicit: String? = nil) throws -> Config {
        do {
            return try Config.load(from: configSource(explicit: explicit))
        } catch {
            complain(error.description)
            throw Exit.invalidInput
        }
    }
}
