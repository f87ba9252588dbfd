import BridgeCore
import Foundation
import Testing

@Suite("the config file watcher")
struct FileWatcherTests {
    @Test("a write to the watched file is seen, one to its neighbour is not, a rename over it is")
    func changes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("file-watcher-\(UUID())").path
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
