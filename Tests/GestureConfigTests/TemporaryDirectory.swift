import Foundation
import GestureTestKit

/// A fresh directory for tests that need real files, below the test process's own
/// (``TestScratch``, removed when the process exits). Each test makes its own, so tests can run
/// in parallel.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = TestScratch.path("gesture-config-tests")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `relativePath` (creating directories on the way) and returns its path.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        try write(relativePath, bytes: Array(text.utf8))
    }

    /// Writes raw bytes to `relativePath` (creating directories on the way) and returns its path.
    @discardableResult
    func write(_ relativePath: String, bytes: [UInt8]) throws -> String {
        let file = path + "/" + relativePath
        let directory = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}
