import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// `gesture-bridge shapes`: where the picture of the built-in stroke shapes is installed.
///
/// The picture (docs/shapes.svg in the source tree) shows each of the 16 shapes with a dot
/// where it starts and an arrowhead where it ends; `make install` and the Debian package put it
/// beside the documentation, `PREFIX/share/doc/gesture-bridge/shapes.svg`, which is found from
/// where this binary is (`PREFIX/bin`). Printed alone on standard output, so that
/// `xdg-open "$(gesture-bridge shapes)"` shows it.
struct ShapesCommand: ParsableCommand, GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "shapes",
        abstract: "Print where the picture of the built-in stroke shapes is (xdg-open \"$(gesture-bridge shapes)\").",
        discussion: """
            The picture shows the 16 built-in shapes, with a dot where each starts and an arrowhead \
            where it ends: triangle, x, rectangle, circle, check, caret, zig-zag, arrow, \
            left-square-bracket, right-square-bracket, v, delete, left-curly-brace, \
            right-curly-brace, star, pigtail. It is installed with the documentation, \
            PREFIX/share/doc/gesture-bridge/shapes.svg for the PREFIX/bin this program is in; \
            exit 1 when it is not there (a build that was not installed: docs/shapes.svg in the source).
            """
    )

    @OptionGroup(visibility: .hidden) var configOption: ConfigOption
    @OptionGroup(visibility: .hidden) var dryRunFlag: DryRunFlag
    @OptionGroup(visibility: .hidden) var jsonFlag: JSONFlag
    @OptionGroup(visibility: .hidden) var verboseFlag: VerboseFlag

    /// The picture, relative to the directory of the installed binary.
    static let relativePath = "../share/doc/gesture-bridge/shapes.svg"

    func validate() throws {
        try global.refuse(for: "shapes", [
            (.dryRun, "it only prints a path"), (.json, "it prints a path"), (.verbose, "it prints a path"),
        ])
    }

    func run() throws {
        guard let binary = Self.executablePath(), let slash = binary.lastIndex(of: "/") else {
            complain("cannot tell where gesture-bridge is installed (/proc/self/exe is not readable)")
            throw ExitCode(1)
        }
        let path = Self.normalized(String(binary[..<slash]) + "/" + Self.relativePath)
        guard access(path, R_OK) == 0 else {
            complain("the picture of the built-in shapes is not installed beside this gesture-bridge (no \(path)); "
                + "in the source tree it is docs/shapes.svg, and `make install` installs it")
            throw ExitCode(1)
        }
        print(path)
    }

    /// This program's own path, symbolic links resolved.
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with its `dir/..` pairs and `.` components removed (`/usr/bin/../share` → `/usr/share`).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
