import Testing

@testable import GestureConfig

@Suite("Config search path")
struct ConfigLocatorTests {
    @Test("--config wins, even over existing files and even when it does not exist")
    func explicitWins() throws {
        let directory = try TemporaryDirectory()
        try directory.write("home/gesture-bridge/config.toml", "")
        let environment = ["XDG_CONFIG_HOME": directory.path + "/home"]
        #expect(ConfigLocator.resolve(explicit: "/nowhere/my.toml", environment: environment) == .file("/nowhere/my.toml"))
    }

    @Test("Search order: XDG_CONFIG_HOME, then each XDG_CONFIG_DIRS entry, then the embedded config")
    func searchOrder() throws {
        let directory = try TemporaryDirectory()
        let root = directory.path
        let environment = [
            "XDG_CONFIG_HOME": root + "/home",
            "HOME": root + "/user",
            "XDG_CONFIG_DIRS": root + "/dir1:" + root + "/dir2",
        ]
        #expect(ConfigLocator.resolve(explicit: nil, environment: environment) == .embedded)

        let second = try directory.write("dir2/gesture-bridge/config.toml", "")
        #expect(ConfigLocator.resolve(explicit: nil, environment: environment) == .file(second))

        let first = try directory.write("dir1/gesture-bridge/config.toml", "")
        #expect(ConfigLocator.resolve(explicit: nil, environment: environment) == .file(first))

        try directory.write("user/.config/gesture-bridge/config.toml", "")  // ignored: XDG_CONFIG_HOME is set
        #expect(ConfigLocator.resolve(explicit: nil, environment: environment) == .file(first))

        let home = try directory.write("home/gesture-bridge/config.toml", "")
        #expect(ConfigLocator.resolve(explicit: nil, environment: environment) == .file(home))
    }

    @Test("Without XDG_CONFIG_HOME, ~/.config is searched")
    func homeFallback() throws {
        let directory = try TemporaryDirectory()
        let user = try directory.write("user/.config/gesture-bridge/config.toml", "")
        let environment = ["HOME": directory.path + "/user", "XDG_CONFIG_DIRS": directory.path + "/none"]
        #expect(ConfigLocator.resolve(explicit: nil, environment: environment) == .file(user))
    }

    @Test("A directory where the config should be is skipped")
    func directoryIsNotAConfig() throws {
        let directory = try TemporaryDirectory()
        try directory.write("home/gesture-bridge/config.toml/placeholder", "")
        let environment = ["XDG_CONFIG_HOME": directory.path + "/home", "XDG_CONFIG_DIRS": directory.path + "/none"]
        #expect(ConfigLocator.resolve(explicit: nil, environment: environment) == .embedded)
    }

    @Test("The search path follows the XDG Base Directory rules", arguments: [
        ([:], ["/etc/xdg/gesture-bridge/config.toml"]),
        (["HOME": "/home/ann"], ["/home/ann/.config/gesture-bridge/config.toml", "/etc/xdg/gesture-bridge/config.toml"]),
        (["HOME": "/home/ann", "XDG_CONFIG_HOME": ""],
         ["/home/ann/.config/gesture-bridge/config.toml", "/etc/xdg/gesture-bridge/config.toml"]),
        (["HOME": "/home/ann", "XDG_CONFIG_HOME": "relative/dir"],
         ["/home/ann/.config/gesture-bridge/config.toml", "/etc/xdg/gesture-bridge/config.toml"]),
        (["XDG_CONFIG_HOME": "/cfg/", "XDG_CONFIG_DIRS": "/a::relative:/b/"],
         ["/cfg/gesture-bridge/config.toml", "/a/gesture-bridge/config.toml", "/b/gesture-bridge/config.toml"]),
        (["XDG_CONFIG_DIRS": ""], ["/etc/xdg/gesture-bridge/config.toml"]),
        (["HOME": "/"], ["/.config/gesture-bridge/config.toml", "/etc/xdg/gesture-bridge/config.toml"]),
    ] as [([String: String], [String])])
    func searchPath(_ environment: [String: String], _ expected: [String]) {
        #expect(ConfigLocator.searchPath(environment: environment) == expected)
    }

    @Test("The file check can be faked")
    func fakeFileSystem() {
        let existing: Set = ["/etc/xdg/gesture-bridge/config.toml"]
        let source = ConfigLocator.resolve(explicit: nil, environment: ["HOME": "/home/ann"]) { existing.contains($0) }
        #expect(source == .file("/etc/xdg/gesture-bridge/config.toml"))
        #expect(source.description == "/etc/xdg/gesture-bridge/config.toml")
        #expect(ConfigSource.embedded.description == DefaultConfig.fileName)
    }
}
