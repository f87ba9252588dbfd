import CLinux
import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program apart from the daemon: the `exec` actions' programs, the daemon's own
/// watcher (``HeldKeyWatch``) and the OSD's glyph renderer.
///
/// `posix_spawn` — no shell, `argv` exactly as given — with standard input from a descriptor
/// given or `/dev/null`, standard output to a descriptor given or inherited and standard error
/// inherited (the daemon's log), one more descriptor as 3 when given, and no other (every one
/// above is closed in the child, those the daemon itself inherited included), in a new session
/// (its own process group, no controlling terminal: a signal to the daemon's group does not
/// reach it), with an empty signal mask and default dispositions
/// (the daemon blocks signals for its `signalfd`, and a child must not inherit that), and
/// without the variables the service manager meant for the daemon alone
/// (``SystemdNotifier/serviceVariables``: a child that found `NOTIFY_SOCKET` could tell
/// systemd the daemon is ready, reloading or stopping). Starting never waits for the child.
///
/// ```swift
/// let pid = try ProcessSpawner.spawn(["notify-send", "hello"], searchingPath: true)
/// ```
public enum ProcessSpawner {
    /// Starts `argv`; `argv[0]` looked up in `PATH` when `searchingPath`, else a path. Returns
    /// its pid.
    ///
    /// - Parameters:
    ///   - argv: the program and its arguments; none may contain NUL.
    ///   - searchingPath: look `argv[0]` up in `PATH` (`posix_spawnp`).
    ///   - input: a descriptor for the child's standard input; nil: `/dev/null`.
    ///   - output: a descriptor for the child's standard output; nil: the daemon's.
    ///   - passing: a descriptor the child gets as its descriptor 3 (the watcher's shared
    ///     page, ``HeldKeyWatch``); nil: none.
    /// - Throws: ``SystemError`` naming the call that failed.
    public static func spawn(
        _ argv: [String], searchingPath: Bool, input: Int32? = nil, output: Int32? = nil, passing: Int32? = nil
    ) throws(SystemError) -> Int32 {
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, signal)
        }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }

        var actions = posix_spawn_file_actions_t()
        try SystemCall.returningErrno("posix_spawn_file_actions_init") { posix_spawn_file_actions_init(&actions) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            try SystemCall.returningErrno("posix_spawn_file_actions_adddup2") { posix_spawn_file_actions_adddup2(&actions, input, 0) }
        } else {
            try SystemCall.returningErrno("posix_spawn_file_actions_addopen") {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
        }
        if let output {
            try SystemCall.returningErrno("posix_spawn_file_actions_adddup2") { posix_spawn_file_actions_adddup2(&actions, output, 1) }
        }
        if let passing {
            try SystemCall.returningErrno("posix_spawn_file_actions_adddup2") { posix_spawn_file_actions_adddup2(&actions, passing, 3) }
        }
        // Only 0–2 (and 3 when passed) reach the child: not only ours (all close-on-exec), but
        // also whatever the daemon inherited open from its own parent (a session manager, a
        // terminal).
        try SystemCall.returningErrno("posix_spawn_file_actions_addclosefrom_np") {
            CLinux_posix_spawn_file_actions_addclosefrom(&actions, passing == nil ? 3 : 4)
        }

        var attributes = posix_spawnattr_t()
        try SystemCall.returningErrno("posix_spawnattr_init") { posix_spawnattr_init(&attributes) }
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = CLinux_POSIX_SPAWN_SETSID | Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF)
        if QuietWakePolicy.isBatch {
            // Between the motions of a drag the loop runs as SCHED_BATCH (``QuietWakePolicy``):
            // a program it starts begins as the daemon was started, an ordinary task.
            flags |= Int16(POSIX_SPAWN_SETSCHEDULER)
            var parameters = sched_param(sched_priority: 0)
            try SystemCall.returningErrno("posix_spawnattr_setschedpolicy") {
                posix_spawnattr_setschedpolicy(&attributes, QuietWakePolicy.schedOther)
            }
            try SystemCall.returningErrno("posix_spawnattr_setschedparam") { posix_spawnattr_setschedparam(&attributes, &parameters) }
        }
        try SystemCall.returningErrno("posix_spawnattr_setflags") { posix_spawnattr_setflags(&attributes, flags) }
        try SystemCall.returningErrno("posix_spawnattr_setsigmask") { posix_spawnattr_setsigmask(&attributes, &noSignals) }
        try SystemCall.returningErrno("posix_spawnattr_setsigdefault") { posix_spawnattr_setsigdefault(&attributes, &defaults) }

        var pid: pid_t = 0
        try childEnvironment.withUnsafeBufferPointer { environment throws(SystemError) in
            let envp = UnsafeMutablePointer(mutating: environment.baseAddress)
            if searchingPath {
                try SystemCall.returningErrno("posix_spawnp") { posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, envp) }
            } else {
                try SystemCall.returningErrno("posix_spawn") { posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, envp) }
            }
        }
        return pid
    }

    /// The daemon's environment without ``SystemdNotifier/serviceVariables``, as C strings
    /// (made once: the daemon never changes its environment after it starts).
    nonisolated(unsafe) private static let childEnvironment: [UnsafeMutablePointer<CChar>?] = {
        var kept: [UnsafeMutablePointer<CChar>?] = []
        var entry = environ
        while let variable = entry.pointee {
            let name = String(cString: variable).prefix { $0 != "=" }
            if !SystemdNotifier.serviceVariables.contains(String(name)) { kept.append(strdup(variable)) }
            entry += 1
        }
        return kept + [nil]
    }()
}
