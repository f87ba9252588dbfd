import CLinux
import Foundation

/// A program the harness runs (Xvfb, openbox), started with `posix_spawnp` so that it gets an
/// empty signal mask and default signal dispositions whatever thread starts it, with stdin from
/// `/dev/null` and stdout and stderr into a log file; stopped by its PID.
///
/// It gets no other descriptor of the test process: tests run in parallel, and a file or pipe
/// another test has open at that moment (without close-on-exec) would otherwise show up among
/// the program's descriptors. `inheriting` passes some on deliberately (descriptors above the
/// highest of them are closed).
///
/// For tests of how a program copes with odd standard descriptors, `standardOutput` puts a
/// descriptor of the caller's on stdout instead, and `closing` leaves some of 0, 1 and 2 closed.
final class ChildProcess {
    let pid: pid_t
    private var exited = false
    /// The exit code once it has exited (128 + N when signal N ended it).
    private(set) var exitCode: Int32?

    init(
        _ argv: [String], environment: [String: String], log: String, standardOutput: Int32? = nil, closing: [Int32] = [],
        inheriting: [Int32] = []
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        }
        for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }
        CLinux_posix_spawn_file_actions_addclosefrom(&actions, (inheriting.max() ?? 2) + 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let arguments = argv.map { strdup($0) } + [nil]
        let environmentStrings = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            environmentStrings.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, argv[0], &actions, &attributes, arguments, environmentStrings)
        guard status == 0 else { throw HarnessError("cannot start \(argv[0]): \(String(cString: strerror(status)))") }
        self.pid = pid
    }

    deinit { stop() }

    /// True until the process has exited (and been reaped, here: reap it only through this
    /// object, or `stop()` would signal a PID that may belong to another process by then).
    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid {
            exited = true
            exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        } else if reaped < 0 && errno == ECHILD {
            exited = true  // reaped elsewhere: never signal this PID again
        }
        return !exited
    }

    /// Waits up to `timeout` for the process to exit; its exit code, or nil while it runs.
    func waitForExit(timeout: Duration) -> Int32? {
        _ = poll(timeout: timeout) { !isRunning }
        return exited ? exitCode : nil
    }

    /// SIGTERM, then SIGKILL if it is still running after a grace period; reaps it.
    func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if !poll(timeout: .seconds(5), { !isRunning }) {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exited = true
        }
    }
}
