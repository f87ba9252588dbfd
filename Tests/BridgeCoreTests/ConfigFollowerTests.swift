import BridgeCore
import Foundation
import GestureConfig
import GestureTestKit
import Testing

/// How the running daemon follows its config on disk (issue 9, items 6 and 11): a save is read
/// once it settles, a file caught empty is being written, the search path is looked along again.
@Suite("following the config on disk")
struct ConfigFollowerTests {
    /// A scratch home: `xdg/` as XDG_CONFIG_HOME, nothing on the system path.
    private final class Home {
        let path: String
        init() throws {
            path = TestScratch.path("config-follower")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        var search: ConfigSearch {
            ConfigSearch(explicit: nil, environment: ["XDG_CONFIG_HOME": path + "/xdg", "XDG_CONFIG_DIRS": path + "/system"])
        }
        var userConfig: String { path + "/xdg/gesture-bridge/config.toml" }

        func write(_ file: String, _ text: String) throws {
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: false, encoding: .utf8)
        }
    }

    private static func bindings(_ n: Int) -> String {
        (1...n).map { "[[bind]]\ngesture = \"tap\"\nfingers = \($0)\naction = \"click left\"\n" }.joined(separator: "\n")
    }

    private static let start = ContinuousClock.now
    private static func at(_ ms: Int) -> ContinuousClock.Instant { start + .milliseconds(ms) }

    /// The bindings count of a loaded attempt, or nil.
    private static func loadedCount(_ attempt: ConfigFollower.Attempt?) -> Int? {
        if case .loaded(let loaded)? = attempt { return loaded.config.bindings.count }
        return nil
    }

    private static func isPostponed(_ attempt: ConfigFollower.Attempt?) -> Bool {
        if case .postponed? = attempt { return true }
        return false
    }

    @Test("a change is read once the writes have settled, and each further write starts the wait again")
    func settles() throws {
        let home = try Home()
        try home.write(home.userConfig, Self.bindings(1))
        let follower = ConfigFollower(search: home.search, source: .file(home.userConfig), now: Self.at(0))
        #expect(follower.timeout(now: Self.at(0)) == nil)

        try home.write(home.userConfig, Self.bindings(2))
        follower.noteFileEvents(now: Self.at(0))
        #expect(follower.timeout(now: Self.at(0)) == 150)
        #expect(follower.dueReload(now: Self.at(100)) == nil)
        try home.write(home.userConfig, Self.bindings(3))
        follower.noteFileEvents(now: Self.at(100))
        #expect(follower.dueReload(now: Self.at(200)) == nil)
        #expect(Self.loadedCount(follower.dueReload(now: Self.at(250))) == 3)
        #expect(follower.timeout(now: Self.at(250)) == nil)
    }

    @Test("a file emptied by a save in progress is waited for; the text written next is applied")
    func emptyIsBeingWritten() throws {
        let home = try Home()
        try home.write(home.userConfig, Self.bindings(1))
        let follower = ConfigFollower(search: home.search, source: .file(home.userConfig), now: Self.at(0))

        try home.write(home.userConfig, "")
        follower.noteFileEvents(now: Self.at(0))
        #expect(Self.isPostponed(follower.dueReload(now: Self.at(1000))))

        try home.write(home.userConfig, Self.bindings(2))
        follower.noteFileEvents(now: Self.at(2000))
        guard case .loaded(let loaded)? = follower.dueReload(now: Self.at(2200)) else {
            Issue.record("the config written after the truncation was not loaded")
            return
        }
        #expect(loaded.config.bindings.count == 2)
        follower.applied(loaded)
    }

    @Test("a config replaced by a link to /dev/zero is refused as what it is, not waited for as a save")
    func linkToDevZeroIsRefused() throws {
        let home = try Home()
        try home.write(home.userConfig, Self.bindings(1))
        let follower = ConfigFollower(search: home.search, source: .file(home.userConfig), now: Self.at(0))
        let link = home.path + "/zero"
        #expect(symlink("/dev/zero", link) == 0)
        #expect(rename(link, home.userConfig) == 0)
        follower.noteFileEvents(now: Self.at(0))
        guard case .invalid(let errors, _)? = follower.dueReload(now: Self.at(1000)) else {
            Issue.record("a link to /dev/zero was not refused")
            return
        }
        #expect(errors.errors.map(\.message) == ["cannot read the config: it is not a regular file"])
    }

