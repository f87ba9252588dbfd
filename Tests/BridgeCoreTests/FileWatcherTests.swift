import BridgeCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureTestKit
import Testing

@Suite("the config file watcher")
struct FileWatcherTests {
    @Test("a write to the watched file is seen, one to its neighbour is not, a rename over it is")
    func changes() throws {
        let directory = TestScratch.path("file-watcher")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try "a = 1\n".write(toFile: path, atomically: false, encoding: .utf8)

        let watcher = try #require(FileWatcher(path: path))
        #expect(!watcher.drainChanges())
        try "b = 2\n".write(toFile: directory + "/config.toml.bak", atomically: false, encoding: .utf8)
        #expect(!watcher.drainChanges())
        try "a = 2\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(watcher.drainChanges())
        #expect(!watcher.drainChanges())
        // How editors save: a new file renamed over the old one.
        try "a = 3\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(watcher.drainChanges())
    }
}

/// The watches that follow a config wherever dotfile managers and editors put it (issue 9,
/// items 6 and 16): a file that does not exist yet, a symlink and its target, a directory that
/// is replaced.
@Suite("the config file watcher, following the file")
struct FileWatcherFollowingTests {
    /// A fresh scratch directory, removed at the end.
    private final class Scratch {
        let path: String
        init() throws {
            path = TestScratch.path("file-watcher")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        func write(_ relative: String, _ text: String, atomically: Bool = false) throws {
            try text.write(toFile: path + "/" + relative, atomically: atomically, encoding: .utf8)
        }
        func mkdir(_ relative: String) throws {
            try FileManager.default.createDirectory(atPath: path + "/" + relative, withIntermediateDirectories: true)
        }
        func symlink(_ relative: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: path + "/" + relative, withDestinationPath: target)
        }
        func move(_ from: String, _ to: String) throws {
            #expect(rename(path + "/" + from, path + "/" + to) == 0)
        }
    }

    @Test("a config whose directories do not exist yet is seen when it is created")
    func missingDirectories() throws {
        let scratch = try Scratch()
        let watcher = try #require(FileWatcher(paths: [scratch.path + "/xdg/gesture-bridge/config.toml"]))
        try scratch.mkdir("xdg")
        #expect(watcher.drainChanges())  // a directory on the way appeared
        try scratch.mkdir("xdg/gesture-bridge")
        #expect(watcher.drainChanges())
        try scratch.write("xdg/gesture-bridge/other.toml", "a = 1\n")
        #expect(!watcher.drainChanges())
        try scratch.write("xdg/gesture-bridge/config.toml", "a = 1\n")
        #expect(watcher.drainChanges())
        try scratch.write("xdg/gesture-bridge/config.toml", "a = 2\n")
        #expect(watcher.drainChanges())
    }

    @Test("a directory created with the config already in it (mkdir -p and write at once) is seen")
    func directoryCreatedWithTheFile() throws {
        let scratch = try Scratch()
        let watcher = try #require(FileWatcher(paths: [scratch.path + "/xdg/gesture-bridge/config.toml"]))
        try scratch.mkdir("xdg/gesture-bridge")
        try scratch.write("xdg/gesture-bridge/config.toml", "a = 1\n")
        #expect(watcher.drainChanges())
        // Now watched where it is: a later edit is seen too.
        try scratch.write("xdg/gesture-bridge/config.toml", "a = 2\n")
        #expect(watcher.drainChanges())
    }

    @Test("a config that is a symlink: edits of its target are seen, in place or by rename")
    func symlinkTargetEdits() throws {
        let scratch = try Scratch()
        try scratch.mkdir("dotfiles")
        try scratch.mkdir("config")
        try scratch.write("dotfiles/gesture-bridge.toml", "a = 1\n")
        // Relative, as GNU stow makes them.
        try scratch.symlink("config/config.toml", to: "../dotfiles/gesture-bridge.toml")
        let watcher = try #require(FileWatcher(paths: [scratch.path + "/config/config.toml"]))
        #expect(!watcher.drainChanges())
        try scratch.write("dotfiles/gesture-bridge.toml", "a = 2\n")
        #expect(watcher.drainChanges())
        try scratch.write("dotfiles/gesture-bridge.toml", "a = 3\n", atomically: true)
        #expect(watcher.drainChanges())
        try scratch.write("dotfiles/unrelated.toml", "a = 3\n")
        #expect(!watcher.drainChanges())
    }

