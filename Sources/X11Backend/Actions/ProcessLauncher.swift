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
/// A child is started by ``ProcessSpawner`` — no shell, `argv` exactly as given, `argv[0]`
/// looked up in `PATH`, stdin from `/dev/null`, only descriptors 0–2, a session of its own,
/// default signals, no service-manager variables — and never waited for.
///
/// Only the children started here are reaped (`waitpid` on each pid, never `-1`), so other
/// children of the process (the daemon's watcher) are left to whoever started them.
final class ProcessLauncher {
    /// The children started and not yet reaped, by pid, with their `argv[0]`.
    private(set) var running: [pid_t: String] = [:]

    /// Starts `argv` and returns its pid without waiting for it.
    func spawn(_ argv: [String]) throws(ActionError) -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw ActionError("exec: no program given") }
        if let bad = argv.first(where: { $0.utf8.contains(0) }) {
            throw ActionError("exec \(Excerpt.of(program)): argument \"\(Excerpt.of(bad))\" contains a NUL byte")
        }
        let pid: pid_t
        do throws(SystemError) {
            pid = try ProcessSpawner.spawn(argv, searchingPath: true)
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
