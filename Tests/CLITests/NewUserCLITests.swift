import Foundation
import Testing

/// What a new user tries first on the command line: flags where they mean nothing, an empty
/// config, a trace on standard input.
@Suite("The command line as a new user tries it")
struct NewUserCLITests {
    @Test("A global flag that means nothing for a command is refused with exit 64 and why, before or after the command", arguments: [
        (["list-devices", "--verbose"], "--verbose means nothing for list-devices"),
        (["list-devices", "--dry-run"], "--dry-run means nothing for list-devices"),
        (["print-config", "--json"], "--json means nothing for print-config"),
        (["print-config", "--dry-run"], "--dry-run means nothing for print-config"),
        (["check-config", "--dry-run"], "--dry-run means nothing for check-config"),
        (["check-config", "--json"], "--json means nothing for check-config"),
        (["record", "--json"], "--json means nothing for record"),
        (["record", "--dry-run"], "--dry-run means nothing for record"),
        (["replay", "t.jsonl", "--dry-run"], "--dry-run means nothing for replay"),
        (["learn", "L", "--json"], "--json means nothing for learn"),
        (["learn", "L", "--dry-run"], "--dry-run means nothing for learn"),
        (["learn", ""], "the shape's NAME must not be empty"),
        (["learn", "a\u{7}b"], "the shape's NAME must not contain control characters"),
        (["learn", "L", "--samples", "0"], "--samples must be 1 to 16 (a [[shape]] has at most 16 templates), not 0"),
        (["learn", "L", "--samples", "17"], "--samples must be 1 to 16 (a [[shape]] has at most 16 templates), not 17"),
        (["--json"], "--json needs --dry-run"),
    ])
    func meaninglessFlagsAreRefused(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(r.out)\(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.out.isEmpty, "\(r.out)")
    }

    @Test("A first word close to a command is a usage error that names the command, as a close option is", arguments: [
        (["check"], "check-config"), (["check", "my.toml"], "check-config"), (["--config", "x.toml", "replya", "t.jsonl"], "replay"),
        (["--dry-run", "doctr"], "doctor"), (["list"], "list-devices"), (["print"], "print-config"), (["Learn", "L"], "learn"),
    ])
    func nearMissCommandIsNamed(arguments: [String], meant: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(r.out)\(r.err)")
        let word = try #require(arguments.first { !$0.hasPrefix("-") && !$0.hasSuffix(".toml") })
        #expect(r.err.hasPrefix("Error: Unknown command '\(word)'. Did you mean '\(meant)'?\n"), "\(r.err)")
        #expect(r.err.contains("Usage: gesture-bridge"), "\(r.err)")
        #expect(r.out.isEmpty)
        // As argument-parser does it for an option.
        let option = try CLI.run(["--dryrun"])
        #expect(option.status == 64 && option.err.contains("Did you mean '--dry-run'?"), "\(option.err)")
    }

    @Test("A word close to no command, and a command's own arguments, are left to argument-parser")
    func otherWordsAreNotCommands() throws {
        let far = try CLI.run(["frobnicate"])
        #expect(far.status == 64 && far.err.contains("Unexpected argument 'frobnicate'"), "\(far.err)")
        // The value of --config, and a subcommand's arguments, are not taken for commands.
        let config = CLI.file("check.toml", "[[bind]]\ngesture = \"tap\"\naction = \"click left\"\n")
        let valid = try CLI.run(["--config", config, "check-config"])
        #expect(valid.status == 0, "\(valid.err)")
        let help = try CLI.run(["help", "check-config"])
        #expect(help.status == 0, "\(help.err)")
    }