    @Test("a symlink re-pointed to another file is seen, and then that file's edits")
    func symlinkRepointed() throws {
        let scratch = try Scratch()
        try scratch.mkdir("generation-1")
        try scratch.mkdir("generation-2")
        try scratch.mkdir("config")
        try scratch.write("generation-1/config.toml", "a = 1\n")
        try scratch.write("generation-2/config.toml", "a = 2\n")
        try scratch.symlink("config/config.toml", to: scratch.path + "/generation-1/config.toml")
        let watcher = try #require(FileWatcher(paths: [scratch.path + "/config/config.toml"]))
        // As home-manager and `ln -sfn` do it: a new link renamed over the old one.
        try scratch.symlink("config/.config.toml.new", to: scratch.path + "/generation-2/config.toml")
        try scratch.move("config/.config.toml.new", "config/config.toml")
        #expect(watcher.drainChanges())
        try scratch.write("generation-2/config.toml", "a = 3\n")
        #expect(watcher.drainChanges())
        // The old target no longer matters.
        try scratch.write("generation-1/config.toml", "a = 4\n")
        #expect(!watcher.drainChanges())
    }

    @Test("a directory symlink (stow's folding) re-pointed elsewhere is seen")
    func directorySymlinkRepointed() throws {
        let scratch = try Scratch()
        try scratch.mkdir("a")
        try scratch.mkdir("b")
        try scratch.mkdir("xdg")
        try scratch.write("a/config.toml", "a = 1\n")
        try scratch.write("b/config.toml", "a = 2\n")
        try scratch.symlink("xdg/gesture-bridge", to: "../a")
        let watcher = try #require(FileWatcher(paths: [scratch.path + "/xdg/gesture-bridge/config.toml"]))
        try scratch.write("a/config.toml", "a = 3\n")
        #expect(watcher.drainChanges())
        try scratch.symlink("xdg/.new", to: "../b")
        try scratch.move("xdg/.new", "xdg/gesture-bridge")
        #expect(watcher.drainChanges())
        try scratch.write("b/config.toml", "a = 4\n")
        #expect(watcher.drainChanges())
    }

    @Test("the config's directory replaced (mv dir dir.old; mkdir dir) is followed")
    func directoryReplaced() throws {
        let scratch = try Scratch()
        try scratch.mkdir("dir")
        try scratch.write("dir/config.toml", "a = 1\n")
        let watcher = try #require(FileWatcher(paths: [scratch.path + "/dir/config.toml"]))
        try scratch.move("dir", "dir.old")
        try scratch.mkdir("dir")
        try scratch.write("dir/config.toml", "a = 2\n")
        #expect(watcher.drainChanges())
        try scratch.write("dir/config.toml", "a = 3\n")
        #expect(watcher.drainChanges())
        // The old directory is no longer the config's.
        try scratch.write("dir.old/config.toml", "a = 4\n")
        #expect(!watcher.drainChanges())
    }

    /// `config/config.toml` → `links/1` → … → `links/N` → `dotfiles/gesture-bridge.toml`.
    private func chain(of links: Int, in scratch: Scratch) throws {
        try scratch.mkdir("dotfiles")
        try scratch.mkdir("config")
        try scratch.mkdir("links")
        try scratch.write("dotfiles/gesture-bridge.toml", "a = 1\n")
        try scratch.symlink("links/\(links)", to: "../dotfiles/gesture-bridge.toml")
        for k in stride(from: links - 1, through: 1, by: -1) { try scratch.symlink("links/\(k)", to: "\(k + 1)") }
        try scratch.symlink("config/config.toml", to: "../links/1")
    }

    // A chain of 17 links was silently not followed (issue 25, item 9): the kernel follows 40.
    @Test("a chain of up to 40 symlinks is followed to its file", arguments: [17, 30, 39])
    func longSymlinkChain(links: Int) throws {
        let scratch = try Scratch()
        try chain(of: links, in: scratch)
        let path = scratch.path + "/config/config.toml"
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a = 1\n")
        let watcher = try #require(FileWatcher(paths: [path]))
        #expect(watcher.overlongChains.isEmpty)
        try scratch.write("dotfiles/gesture-bridge.toml", "a = 2\n")
        #expect(watcher.drainChanges())
    }