    @Test("SIGHUP takes an empty file as it is: an empty config")
    func sighupAppliesAnEmptyFile() throws {
        let home = try Home()
        try home.write(home.userConfig, Self.bindings(1))
        let follower = ConfigFollower(search: home.search, source: .file(home.userConfig), watch: false)
        try home.write(home.userConfig, "")
        #expect(Self.loadedCount(follower.reloadNow()) == 0)
    }

    @Test("an empty file that was empty when it was applied is no news")
    func emptyAfterEmpty() throws {
        let home = try Home()
        try home.write(home.userConfig, "")
        let follower = ConfigFollower(search: home.search, source: .file(home.userConfig), now: Self.at(0))
        try home.write(home.userConfig, "")
        follower.noteFileEvents(now: Self.at(0))
        #expect(Self.loadedCount(follower.dueReload(now: Self.at(200))) == 0)
    }

    @Test("started on the embedded default, a config created later is found by the watch")
    func createdLaterIsWatched() throws {
        let home = try Home()
        let follower = ConfigFollower(search: home.search, source: .embedded, now: Self.at(0))
        try home.write(home.userConfig, Self.bindings(2))
        follower.noteFileEvents(now: Self.at(0))
        guard case .loaded(let loaded)? = follower.dueReload(now: Self.at(200)) else {
            Issue.record("the new config was not loaded")
            return
        }
        #expect(loaded.source == .file(home.userConfig))
        #expect(loaded.config.bindings.count == 2)
        follower.applied(loaded)
        #expect(follower.source == .file(home.userConfig))
    }

    @Test("started on the embedded default, a new file caught still empty is being written")
    func createdEmptyIsBeingWritten() throws {
        let home = try Home()
        let follower = ConfigFollower(search: home.search, source: .embedded, now: Self.at(0))
        try home.write(home.userConfig, "")
        follower.noteFileEvents(now: Self.at(0))
        #expect(Self.isPostponed(follower.dueReload(now: Self.at(200))))
    }

    @Test("SIGHUP looks along the search path again")
    func sighupSearchesAgain() throws {
        let home = try Home()
        let follower = ConfigFollower(search: home.search, source: .embedded, watch: false)
        try home.write(home.userConfig, Self.bindings(1))
        guard case .loaded(let loaded) = follower.reloadNow() else {
            Issue.record("SIGHUP did not load the new config")
            return
        }
        #expect(loaded.source == .file(home.userConfig))
    }

    @Test("the file in force removed is waited for; SIGHUP then falls back along the search path")
    func removedIsWaitedFor() throws {
        let home = try Home()
        try home.write(home.userConfig, Self.bindings(1))
        let system = home.path + "/system/gesture-bridge/config.toml"
        try home.write(system, Self.bindings(3))
        let follower = ConfigFollower(search: home.search, source: .file(home.userConfig), now: Self.at(0))
        try FileManager.default.removeItem(atPath: home.userConfig)
        follower.noteFileEvents(now: Self.at(0))
        #expect(Self.isPostponed(follower.dueReload(now: Self.at(200))))
        guard case .loaded(let loaded) = follower.reloadNow() else {
            Issue.record("SIGHUP did not fall back")
            return
        }
        #expect(loaded.source == .file(system))
        #expect(loaded.config.bindings.count == 3)
    }

    @Test("a user config created over a system-wide one takes over")
    func userConfigTakesOver() throws {
        let home = try Home()
        let system = home.path + "/system/gesture-bridge/config.toml"
        try home.write(system, Self.bindings(3))
        let follower = ConfigFollower(search: home.search, source: .file(system), now: Self.at(0))
        try home.write(home.userConfig, Self.bindings(1))
        follower.noteFileEvents(now: Self.at(0))
        guard case .loaded(let loaded)? = follower.dueReload(now: Self.at(200)) else {
            Issue.record("the user config was not loaded")
            return
        }
        #expect(loaded.source == .file(home.userConfig))
    }

    @Test("an invalid config is reported with where it came from")
    func invalidIsReported() throws {
        let home = try Home()
        try home.write(home.userConfig, Self.bindings(1))
        let follower = ConfigFollower(search: home.search, source: .file(home.userConfig), now: Self.at(0))
        try home.write(home.userConfig, "[[bind]\n")
        follower.noteFileEvents(now: Self.at(0))
        guard case .invalid(let errors, let source)? = follower.dueReload(now: Self.at(200)) else {
            Issue.record("the broken config was not reported")
            return
        }
        #expect(source == .file(home.userConfig))
        #expect(!errors.errors.isEmpty)
    }
}
