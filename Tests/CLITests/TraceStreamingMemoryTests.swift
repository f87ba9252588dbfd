import Foundation
import GestureTestKit
import Testing

/// `replay` reads a trace as a stream (docs/interface.md, «Trace format»): its memory does not
/// grow with the trace. Measured on the replay process itself (its peak resident size, from
/// `wait4`), so that nothing else the test process does at the same time counts.
@Suite("replay: a long trace in flat memory")
struct TraceStreamingMemoryTests {
    /// Runs `gesture-bridge replay TRACE` and returns its exit status and peak resident size.
    static func replayPeak(_ trace: String, config: String) throws -> (status: Int32, peakBytes: Int) {
        let arguments = [CLI.executable, "--config", config, "replay", trace]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // What it prints is of no interest here (the trace's error, below).
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let settings = ["HOME=\(CLI.scratch.path)", "PATH=/usr/bin:/bin"]
        var environment: [UnsafeMutablePointer<CChar>?] = settings.map { strdup($0) } + [nil]
        defer { for pointer in environment { free(pointer) } }
        let spawned = posix_spawn(&pid, CLI.executable, &actions, nil, &argv, &environment)
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        // ru_maxrss is in kilobytes on Linux.
        return ((status >> 8) & 0xff, usage.ru_maxrss * 1024)
    }

    @Test("a 36 MB trace is read in the memory of a one-line one")
    func memoryStaysFlat() throws {
        let config = CLI.file("streaming.toml", "[[bind]]\ngesture = \"tap\"\naction = \"key a\"\n")
        // ~180 bytes a line, ~36 MB in all; its last line is wrong, so replay reads it whole (a
        // trace is checked completely before anything is replayed) and stops there with exit 2:
        // what is measured is the reading.
        let big = CLI.scratch.appendingPathComponent("streaming-big.trace").path
        let small = CLI.scratch.appendingPathComponent("streaming-small.trace").path
        defer { for path in [big, small] { try? FileManager.default.removeItem(atPath: path) } }
        let padding = String(repeating: "p", count: 110)
        func line(_ index: Int) -> String {
            #"{"t":\#(index),"type":"touch-update","id":\#(index % 10),"x":\#(index % 1920).5,"y":\#(index % 1080),"pad":"\#(padding)"}"# + "\n"
        }
        let wrong = #"{"t":300000,"type":"nonsense"}"# + "\n"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        var batch = ""
        for index in 0..<200_000 {
            batch += line(index)
            if index % 10_000 == 9_999 {
                handle.write(Data(batch.utf8))
                batch = ""
            }
        }
        handle.write(Data((batch + wrong).utf8))
        try handle.close()
        try (line(0) + wrong).write(toFile: small, atomically: false, encoding: .utf8)
        let fileSize = try #require(FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        #expect(fileSize > 35_000_000)

        let one = try Self.replayPeak(small, config: config)
        let whole = try Self.replayPeak(big, config: config)
        #expect(one.status == 2 && whole.status == 2, "replay should stop at the trace's last line: \(one.status), \(whole.status)")
        let growth = whole.peakBytes - one.peakBytes
        // A reader that held the file, or its lines, would grow by more than the file's size.
        #expect(growth < 4 * 1024 * 1024, "replay's peak grew by \(growth) bytes over a \(fileSize)-byte trace (\(one.peakBytes) → \(whole.peakBytes))")
    }
}
