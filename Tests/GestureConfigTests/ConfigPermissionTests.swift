import Foundation
import Testing

@testable import GestureConfig

/// A config that another user could change is refused: its `exec` actions run as the user
/// (issue 9, item 7).
@Suite("Config permissions")
struct ConfigPermissionTests {
    static let binding = "[[bind]]\ngesture = \"tap\"\naction = \"exec true\"\n"
    static let isRoot = geteuid() == 0

    private static func refusal(_ path: String) throws -> ConfigError {
        let thrown = try #require(throws: ConfigErrors.self) { try Config.load(contentsOf: path) }
        #expect(thrown.errors.count == 1)
        let error = try #require(thrown.errors.first)
        #expect(error.file == path && error.line == 1 && error.column == 1)
        return error
    }

    @Test("A config only its owner can write is loaded")
    func ownConfig() throws {
        let path = try TemporaryDirectory().write("config.toml", Self.binding)
        #expect(chmod(path, 0o644) == 0)
        #expect(try Config.load(contentsOf: path).bindings.count == 1)
        #expect(chmod(path, 0o600) == 0)
        #expect(try Config.load(contentsOf: path).bindings.count == 1)
    }

    @Test("A world-writable config is refused, naming the file and the fix")
    func worldWritable() throws {
        let path = try TemporaryDirectory().write("config.toml", Self.binding)
        #expect(chmod(path, 0o666) == 0)
        let error = try Self.refusal(path)
        #expect(error.message == "the config \(path) is writable by others (every user), who could make gesture-bridge "
            + "run any program as you; fix it with: chmod go-w \(path)")
    }

    @Test("A config writable by a group of other users is refused", .enabled(if: isRoot, "needs chown"))
    func groupWritable() throws {
        let path = try TemporaryDirectory().write("config.toml", Self.binding)
        let staff = try #require(getgrnam("staff")?.pointee.gr_gid)
        #expect(chown(path, geteuid(), staff) == 0 && chmod(path, 0o664) == 0)
        let error = try Self.refusal(path)
        #expect(error.message.hasPrefix("the config \(path) is writable by others (the users of group 'staff')"))
        #expect(error.message.hasSuffix("fix it with: chmod go-w \(path)"))
    }

    // Debian's user private groups (umask 002) make every file group-writable by a group that
    // holds only its user: that is no one else.
    @Test("A config writable by its owner's private group is loaded",
          .enabled(if: Permissions.isPrivateGroup(getegid(), of: geteuid()), "the user has no private group"))
    func privateGroup() throws {
        let path = try TemporaryDirectory().write("config.toml", Self.binding)
        #expect(chown(path, geteuid(), getegid()) == 0 && chmod(path, 0o664) == 0)
        #expect(try Config.load(contentsOf: path).bindings.count == 1)
    }

    @Test("A config of another user is refused", .enabled(if: isRoot, "needs chown"))
    func otherOwner() throws {
        let path = try TemporaryDirectory().write("config.toml", Self.binding)
        #expect(chown(path, 65534, 65534) == 0 && chmod(path, 0o644) == 0)
        let error = try Self.refusal(path)
        #expect(error.message.hasPrefix("the config \(path) belongs to user 'nobody', who could make gesture-bridge run any program"))
        #expect(error.message.hasSuffix("fix it with: sudo chown root \(path)"))
    }

    @Test("A config in a directory others can write is refused, unless the directory is sticky")
    func writableDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("shared/config.toml", Self.binding)
        let shared = directory.path + "/shared"
        #expect(chmod(shared, 0o777) == 0)
        let error = try Self.refusal(path)
        #expect(error.message == "the config's directory \(shared) is writable by others (every user), who could replace "
            + "the config \(path) and make gesture-bridge run any program as you; fix it with: chmod go-w \(shared)")
        // With the sticky bit (as /tmp has) others cannot remove or rename the config.
        #expect(chmod(shared, 0o1777) == 0)
        #expect(try Config.load(contentsOf: path).bindings.count == 1)
    }

    @Test("Any directory above the config counts, not only its own")
    func writableAncestor() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("a/b/config.toml", Self.binding)
        #expect(chmod(directory.path + "/a", 0o777) == 0)
        let error = try Self.refusal(path)
        #expect(error.message.hasPrefix("the config's directory \(directory.path)/a is writable by others"))
    }

    // Dotfile managers link the config to a file elsewhere: the file that is read is what counts.
    @Test("Through a symbolic link, the target and its directories are checked")
    func symbolicLink() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write("dotfiles/gesture-bridge.toml", Self.binding)
        let link = directory.path + "/config/config.toml"
        try FileManager.default.createDirectory(atPath: directory.path + "/config", withIntermediateDirectories: true)
        #expect(symlink(target, link) == 0)
        #expect(try Config.load(contentsOf: link).bindings.count == 1)

        #expect(chmod(target, 0o666) == 0)
        let file = try Self.refusal(link)
        #expect(file.message.hasPrefix("the config \(link) (a link to \(target)) is writable by others"))
        #expect(file.message.hasSuffix("fix it with: chmod go-w \(target)"))

        #expect(chmod(target, 0o644) == 0 && chmod(directory.path + "/dotfiles", 0o777) == 0)
        let targetDirectory = try Self.refusal(link)
        #expect(targetDirectory.message.hasPrefix("the config's directory \(directory.path)/dotfiles is writable by others"))

        #expect(chmod(directory.path + "/dotfiles", 0o755) == 0 && chmod(directory.path + "/config", 0o777) == 0)
        let linkDirectory = try Self.refusal(link)
        #expect(linkDirectory.message.hasPrefix("the config's directory \(directory.path)/config is writable by others"))
    }
}
