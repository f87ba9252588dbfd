import BridgeCore
import Foundation
import GestureConfig
import GestureTestKit
import Testing

/// The running daemon's reload refuses what `check-config` refuses (issue 9, items 7 and 15):
/// the attempt is invalid, with the message the daemon logs, and the daemon keeps the config
/// it has.
@Suite("reload refusals")
struct ConfigRefusalReloadTests {
    private static func invalidMessage(_ attempt: ConfigFollower.Attempt) -> String? {
        if case .invalid(let errors, _) = attempt { return errors.description }
        return nil
    }

    @Test("a reload of a config others can write, or of one grown past 1 MB, is refused with the reason")
    func refusedReloads() throws {
        let directory = TestScratch.path("reload-refusal")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try "[[bind]]\ngesture = \"tap\"\naction = \"exec true\"\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o644) == 0)
        let follower = ConfigFollower(
            search: ConfigSearch(explicit: path, environment: [:]), source: .file(path), watch: false)
        guard case .loaded(let loaded) = follower.reloadNow() else {
            Issue.record("the config did not load")
            return
        }
        #expect(loaded.config.bindings.count == 1)

        #expect(chmod(path, 0o646) == 0)
        let writable = try #require(Self.invalidMessage(follower.reloadNow()))
        #expect(writable.hasPrefix("\(path):1:1: the config \(path) is writable by others (every user)"))
        #expect(writable.hasSuffix("fix it with: chmod go-w \(path)"))

        #expect(chmod(path, 0o644) == 0 && truncate(path, 2 << 30) == 0)
        let huge = try #require(Self.invalidMessage(follower.reloadNow()))
        #expect(huge == "\(path):1:1: the config is 2147483648 bytes; a config may be at most 1 MB (1048576 bytes)")
    }
}
