/// Files of this package's source tree (fixtures, docs, the default config), found from where
/// this file was compiled, so a test finds them whatever its working directory.
///
/// ```swift
/// let reference = SourceTree.path("docs/config.md")
/// ```
public enum SourceTree {
    /// The package root (the folder of `Package.swift`), with no trailing slash.
    public static let root: String = {
        // This file is <root>/Tests/GestureTestKit/SourceTree.swift.
        var path = #filePath
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    /// The path of `relativePath` (e.g. `docs/config.md`) below the package root.
    public static func path(_ relativePath: String) -> String { root + "/" + relativePath }
}
