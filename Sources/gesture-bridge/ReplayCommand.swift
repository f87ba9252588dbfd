import ArgumentParser
import BridgeApp
import BridgeCore
import GestureConfig
import GestureEngine

#if canImport(Glibc)
import Glibc
#endif

/// `gesture-bridge replay TRACE`: runs a recorded trace through the daemon's own recognizer
/// and binding code and prints what it would do. Needs no X server.
struct ReplayCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Feed a recorded trace through the recognizer and bindings; print what would happen.",
        discussion: """
            A trace file is checked completely before anything is printed, so a bad trace gives \
            TRACE:LINE: message and exit 2 without half an output (a pipe, which can be read \
            only once, streams in one pass; so does - for standard input). Memory stays flat \
            however long the trace. When the trace ends, time runs on 10 s so that pending timers \
            fire. --verbose adds each recognizer transition.
            """
    )

    @OptionGroup var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup var jsonFlag: JSONFlag
    @OptionGroup var verboseFlag: VerboseFlag

    @Argument(help: ArgumentHelp("A JSON Lines trace, as `record` writes it; - reads standard input.", valueName: "TRACE"), completion: .file())
    var trace: String

    func validate() throws {
        try global.refuse(for: "replay", [(.dryRun, "replay never injects or takes anything")])
        if global.verbose && global.json {
            throw ValidationError("--verbose adds recognizer transitions to the human output; --json prints gesture phases only: give one")
        }
    }

    /// `-` is standard input.
    private var readsStandardInput: Bool { trace == "-" }

    private func openTrace() throws(TraceError) -> TraceReader {
        readsStandardInput ? TraceReader(fileDescriptor: 0, name: "<stdin>") : try TraceReader(path: trace)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// How far past the last event time runs on, so every pending timer fires.
    static let runOn = Interval(milliseconds: 10_000)

    func run() throws {
        let config = try global.loadConfig()
        do {
            // First pass over a file: validate everything, print nothing. A pipe can be read
            // only once, so it streams in one pass (an error then ends a partial output).
            if !readsStandardInput, Self.isRegularFile(trace) {
                var check = try TraceReader(path: trace)
                while try check.next() != nil {}
            }

            // The daemon's path from input to observers, with a trace for the input and the
            // printer for its only observer. --verbose: every recognizer transition, as the
            // daemon's --verbose log has them.
            let printer = ReportPrinter(format: global.json ? .json : .human, config: { config })
            let run = PipelineRun(recognizing: config, observers: [printer], tracesTransitions: global.verbose)
            var reader = try openTrace()
            try run.play(&reader, runningOn: Self.runOn)
        } catch {
            complain(error.description)
            throw Exit.invalidInput
        }
    }
}
