import Foundation
import GestureTestKit
import ProcessTestKit
import Testing

/// The command line as users and scripts see it: the real binary, its output and exit codes.
struct CLI {
    static var executable: String { BuiltProducts.executable(named: "gesture-bridge") }

    struct Result { var status: Int32; var out: String; var err: String }

    /// Runs the binary with `arguments`, or with `shell`, `arguments` as a whole command line;
    /// in `directory` when given.
    static func run(_ arguments: [String], environment: [String: String] = [:], shell: Bool = false, directory: URL? = nil) throws -> Result {
        var env = ["PATH": "/usr/bin:/bin", "HOME": scratch.path, "XDG_CONFIG_HOME": scratch.appendingPathComponent("none").path]
        env.merge(environment) { $1 }
        let run = try ProgramRun(
            executable: shell ? arguments[0] : executable, arguments: shell ? Array(arguments.dropFirst()) : arguments,
            environment: env, directory: directory)
        return Result(status: run.status, out: run.out, err: run.err)
    }

    static let scratch: URL = {
        let dir = URL(fileURLWithPath: TestScratch.path("gb-cli"))
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }()

    static func file(_ name: String, _ text: String) -> String {
        let url = scratch.appendingPathComponent(name)
        try! text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

@Suite struct CLITests {
    @Test func checkConfigAcceptsAValidFile() throws {
        let f = CLI.file("good.toml", "[[bind]]\ngesture = \"tap\"\naction = \"click left\"\n")
        let r = try CLI.run(["check-config", f])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("valid, 1 binding"))
    }

    @Test func checkConfigPrintsEveryProblemWithItsPositionAndExits2() throws {
        let f = CLI.file("bad.toml", """
            [recognizer]
            slop = 3

            [[bind]]
            gesture = "swipe"
            direction = "sideways"
            action = "key ctrl+Nope"
            """)
        let r = try CLI.run(["check-config", f])
        #expect(r.status == 2)
        let lines = r.err.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(f):2:1: ") && $0.contains("slop_px") }, "\(r.err)")
        #expect(lines.contains { $0.hasPrefix("\(f):6:13: ") }, "\(r.err)")
        #expect(lines.contains { $0.hasPrefix("\(f):7:") && $0.contains("Nope") }, "\(r.err)")
    }

    @Test func checkConfigWithoutAFileChecksTheEmbeddedDefault() throws {
        let r = try CLI.run(["check-config"])
        #expect(r.status == 0)
        #expect(r.out.contains("<default config>: valid"))
    }

    @Test func configOptionsMayStandBeforeOrAfterTheSubcommand() throws {
        let config = CLI.file("c.toml", "[[bind]]\ngesture = \"tap\"\naction = \"click left\"\n")
        let trace = CLI.file("tap.jsonl", """
            {"t":0,"type":"touch-begin","id":1,"x":10,"y":20}
            {"t":50,"type":"touch-end","id":1,"x":10,"y":20}
            """)
        let expected = #"{"t":50,"gesture":"tap","phase":"recognized","fingers":1,"device":"touchscreen","x":10,"y":20,"taps":1,"action":"click left"}"# + "\n"
        let before = try CLI.run(["--config", config, "replay", trace, "--json"])
        let after = try CLI.run(["replay", trace, "--json", "--config", config])
        #expect(before.status == 0 && after.status == 0, "\(before.err)\(after.err)")
        #expect(before.out == expected)
        #expect(after.out == expected)
    }

    @Test func replayOfABadTraceNamesTheLineAndPrintsNoHalfOutput() throws {
        let trace = CLI.file("bad.jsonl", """
            {"t":0,"type":"touch-begin","id":1,"x":10,"y":20}
            {"t":50,"type":"touch-end","id":1,"x":10,"y":20}

            {"t":40,"type":"motion","x":1,"y":2}
            """)
        let r = try CLI.run(["replay", trace, "--json"])
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.err.hasPrefix("\(trace):4: "), "\(r.err)")
    }

