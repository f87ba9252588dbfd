#if canImport(Glibc)
import Glibc
#endif

/// One kept fuzz input: a seed, or an input that once broke a promise.
public struct FuzzInput: Sendable, CustomStringConvertible {
    /// The target it is for.
    public let target: FuzzTarget
    /// Its path below the package root, e.g. `Fuzz/Regressions/engine/crash-…`.
    public let path: String
    /// Its bytes.
    public let bytes: [UInt8]

    /// The path: what Swift Testing shows for the test case.
    public var description: String { path }
}

/// The fuzz inputs kept in the source tree, which `swift test` runs through the same checks as
/// the fuzzers (``FuzzTarget/violations(_:)``):
///
/// - `Fuzz/Regressions/<target>/`: every input a fuzzer found breaking a promise, kept after the
///   fix (`scripts/fuzz` copies new ones there);
/// - `Fuzz/Seeds/<target>/`: the hand-written start of each corpus.
///
/// ```swift
/// @Test(arguments: FuzzCorpus.kept()) func keptInput(_ input: FuzzInput) {
///     #expect(input.target.violations(input.bytes) == [])
/// }
/// ```
public enum FuzzCorpus {
    /// The folders, below the package root, whose files are kept inputs.
    public static let folders = ["Fuzz/Regressions", "Fuzz/Seeds"]

    /// Every kept input of every target, sorted by path.
    public static func kept() -> [FuzzInput] {
        var inputs: [FuzzInput] = []
        for folder in folders {
            for target in FuzzTarget.allCases {
                let relative = folder + "/" + target.rawValue
                for name in fileNames(in: SourceTree.path(relative)) where !name.hasPrefix(".") {
                    let path = relative + "/" + name
                    if let bytes = contents(of: SourceTree.path(path)) {
                        inputs.append(FuzzInput(target: target, path: path, bytes: bytes))
                    }
                }
            }
        }
        return inputs.sorted { $0.path < $1.path }
    }

    /// The names of the regular files in `directory` (none when it does not exist).
    static func fileNames(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            guard entry.pointee.d_type == UInt8(DT_REG) else { continue }
            names.append(TestScratch.entryName(entry))
        }
        return names
    }

    /// A file's bytes, or nil when it cannot be read.
    static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[..<n])
        }
        return ferror(file) == 0 ? bytes : nil
    }
}
