import GestureEngine
import Glibc
import Logging

/// The scheduling policy of the daemon's thread while a drag's next motion cannot decide its
/// armed press: `SCHED_BATCH`, which, woken, does not preempt the task running on that core.
///
/// A raw motion wakes the daemon on the X server's core, and the daemon preempts the server in
/// the middle of its dispatch. The server then waits, runnable, through the daemon's whole turn
/// (about 20 µs for a motion that changes nothing), and the kernel owes it that time: at the
/// next input it preempts the process that sent it, which stays runnable, so the daemon is
/// woken on the other core. On an idle core that is an inter-processor interrupt and a halted
/// CPU to wake, tens of microseconds on the key's path (docs/performance.md, «Why the driver
/// is preempted»). As `SCHED_BATCH` the daemon runs once the server has finished and slept,
/// and the server is owed nothing.
///
/// Only while the press is undecided, a key is armed (``KeyArm``), and the next motion, as
/// likely as the last two steps make it (``TriggerPress/likelyNextMotion``), leaves the swipe
/// undecided. The motion that completes it wakes the daemon as an ordinary task: it preempts
/// the server, types the key ahead, and the server, still runnable, takes the key without
/// being woken by it (so the application is woken on the server's core). A step that goes
/// further than predicted only costs that motion the server's remaining work (or, under load,
/// the running task's slice).
struct QuietMotionWakes {
    /// The thread runs as `SCHED_BATCH` now.
    private(set) var batch = false
    /// The system refused a change of policy (a sandbox): not asked again.
    private(set) var refused = false

    /// Sets the calling thread's policy (`SCHED_BATCH` or `SCHED_OTHER`, priority 0: no
    /// privilege needed). Returns false the first time the system refuses.
    mutating func set(batch wanted: Bool) -> Bool {
        guard wanted != batch, !refused else { return true }
        var parameters = sched_param(sched_priority: 0)
        guard sched_setscheduler(0, wanted ? Self.schedBatch : Self.schedOther, &parameters) == 0 else {
            refused = true
            return false
        }
        batch = wanted
        return true
    }

    /// `SCHED_OTHER` and `SCHED_BATCH` (<sched.h>; Glibc shows the latter only to GNU sources).
    static let schedOther: Int32 = 0
    static let schedBatch: Int32 = 3
}

extension X11InputCapture {
    /// After each drain: batch while the press's likely next motion leaves the armed swipe undecided
    /// (``QuietMotionWakes``); an ordinary task otherwise.
    func followQuietMotions() {
        let quiet = Self.nextMotionIsQuiet(arm: armedKey, press: triggerPress)
        if !quietMotionWakes.set(batch: quiet) {
            logger.debug("cannot change the scheduling policy (\(String(cString: strerror(errno)))): every motion wakes the daemon as an ordinary task")
        }
    }

    /// Whether the next motion of `press`, as likely as its last two steps make it, leaves the
    /// swipe that `arm` says it may complete undecided; false without an arm, a step, or once
    /// the press is decided.
    static func nextMotionIsQuiet(arm: SwipeArm?, press: TriggerPress?) -> Bool {
        guard let arm, let press, press.decision == .undecided, arm.button == press.button, let next = press.likelyNextMotion
        else { return false }
        return arm.staysUndecided(motionTo: next.to, at: next.at)
    }
}