    @Test func replayWithAnInvalidConfigExits2() throws {
        let config = CLI.file("broken.toml", "[[bind]]\ngesture = \"wave\"\naction = \"click left\"\n")
        let trace = CLI.file("empty.jsonl", "")
        let r = try CLI.run(["replay", trace, "--config", config])
        #expect(r.status == 2)
        #expect(r.err.contains("\(config):2:11: "), "\(r.err)")
    }

    @Test func aTraceFromAPipeIsReplayedInOnePass() throws {
        let trace = CLI.file("piped.jsonl", """
            {"t":0,"type":"touch-begin","id":1,"x":10,"y":20}
            {"t":50,"type":"touch-end","id":1,"x":10,"y":20}
            """)
        let config = CLI.file("pipe.toml", "[[bind]]\ngesture = \"tap\"\naction = \"click left\"\n")
        let r = try CLI.run(["/bin/sh", "-c", "cat \(trace) | \(CLI.executable) replay /dev/stdin --json --config \(config)"], shell: true)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains(#""gesture":"tap""#), "\(r.out)")
    }

    @Test func aMissingTraceIsAnInvalidInput() throws {
        let r = try CLI.run(["replay", "/nonexistent/trace.jsonl"])
        #expect(r.status == 2)
        #expect(r.err.contains("/nonexistent/trace.jsonl"))
    }

    @Test func usageErrorsExit64() throws {
        #expect(try CLI.run(["replay"]).status == 64)
        #expect(try CLI.run(["--no-such-flag"]).status == 64)
        #expect(try CLI.run(["frobnicate"]).status == 64)
    }

    @Test func versionAndHelp() throws {
        let v = try CLI.run(["--version"])
        #expect(v.status == 0 && !v.out.isEmpty)
        let h = try CLI.run(["--help"])
        #expect(h.status == 0)
        for word in ["check-config", "replay", "record", "list-devices", "print-config", "--dry-run", "--config"] {
            #expect(h.out.contains(word), "help lacks \(word)")
        }
    }

    @Test func printConfigIsTheEmbeddedDefaultAndValid() throws {
        let r = try CLI.run(["print-config"])
        #expect(r.status == 0)
        let f = CLI.file("printed.toml", r.out)
        #expect(try CLI.run(["check-config", f]).status == 0)
    }

    @Test func withoutAnXServerTheDaemonSaysSoAndExits1() throws {
        let r = try CLI.run([], environment: ["DISPLAY": ""])
        #expect(r.status == 1)
        #expect(r.err.contains("DISPLAY"))
        let bad = try CLI.run(["--dry-run"], environment: ["DISPLAY": ":4321"])
        #expect(bad.status == 1)
        #expect(bad.err.contains(":4321"))
    }

    @Test func theConfigSearchPathFindsTheUsersFile() throws {
        let home = CLI.scratch.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("gesture-bridge"), withIntermediateDirectories: true)
        try "[[bind]]\ngesture = \"tap\"\ntaps = 2\naction = \"click middle\"\n"
            .write(to: home.appendingPathComponent("gesture-bridge/config.toml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["check-config"], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(r.status == 0)
        #expect(r.out.contains("xdg/gesture-bridge/config.toml: valid, 1 binding"), "\(r.out)")
    }
}

@Suite struct CLIConnectTimeoutTests {
    @Test("a display that accepts but never answers ends start-up with a message naming it (issue 9)")
    func silentDisplayTimesOut() throws {
        let silent = try #require(SilentXSocket())
        // `timeout` ends a hang that the fix must prevent, so that the test fails, not hangs.
        let r = try CLI.run(
            ["/usr/bin/timeout", "-k", "5", "30", CLI.executable, "--dry-run"],
            environment: ["DISPLAY": silent.displayName, "GESTURE_BRIDGE_CONNECT_TIMEOUT": "1"], shell: true)
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains("\"\(silent.displayName)\""), "\(r.err)")
        #expect(r.err.contains("did not answer within 1 s"), "\(r.err)")
        withExtendedLifetime(silent) {}
    }
}
