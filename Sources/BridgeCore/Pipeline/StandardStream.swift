/// Writes whole lines straight to a file descriptor: nothing is buffered, so each line is out
/// the moment it is written (what `--dry-run` and `replay` promise), and no C `FILE *` global
/// is touched (Swift 6 rejects them as shared mutable state).
public enum StandardStream {
    /// Standard output.
    public static let output: Int32 = 1
    /// Standard error.
    public static let error: Int32 = 2

    /// Writes `text` and a newline to `fd`, retrying short writes and interrupts.
    public static func writeLine(_ text: String, to fd: Int32 = output) {
        var bytes = Array(text.utf8)
        bytes.append(10)
        // A failure is a closed pipe or the like: nothing more can be said.
        bytes.withUnsafeBytes { _ = try? SystemCall.writeAll(fd, $0) }
    }
}
