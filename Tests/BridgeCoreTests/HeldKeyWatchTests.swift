import BridgeCore
import Foundation
import GestureTestKit
import Glibc
import Testing

/// The daemon's side of the held-input watcher: what it tells the watcher and when, with a
/// stand-in watcher that writes what it reads to a file (the real one is tested end to end in
/// `HeldInputWatcherTests`).
@Suite("the held-input watch")
struct HeldKeyWatchTests {
    @Test("a line says the keys and buttons in press order and reads back the same", arguments: [
        HeldCodes(), HeldCodes(keys: [37, 50, 133]), HeldCodes(buttons: [3]), HeldCodes(keys: [64, 23], buttons: [1, 3]),
    ])
    func lineRoundTrip(_ held: HeldCodes) {
        #expect(HeldCodes(line: held.line) == held)
        #expect(held.line.utf8.count < 4096)
    }

    @Test("lines that are not whole or not ours are not read", arguments: [
        "", "keys 37", "buttons 3", "keys 37 50 butt", "keys 7 buttons", "keys 256 buttons", "keys buttons 0", "keys x buttons",
    ])
    func foreignLines(_ line: String) {
        #expect(HeldCodes(line: line) == nil)
    }

    @Test("the longest line, every keycode and every button, stays below PIPE_BUF: one write, whole or not at all")
    func longestLine() {
        let all = HeldCodes(keys: Array(8...255), buttons: Array(1...255))
        #expect(all.line.utf8.count + 1 < Int(PIPE_BUF))
    }

    /// A watcher that appends what it reads to a file, until its input ends.
    static func standIn() -> (command: [String], file: String) {
        let file = TestScratch.path("held-watch") + ".log"
        return (["/bin/sh", "-c", "exec cat >> '\(file)'"], file)
    }

    static func lines(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test("a press is told before it is sent, a release only once confirmed, nothing twice, and the pipe ends at close")
    func whatIsTold() throws {
        let (command, file) = Self.standIn()
        defer { unlink(file) }
        let watch = try HeldKeyWatch(command: command)
        watch.willHold(HeldCodes(keys: [37]))
        watch.willHold(HeldCodes(keys: [37]))
        watch.willHold(HeldCodes(keys: [37, 50]))
        // Released in Xlib's buffer, not sent yet: the watcher still has both.
        watch.willHold(HeldCodes(keys: [37]))
        #expect(watch.announced == HeldCodes(keys: [37, 50]))
        watch.confirm(HeldCodes(keys: [37]))
        watch.confirm(HeldCodes(keys: [37]))
        watch.willHold(HeldCodes(keys: [37], buttons: [3]))
        watch.confirm(HeldCodes())
        let pid = watch.pid
        watch.close()
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid, "the watcher did not end at the end of its input")
        #expect(Self.lines(file) == ["keys 37 buttons", "keys 37 50 buttons", "keys 37 buttons", "keys 37 buttons 3", "keys buttons"])
    }

    @Test("a watcher that ended is started again on SIGCHLD and told what is held")
    func restarted() throws {
        let (command, file) = Self.standIn()
        defer { unlink(file) }
        let watch = try HeldKeyWatch(command: command)
        #expect(watch.reap() == nil)
        watch.willHold(HeldCodes(keys: [64]))
        #expect(poll(timeout: .seconds(5)) { Self.lines(file) == ["keys 64 buttons"] })
        let first = watch.pid
        kill(first, SIGKILL)
        var line: String?
        #expect(poll(timeout: .seconds(5)) {
            line = watch.reap()
            return line != nil
        })
        #expect(line?.contains("(pid \(first)) was ended by signal 9; started again (pid \(watch.pid))") ?? false, "\(line ?? "")")
        #expect(watch.pid != first && watch.pid > 0)
        #expect(poll(timeout: .seconds(5)) { Self.lines(file) == ["keys 64 buttons", "keys 64 buttons"] }, "\(Self.lines(file))")
        let second = watch.pid
        watch.close()
        var status: Int32 = 0
        #expect(waitpid(second, &status, 0) == second)
    }
}

/// Polls `condition` every 2 ms until it holds or `timeout` passes.
private func poll(timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(2_000)
    }
    return true
}
