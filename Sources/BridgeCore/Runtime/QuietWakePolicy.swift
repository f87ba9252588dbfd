import CLinux
import Glibc
import Synchronization

/// The scheduling policy of the daemon's loop thread between the motions of a drag: as
/// `SCHED_BATCH` it does not preempt the task running on the core it is woken on (the X server,
/// in the middle of its dispatch), as `SCHED_OTHER` it does (docs/design.md, «Quiet motions wake
/// the daemon without preempting the X server»; the capture decides when).
///
/// Only for a thread that runs as `SCHED_OTHER` when it is first asked: a daemon started with
/// another policy (`chrt`, a systemd unit's `CPUSchedulingPolicy`) keeps it. Programs the
/// daemon starts begin as `SCHED_OTHER` whatever the moment (``ProcessSpawner``), as they would
/// have without this.
///
/// ```swift
/// QuietWakePolicy.set(batch: true)    // the next motion decides nothing
/// QuietWakePolicy.set(batch: false)   // it may: preempt, as an ordinary task
/// ```
public enum QuietWakePolicy {
    private struct State {
        /// The thread's policy was read, and was `SCHED_OTHER`.
        var usable: Bool? = nil
        var batch = false
    }
    private static let state = Mutex(State())

    /// Whether the loop's thread runs as `SCHED_BATCH` now for a quiet motion.
    public static var isBatch: Bool { state.withLock { $0.batch } }

    /// Sets the calling thread's policy (priority 0: no privilege needed). Returns false the
    /// first time the system refuses a change (a sandbox); it is not asked again after that.
    @discardableResult
    public static func set(batch wanted: Bool) -> Bool {
        state.withLock { state in
            if state.usable == nil { state.usable = sched_getscheduler(0) == schedOther }
            guard state.usable == true, wanted != state.batch else { return true }
            var parameters = sched_param(sched_priority: 0)
            guard sched_setscheduler(0, wanted ? schedBatch : schedOther, &parameters) == 0 else {
                state.usable = false
                return false
            }
            state.batch = wanted
            return true
        }
    }

    /// `SCHED_OTHER` and `SCHED_BATCH` (<sched.h>; Glibc shows the latter only to GNU sources).
    public static let schedOther: Int32 = 0
    public static let schedBatch: Int32 = 3
}
