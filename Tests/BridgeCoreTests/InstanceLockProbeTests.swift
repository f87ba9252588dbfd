import BridgeCore
import Foundation
import GestureTestKit
import Glibc
import Testing

/// `doctor`'s look at the single-instance lock: it finds a holder without taking the lock for
/// real, creates nothing, writes nothing, and leaves the lock free for a daemon at once.
@Suite("looking at the single-instance lock")
struct InstanceLockProbeTests {
    private static func directory() throws -> String {
        let path = TestScratch.path("instance-probe")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return path
    }

    @Test("no lock file: free, and no file is made")
    func noFile() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let probe = try InstanceLock.probe(display: ":81", environment: ["XDG_RUNTIME_DIR": dir])
        #expect(probe == .free(path: dir + "/gesture-bridge-display-81.lock"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/gesture-bridge-display-81.lock"))
    }

    @Test("a held lock is found with the holder's pid, under any spelling of the display; once released it is free, and the probe never keeps it")
    func heldThenFree() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let environment = ["XDG_RUNTIME_DIR": dir]
        let path = dir + "/gesture-bridge-display-82.lock"
        var lock: InstanceLock? = try InstanceLock(display: ":82", environment: environment)
        #expect(try InstanceLock.probe(display: "unix:82.0", environment: environment) == .held(path: path, pid: Int(getpid())))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n", "the holder's file is not touched")
        withExtendedLifetime(lock) {}
        lock = nil
        #expect(try InstanceLock.probe(display: ":82", environment: environment) == .free(path: path))
        // The probe let go at once: a daemon takes the lock right after it.
        let taken = try InstanceLock(display: ":82", environment: environment)
        #expect(taken.path == path)
    }

    @Test("a symlink at the lock's path is refused as the daemon would refuse it")
    func symlinkRefused() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/gesture-bridge-display-83.lock", withDestinationPath: dir + "/elsewhere")
        do {
            _ = try InstanceLock.probe(display: ":83", environment: ["XDG_RUNTIME_DIR": dir])
            Issue.record("a symlink was followed")
        } catch {
            guard case .unsafe = error else { Issue.record("\(error)"); return }
        }
    }
}
