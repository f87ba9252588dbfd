import ArgumentParser
import BridgeCore
import GestureConfig

/// Exit codes of the contract: 0 success, 2 invalid config or trace, 64 usage (as
/// swift-argument-parser reports it), 1 a runtime failure.
enum Exit {
    static let invalidInput = ExitCode(2)
    static let runtimeFailure = ExitCode(1)
}

/// Says something on standard error, one line per line.
func complain(_ text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        StandardStream.writeLine(String(line), to: StandardStream.error)
    }
}

extension GlobalOptions {
    /// Where the config comes from: `--config`, else the search path, else the embedded one.
    func configSource(explicit: String? = nil) -> ConfigSource {
        ConfigLocator.resolve(explicit: explicit ?? config, environment: ProcessEnvironment.current)
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
