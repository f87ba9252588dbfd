import Foundation
import Testing

/// `check-config` refuses what the daemon refuses, with the same `FILE:LINE:COLUMN: message`
/// (issue 9, items 2, 7 and 15).
@Suite struct CheckConfigRefusalTests {
    @Test func checkConfigRefusesAConfigOthersCanWriteAndSaysHowToFixIt() throws {
        let f = CLI.file("shared.toml", "[[bind]]\ngesture = \"tap\"\naction = \"exec true\"\n")
        #expect(chmod(f, 0o666) == 0)
        let r = try CLI.run(["check-config", f])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("\(f):1:1: the config \(f) is writable by others"), "\(r.err)")
        #expect(r.err.contains("fix it with: chmod go-w \(f)\n"), "\(r.err)")
        #expect(chmod(f, 0o644) == 0)
        #expect(try CLI.run(["check-config", f]).status == 0)
    }

    @Test func checkConfigRefusesADeepTableHeaderAtItsFirstPartTooDeep() throws {
        let f = CLI.file("deep.toml", "[" + Array(repeating: "a", count: 20_000).joined(separator: ".") + "]\n")
        let r = try CLI.run(["check-config", f])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("\(f):1:66: nested too deeply"), "\(r.err.prefix(300))")
    }

    @Test func checkConfigRefusesAConfigOver1MBWithoutReadingIt() throws {
        let f = CLI.file("huge.toml", "[[bind]]\n")
        #expect(truncate(f, 2 << 30) == 0)
        let r = try CLI.run(["check-config", f])
        #expect(r.status == 2)
        #expect(r.err == "\(f):1:1: the config is 2147483648 bytes; a config may be at most 1 MB (1048576 bytes)\n")
    }
}