    @Test("a chain longer than the kernel follows is noted, and the follower warns once")
    func overlongSymlinkChain() throws {
        let scratch = try Scratch()
        try chain(of: 40, in: scratch)
        let path = scratch.path + "/config/config.toml"
        // 41 links: the kernel refuses it too.
        #expect(throws: (any Error).self) { try String(contentsOfFile: path, encoding: .utf8) }
        let watcher = try #require(FileWatcher(paths: [path]))
        #expect(watcher.overlongChains == [path])

        let follower = ConfigFollower(search: ConfigSearch(explicit: path, environment: [:]), source: .file(path))
        let warnings = follower.newWatchWarnings()
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("\(path) leads through more than 40 symbolic links") == true, "\(warnings)")
        #expect(follower.newWatchWarnings().isEmpty, "said once")
    }

    /// Whether the watcher's descriptor has anything to read: what would wake the daemon's `poll`.
    private static func wakes(_ watcher: FileWatcher) -> Bool {
        var fd = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) == 1 && fd.revents & Int16(POLLIN) != 0
    }

    /// What other programs do in a busy directory (`/tmp`, `~`): files created, written,
    /// chmodded, renamed and removed beside the config, a thousand of them.
    private static func busy(_ scratch: Scratch, in directory: String) throws {
        for k in 0..<1000 {
            let name = "\(directory)/neighbour-\(k)"
            try scratch.write(name, "x = \(k)\n")
            switch k % 4 {
            case 0: try scratch.move(name, name + ".renamed")
            case 1: #expect(chmod(scratch.path + "/" + name, 0o600) == 0)
            case 2: #expect(unlink(scratch.path + "/" + name) == 0)
            default: try scratch.write(name, "x = \(k + 1)\n", atomically: true)
            }
        }
    }

    // The daemon followed its config's whole directory: kept in /tmp or ~, it woke for every
    // file anyone created there (issue 27, item 3).
    @Test("a thousand files made beside the config wake nothing; replacing the config is seen")
    func busyDirectory() throws {
        let scratch = try Scratch()
        try scratch.mkdir("tmp")
        try scratch.write("tmp/config.toml", "a = 1\n")
        let watcher = try #require(FileWatcher(paths: [scratch.path + "/tmp/config.toml"]))
        try Self.busy(scratch, in: "tmp")
        #expect(!Self.wakes(watcher), "wake-ups for the neighbours")
        #expect(!watcher.drainChanges())
        // How editors save: a new file renamed over the old one; then a removal and a new file.
        try scratch.write("tmp/config.toml", "a = 2\n", atomically: true)
        #expect(watcher.drainChanges())
        try Self.busy(scratch, in: "tmp")
        #expect(!Self.wakes(watcher), "wake-ups for the neighbours after the rename")
        #expect(unlink(scratch.path + "/tmp/config.toml") == 0)
        #expect(watcher.drainChanges())
        try scratch.write("tmp/config.toml", "a = 3\n")
        #expect(watcher.drainChanges())
        try scratch.write("tmp/config.toml", "a = 4\n")
        #expect(watcher.drainChanges())
        try Self.busy(scratch, in: "tmp")
        #expect(!Self.wakes(watcher), "wake-ups for the neighbours after the config came back")
    }

    @Test("a config symlinked from a busy directory into a busy one wakes nothing for the neighbours")
    func busyDirectoriesOfASymlink() throws {
        let scratch = try Scratch()
        try scratch.mkdir("home")
        try scratch.mkdir("dotfiles")
        try scratch.write("dotfiles/gesture-bridge.toml", "a = 1\n")
        try scratch.symlink("home/config.toml", to: "../dotfiles/gesture-bridge.toml")
        let watcher = try #require(FileWatcher(paths: [scratch.path + "/home/config.toml"]))
        try Self.busy(scratch, in: "home")
        try Self.busy(scratch, in: "dotfiles")
        #expect(!Self.wakes(watcher))
        try scratch.write("dotfiles/gesture-bridge.toml", "a = 2\n", atomically: true)
        #expect(watcher.drainChanges())
        try scratch.symlink("home/.new", to: "../dotfiles/neighbour-3")
        try scratch.move("home/.new", "home/config.toml")
        #expect(watcher.drainChanges())
        try scratch.write("dotfiles/neighbour-3", "a = 3\n")
        #expect(watcher.drainChanges())
    }

    @Test("every path of a search path is watched")
    func severalPaths() throws {
        let scratch = try Scratch()
        try scratch.mkdir("system/gesture-bridge")
        try scratch.write("system/gesture-bridge/config.toml", "a = 1\n")
        let watcher = try #require(FileWatcher(paths: [
            scratch.path + "/user/gesture-bridge/config.toml", scratch.path + "/system/gesture-bridge/config.toml",
        ]))
        try scratch.write("system/gesture-bridge/config.toml", "a = 2\n")
        #expect(watcher.drainChanges())
        try scratch.mkdir("user/gesture-bridge")
        #expect(watcher.drainChanges())
        try scratch.write("user/gesture-bridge/config.toml", "a = 1\n")
        #expect(watcher.drainChanges())
    }
}
