import BridgeCore
import Foundation
import GestureTestKit
import Glibc
import Testing

/// The single-instance lock (issue 9, item 12): keyed on the display, private, never following
/// a symlink, never writing to a file it does not own.
@Suite("the single-instance lock")
struct InstanceLockTests {
    /// A scratch directory, mode 0700, removed at the end.
    private final class Directory {
        let path: String
        init() throws {
            path = TestScratch.path("instance-lock")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test("the spellings of one local display are one key", arguments: [":70", ":70.0", "unix:70", "unix/:70", "local/:70.1", "UNIX:70.2"])
    func localSpellings(name: String) {
        #expect(DisplayAddress(name).lockKey == "display-70")
        #expect(DisplayAddress(name) == DisplayAddress(":70"))
    }

    @Test("other hosts, localhost included, and other numbers are other keys")
    func otherDisplays() {
        #expect(DisplayAddress("localhost:70").lockKey == "display-localhost-70")
        #expect(DisplayAddress("tcp/Host.Example:10.0").lockKey == "display-host.example-10")
        #expect(DisplayAddress(":7").lockKey != DisplayAddress(":70").lockKey)
        #expect(DisplayAddress("localhost:70") != DisplayAddress(":70"))
        #expect(DisplayAddress("[::1]:3").lockKey == "display-__1-3")
        // Not an address: kept whole, still a safe file name.
        #expect(DisplayAddress("no display/here").lockKey == "display-no_display_here")
    }

    @Test("two instances on :N and :N.0 conflict")
    func spellingsConflict() throws {
        let dir = try Directory()
        let environment = ["XDG_RUNTIME_DIR": dir.path]
        let first = try InstanceLock(display: ":71", environment: environment)
        #expect(first.path == dir.path + "/gesture-bridge-display-71.lock")
        #expect(first.notice == nil)
        #expect(throws: InstanceLock.Failure.self) { _ = try InstanceLock(display: ":71.0", environment: environment) }
        do {
            _ = try InstanceLock(display: "unix:71", environment: environment)
            Issue.record("a second lock was taken")
        } catch {
            guard case .held = error else { Issue.record("\(error)"); return }
        }
        // Another display is not blocked.
        _ = try InstanceLock(display: ":72", environment: environment)
    }

    @Test("a symlink planted at the lock's path is refused, and its target left alone")
    func symlinkIsNotFollowed() throws {
        let dir = try Directory()
        let victim = dir.path + "/precious.txt"
        try "keep me\n".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/gesture-bridge-display-73.lock", withDestinationPath: victim)
        do {
            _ = try InstanceLock(display: ":73", environment: ["XDG_RUNTIME_DIR": dir.path])
            Issue.record("the lock followed a symlink")
        } catch {
            guard case .unsafe = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("symbolic link"))
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
    }

    @Test("a lock file owned by another user is refused and left alone", .enabled(if: geteuid() == 0, "needs root to give a file away"))
    func foreignFileIsNotTruncated() throws {
        let dir = try Directory()
        let path = dir.path + "/gesture-bridge-display-74.lock"
        try "someone else's\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chown(path, 65534, 65534) == 0)
        #expect(throws: InstanceLock.Failure.self) { _ = try InstanceLock(display: ":74", environment: ["XDG_RUNTIME_DIR": dir.path]) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's\n")
    }

    /// This machine's name, as the fallback lock's file name carries it.
    private static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("without XDG_RUNTIME_DIR, a private directory of ours is made in the home's state directory and used")
    func fallbackDirectory() throws {
        let home = try Directory()
        let lock = try InstanceLock(display: ":75", environment: ["HOME": home.path])
        let directory = home.path + "/.local/state/gesture-bridge"
        #expect(lock.path == directory + "/gesture-bridge-\(Self.hostName)-display-75.lock")
        #expect(lock.notice?.contains("XDG_RUNTIME_DIR is not set") == true)
        for made in [home.path + "/.local", home.path + "/.local/state", directory] {
            var status = stat()
            #expect(lstat(made, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o700, "\(made)")
        }
        #expect(throws: InstanceLock.Failure.self) { _ = try InstanceLock(display: ":75.0", environment: ["XDG_RUNTIME_DIR": "", "HOME": home.path]) }
        // XDG_STATE_HOME, when set, is the state directory.
        let state = try Directory()
        let other = try InstanceLock(display: ":75", environment: ["HOME": home.path, "XDG_STATE_HOME": state.path])
        #expect(other.path == state.path + "/gesture-bridge/gesture-bridge-\(Self.hostName)-display-75.lock")
    }

    @Test("without XDG_RUNTIME_DIR nor HOME, the lock is refused with a message that names XDG_RUNTIME_DIR")
    func noPlaceAtAll() throws {
        let thrown = try #require(throws: InstanceLock.Failure.self) { _ = try InstanceLock(display: ":75", environment: [:]) }
        #expect(thrown.description.contains("set XDG_RUNTIME_DIR"), "\(thrown)")
    }

    // Another local user could create /tmp/gesture-bridge-UID first (a directory, a file, a
    // symlink): the daemon then refused to start, asking the user to remove what they cannot
    // remove in the sticky /tmp (issue 25, item 7). The fallback is in the user's home now.
    @Test("a squatted /tmp/gesture-bridge-UID does not matter", .enabled(if: geteuid() == 0, "needs root to plant a file of another user"),
          arguments: ["directory", "file", "symlink"])
    func squattedTemporaryDirectory(kind: String) throws {
        let planted = "/tmp/gesture-bridge-\(geteuid())"
        // Someone's real one (a run of an older gesture-bridge) is left alone.
        guard !FileManager.default.fileExists(atPath: planted), (try? FileManager.default.destinationOfSymbolicLink(atPath: planted)) == nil else { return }
        switch kind {
        case "directory": #expect(mkdir(planted, 0o777) == 0)
        case "file": try "".write(toFile: planted, atomically: false, encoding: .utf8)
        default: #expect(symlink("/nonexistent", planted) == 0)
        }
        defer { _ = kind == "directory" ? rmdir(planted) : unlink(planted) }
        #expect(lchown(planted, 65534, 65534) == 0)
        let home = try Directory()
        let lock = try InstanceLock(display: ":78", environment: ["HOME": home.path])
        #expect(lock.path.hasPrefix(home.path + "/"))
    }

    @Test("a fallback directory others can enter, or a symlink in its place, is refused")
    func unsafeFallbackDirectory() throws {
        let home = try Directory()
        #expect(mkdir(home.path + "/.local", 0o700) == 0 && mkdir(home.path + "/.local/state", 0o700) == 0)
        let directory = home.path + "/.local/state/gesture-bridge"
        #expect(mkdir(directory, 0o700) == 0)
        #expect(chmod(directory, 0o777) == 0)
        #expect(throws: InstanceLock.Failure.self) { _ = try InstanceLock(display: ":76", environment: ["HOME": home.path]) }
        #expect(rmdir(directory) == 0)
        let elsewhere = try Directory()
        #expect(symlink(elsewhere.path, directory) == 0)
        #expect(throws: InstanceLock.Failure.self) { _ = try InstanceLock(display: ":76", environment: ["HOME": home.path]) }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: elsewhere.path)) == [])
    }

    @Test("an XDG_RUNTIME_DIR that others may write to is refused")
    func sharedRuntimeDirectory() throws {
        let dir = try Directory()
        #expect(chmod(dir.path, 0o777) == 0)
        #expect(throws: InstanceLock.Failure.self) { _ = try InstanceLock(display: ":77", environment: ["XDG_RUNTIME_DIR": dir.path]) }
    }
}
