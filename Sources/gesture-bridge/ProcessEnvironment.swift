#if canImport(Glibc)
import Glibc
#endif

/// The process environment as a dictionary, read once (no Foundation in the executable's
/// hot paths; `environ` is read before any thread starts).
enum ProcessEnvironment {
    static var current: [String: String] {
        var result: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") {
                result[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
            p += 1
        }
        return result
    }
}
