import BridgeCore
internal import CLinux
import Glibc
import GestureConfig

/// How an `exec` child ended.
public struct ChildExit: Hashable, Sendable, CustomStringConvertible {
    /// How a process ends.
    public enum Termination: Hashable, Sendable {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
    }

    public var pid: Int32
    /// `argv[0]` as it was started.
    public var program: String
    public var termination: Termination

    public var description: String {
        switch termination {
        case .exited(let status): "\(Excerpt.of(program)) (pid \(pid)) exited with status \(status)"
        case .signaled(let signal): "\(Excerpt.of(program)) (pid \(pid)) was ended by signal \(signal)"
        }
    }
}

/// Starts the programs of `exec` actions and reaps them.
///
/// A child is started with `posix_spawnp` — no shell, `argv` exactly as given, `argv[0]`
/// looked up in `PATH` — with stdin from `/dev/null`, stdout and stderr inherited (the daemon's
/// log) and no other descriptor (every one from 3 up is closed in the child, those the daemon
/// itself inherited included), in a new session (so it has its own process group, no controlling terminal, and a
/// signal to the daemon's group does not reach it), with an empty signal mask and default
/// dispositions (the daemon blocks signals for its `signalfd`, and a child must not inherit
/// that). Starting never waits for the child.
///
/// Only the children started here are reaped (`waitpid` on each pid, never `-1`), so other
/// children of the process are left to whoever started them.
final class ProcessLauncher {
    /// The children started and not yet reaped, by pid, with their `argv[0]`.
    private(set) var running: [pid_t: String] = [:]

    /// Starts `argv` and returns its pid without waiting for it.
    func spawn(_ argv: [String]) throws(ActionError) -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw ActionError("exec: no program given") }
        if let bad = argv.first(where: { $0.utf8.contains(0) }) {
            throw ActionError("exec \(Excerpt.of(program)): argument \"\(Excerpt.of(bad))\" contains a NUL byte")
        }

        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, signal)
        }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }

        var pid: pid_t = 0
        do throws(SystemError) {
            var actions = posix_spawn_file_actions_t()
            try SystemCall.returningErrno("posix_spawn_file_actions_init") { posix_spawn_file_actions_init(&actions) }
            defer { posix_spawn_file_actions_destroy(&actions) }
            try SystemCall.returningErrno("posix_spawn_file_actions_addopen") {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
            // Only 0–2 reach the child: not only ours (all close-on-exec), but also whatever the
            // daemon inherited open from its own parent (a session manager, a terminal).
            try SystemCall.returningErrno("posix_spawn_file_actions_addclosefrom_np") {
                CLinux_posix_spawn_file_actions_addclosefrom(&actions, 3)
            }

            var attributes = posix_spawnattr_t()
            try SystemCall.returningErrno("posix_spawnattr_init") { posix_spawnattr_init(&attributes) }
            defer { posix_spawnattr_destroy(&attributes) }
            let flags = CLinux_POSIX_SPAWN_SETSID | Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF)
            try SystemCall.returningErrno("posix_spawnattr_setflags") { posix_spawnattr_setflags(&attributes, flags) }
            try SystemCall.returningErrno("posix_spawnattr_setsigmask") { posix_spawnattr_setsigmask(&attributes, &noSignals) }
            try SystemCall.returningErrno("posix_spawnattr_setsigdefault") { posix_spawnattr_setsigdefault(&attributes, &defaults) }

            try SystemCall.returningErrno("posix_spawnp") {
                posix_spawnp(&pid, program, &actions, &attributes, cArguments, environ)
            }
        } catch {
            throw ActionError("exec \(Excerpt.of(program)): cannot start it: \(error.message)")
        }
        running[pid] = program
        return pid
    }

    /// Reaps every child started here that has ended, without waiting.
    func reap() -> [ChildExit] {
        var exits: [ChildExit] = []
        for (pid, program) in running {
            var status: Int32 = 0
            do throws(SystemError) {
                let result = try SystemCall.retryingInterrupts("waitpid") { waitpid(pid, &status, WNOHANG) }
                guard result == pid else { continue }  // still running
                running[pid] = nil
                exits.append(ChildExit(pid: pid, program: program, termination: Self.termination(status)))
            } catch where error.code == .noChildProcess {
                running[pid] = nil  // reaped elsewhere; nothing more to learn
            } catch {
                // Asked again on the next SIGCHLD.
            }
        }
        return exits.sorted { $0.pid < $1.pid }
    }

    /// Decodes a `waitpid` status.
    static func termination(_ status: Int32) -> ChildExit.Termination {
        // Without WUNTRACED or WCONTINUED, waitpid reports only exits and deaths by a signal.
        CLinux_WIFEXITED(status) ? .exited(CLinux_WEXITSTATUS(status)) : .signaled(CLinux_WTERMSIG(status))
    }
}
