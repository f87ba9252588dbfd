import BridgeCore
import Foundation
import Testing
@testable import X11Backend
import GestureConfig
import GestureEngine
import GestureTestKit

@Suite("exec actions")
struct ExecTests {
    private func temporaryFile() -> String {
        TestScratch.path("gb-exec")
    }

    @Test("exec starts argv as given, without a shell, without waiting, and the child is reaped")
    func startsWithoutWaiting() throws {
        try XServer.with { server in
            let performer = try makePerformer(server)
            let output = temporaryFile()
            defer { try? FileManager.default.removeItem(atPath: output) }
            // The arguments reach the program verbatim: no word splitting, no $ expansion, no globbing.
            let script = "printf '%s\\n' \"$@\" > \(output); sleep 0.3"
            let started = ContinuousClock.now
            try performer.perform(.exec(argv: ["sh", "-c", script, "sh", "two words", "$HOME", "*"]), context: context(.pointer))
            #expect(ContinuousClock.now - started < .milliseconds(100))
            #expect(performer.runningChildren.count == 1)

            var exits: [ChildExit] = []
            #expect(poll(timeout: .seconds(10)) {
                exits += performer.reapChildren()
                return !exits.isEmpty
            })
            #expect(exits.first?.termination == .exited(0))
            #expect(exits.first?.program == "sh")
            #expect(performer.runningChildren.isEmpty)
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "two words\n$HOME\n*\n")
        }
    }

    @Test("the child reads /dev/null, leads its own session, and has no signal blocked")
    func childEnvironment() throws {
        let launcher = ProcessLauncher()
        let output = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: output) }
        // The last command replaces the shell, so it reads the mask the child started with (a shell
        // waiting for a command blocks SIGCHLD meanwhile).
        let script = "readlink /proc/self/fd/0 > \(output); cut -d' ' -f6 /proc/$$/stat >> \(output); exec grep SigBlk /proc/self/status >> \(output)"
        let pid = try launcher.spawn(["/bin/sh", "-c", script])
        var exits: [ChildExit] = []
        #expect(poll(timeout: .seconds(10)) {
            exits += launcher.reap()
            return !exits.isEmpty
        })
        #expect(exits.map(\.termination) == [.exited(0)])
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "/dev/null")
        #expect(lines.dropFirst().first == "\(pid)")   // session id == its own pid
        #expect(lines.last == "SigBlk:\t0000000000000000")
    }

    @Test("a program that does not exist fails the action with the reason")
    func missingProgram() throws {
        let launcher = ProcessLauncher()
        let error = #expect(throws: ActionError.self) { try launcher.spawn(["gesture-bridge-no-such-program", "x"]) }
        #expect(error?.message == "exec gesture-bridge-no-such-program: cannot start it: No such file or directory")
        #expect(launcher.running.isEmpty)
        #expect(throws: ActionError("exec: no program given")) { try launcher.spawn([]) }
    }

    @Test("a child ended by a signal is reported as such")
    func signaledChild() throws {
        let launcher = ProcessLauncher()
        let pid = try launcher.spawn(["sleep", "30"])
        kill(pid, SIGTERM)
        var exits: [ChildExit] = []
        #expect(poll(timeout: .seconds(10)) {
            exits += launcher.reap()
            return !exits.isEmpty
        })
        #expect(exits.map(\.termination) == [.signaled(SIGTERM)])
        #expect(exits.first?.description == "sleep (pid \(pid)) was ended by signal \(SIGTERM)")
    }
}
