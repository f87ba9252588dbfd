import Glibc

/// Writes whole lines straight to a file descriptor: nothing is buffered, so each line is out
/// the moment it is written (what `--dry-run` and `replay` promise), and no C `FILE *` global
/// is touched (Swift 6 rejects them as shared mutable state).
public enum StandardStream {
    /// Standard output.
    public static let output: Int32 = 1
    /// Standard error.
    public static let error: Int32 = 2

    /// Makes sure descriptors 0, 1 and 2 are open, opening `/dev/null` for any that is closed.
    ///
    /// Run first in `main`, before anything opens a file or a socket: a process started with
    /// one of them closed would otherwise get its next descriptor there — the X connection as
    /// descriptor 2, say, and every log line written into the X protocol stream.
    ///
    /// - Returns: false when one is closed and `/dev/null` cannot be opened.
    @discardableResult
    public static func openMissingStandardDescriptors() -> Bool {
        for descriptor: Int32 in 0...2 {
            do throws(SystemError) {
                _ = try SystemCall.retryingInterrupts("fcntl") { fcntl(descriptor, F_GETFD) }
                continue
            } catch where error.code == Errno(rawValue: EBADF) {
                // Closed: fill it below.
            } catch {
                continue
            }
            // No O_CLOEXEC: the standard descriptors are meant to reach the programs we start.
            guard let opened = try? SystemCall.retryingInterrupts("open", { open("/dev/null", O_RDWR) }) else { return false }
            // The lowest free descriptor is the one missing, as the lower ones are open; just in case:
            if opened != descriptor {
                _ = try? SystemCall.retryingInterrupts("dup2") { dup2(opened, descriptor) }
                SystemCall.close(opened)
            }
        }
        return true
    }

    /// Writes `text` and a newline to `fd`, retrying short writes and interrupts.
    public static func writeLine(_ text: String, to fd: Int32 = output) {
        var bytes = Array(text.utf8)
        bytes.append(10)
        // A failure is a closed pipe or the like: nothing more can be said.
        bytes.withUnsafeBytes { _ = try? SystemCall.writeAll(fd, $0) }
    }
}
