internal import CX11
import BridgeCore
import Glibc

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
        case .exited(let status): "\(program) (pid \(pid)) exited with status \(status)"
        case .signaled(let signal): "\(program) (pid \(pid)) was ended by signal \(signal)"
        }
    }
}

/// Starts the programs of `exec` actions and reaps them.
///
/// A child is started with `posix_spawnp` — no shell, `argv` exactly as given, `argv[0]`
/// looked up in `PATH` — with stdin from `/dev/null`, stdout and stderr inherited (the daemon's
/// log), in a new session (so it has its own process group, no controlling terminal, and a
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
            throw ActionError("exec \(program): argument \"\(bad)\" contains a NUL byte")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes, GB_POSIX_SPAWN_SETSID | Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, program, &actions, &attributes, cArguments, environ)
        guard status == 0 else {
            throw ActionError("exec \(program): cannot start it: \(String(cString: strerror(status)))")
        }
        running[pid] = program
        return pid
    }

    /// Reaps every child started here that has ended, without waiting.
    func reap() -> [ChildExit] {
        var exits: [ChildExit] = []
        for (pid, program) in running {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                running[pid] = nil
                exits.append(ChildExit(pid: pid, program: program, termination: Self.termination(status)))
            } else if result == -1, errno == ECHILD {
                running[pid] = nil  // reaped elsewhere; nothing more to learn
            }
        }
        return exits.sorted { $0.pid < $1.pid }
    }

    /// Decodes a `waitpid` status (`WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` are macros Swift does
    /// not import; this is their Linux definition).
    static func termination(_ status: Int32) -> ChildExit.Termination {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}