    @Test("A command's --help lists only the global flags that mean something for it", arguments: [
        ("replay", ["--config", "--json", "--verbose"], ["--dry-run"]),
        ("record", ["--config", "--verbose"], ["--dry-run", "--json"]),
        ("list-devices", ["--config", "--json"], ["--dry-run", "--verbose"]),
        ("check-config", ["--config"], ["--dry-run", "--json", "--verbose"]),
        ("print-config", ["--config"], ["--dry-run", "--json", "--verbose"]),
        ("doctor", ["--config", "--json"], ["--dry-run", "--verbose"]),
        ("learn", ["--config", "--verbose"], ["--dry-run", "--json"]),
    ])
    func helpListsMeaningfulFlags(command: String, listed: [String], hidden: [String]) throws {
        let r = try CLI.run([command, "--help"])
        #expect(r.status == 0, "\(r.err)")
        // The usage line and the options list (the discussion may name a flag of another command).
        let usage = r.out.split(separator: "\n").filter { $0.hasPrefix("USAGE:") }.joined()
        let options = r.out.components(separatedBy: "OPTIONS:").last ?? ""
        for flag in listed { #expect(options.contains("  \(flag)"), "\(command) --help lacks \(flag): \(r.out)") }
        for flag in hidden {
            #expect(!options.contains(flag) && !usage.contains(flag), "\(command) --help lists \(flag): \(options)")
        }
        let daemon = try CLI.run(["--help"])
        for flag in ["--config", "--dry-run", "--json", "--verbose"] { #expect(daemon.out.contains("  \(flag)")) }
    }

    @Test("print-config --config FILE prints that file; an invalid one is exit 2")
    func printConfigUsesTheGivenFile() throws {
        let text = "[[bind]]\ngesture = \"tap\"\nfingers = 2\naction = \"click middle\"\n"
        let good = CLI.file("print-me.toml", text)
        let r = try CLI.run(["print-config", "--config", good])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == text)
        let before = try CLI.run(["--config", good, "print-config"])
        #expect(before.out == text)
        let bad = CLI.file("print-bad.toml", "[[bind]]\ngesture = \"tapp\"\n")
        let refused = try CLI.run(["print-config", "--config", bad])
        #expect(refused.status == 2)
        #expect(refused.err.contains("print-bad.toml:2:11: unknown gesture 'tapp'"), "\(refused.err)")
        // Without --config, still the embedded default.
        let plain = try CLI.run(["print-config"])
        #expect(plain.out.hasPrefix("# gesture-bridge: the default config."))
    }

    @Test("check-config warns about a config without bindings, and exits 0")
    func emptyConfigWarns() throws {
        let empty = CLI.file("empty.toml", "")
        let r = try CLI.run(["check-config", empty])
        #expect(r.status == 0)
        #expect(r.out.contains("valid, 0 bindings"))
        #expect(r.err.contains("warning: \(empty) has no [[bind]] table, so no gesture does anything"), "\(r.err)")
        let defaults = try CLI.run(["check-config"])
        #expect(defaults.status == 0 && defaults.err.isEmpty, "\(defaults.err)")
    }

    @Test("check-config with both FILE and --config naming different files is a usage error")
    func checkConfigTwoFiles() throws {
        let a = CLI.file("a.toml", ""), b = CLI.file("b.toml", "")
        let r = try CLI.run(["check-config", a, "--config", b])
        #expect(r.status == 64)
        #expect(r.err.contains("give one"), "\(r.err)")
    }

    @Test("replay - reads the trace from standard input; --verbose adds rounded transition times")
    func replayReadsStandardInput() throws {
        let trace = CLI.file("stdin.jsonl", """
            {"t":0,"type":"screen","width":800,"height":600}
            {"t":1.3333333,"type":"touch-begin","id":1,"x":100,"y":100}
            {"t":700,"type":"touch-end","id":1,"x":100,"y":100}

            """)
        let json = try CLI.run(["/bin/sh", "-c", "exec \"$0\" replay - --json < \"$1\"", CLI.executable, trace], shell: true)
        #expect(json.status == 0, "\(json.err)")
        #expect(json.out.split(separator: "\n").first == #"{"t":501.333,"gesture":"long-press","phase":"began","fingers":1,"device":"touchscreen","x":100,"y":100,"monitor":"screen","action":"click right"}"#)
        let verbose = try CLI.run(["/bin/sh", "-c", "exec \"$0\" replay - --verbose < \"$1\"", CLI.executable, trace], shell: true)
        #expect(verbose.status == 0, "\(verbose.err)")
        #expect(verbose.out.contains("  501.333 ms  touchscreen long-press: possible → timer → active"), "\(verbose.out)")
        let bad = try CLI.run(["/bin/sh", "-c", "echo '{\"t\":0}' | exec \"$0\" replay -", CLI.executable], shell: true)
        #expect(bad.status == 2)
        #expect(bad.err.contains("<stdin>:1:"), "\(bad.err)")
    }
}
