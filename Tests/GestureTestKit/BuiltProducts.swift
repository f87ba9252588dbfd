#if canImport(Glibc)
import Glibc
#endif

/// Where `swift build` / `swift test` put the package's executables: beside the test bundle.
public enum BuiltProducts {
    /// The path of the executable `name` (e.g. `gesture-bridge`) built with the tests.
    public static func executable(named name: String) -> String {
        var dir = CommandLine.arguments[0]
        if let slash = dir.lastIndex(of: "/") { dir = String(dir[..<slash]) } else { dir = "." }
        var parent = dir
        if let slash = parent.lastIndex(of: "/") { parent = String(parent[..<slash]) }
        for candidate in [dir, parent] where access(candidate + "/" + name, X_OK) == 0 {
            return candidate + "/" + name
        }
        return dir + "/" + name
    }
}
