import BridgeCore
import GestureEngine
import Glibc
import Logging

extension X11InputCapture {
    /// After each drain: the loop's thread runs as `SCHED_BATCH` while the press's likely next
    /// motion leaves the armed swipe undecided, as an ordinary task otherwise (``QuietWakePolicy``).
    ///
    /// A raw motion wakes the daemon on the X server's core, and the daemon, as an ordinary
    /// task, preempts the server in the middle of its dispatch. The server then waits, runnable,
    /// through the daemon's whole turn (about 20 µs for a motion that changes nothing), and the
    /// kernel owes it that time: at the next input it preempts the process that sent it, which
    /// stays runnable, so the daemon is woken on the other core — an inter-processor interrupt
    /// and a halted CPU away (docs/performance.md, «Why the driver is preempted»). Woken as
    /// `SCHED_BATCH`, the daemon runs once the server has finished and slept.
    ///
    /// The motion that may complete the swipe (``TriggerPress/likelyNextMotion``) wakes an
    /// ordinary task: it preempts the server, types the key ahead, and the server, still
    /// runnable, takes the key without being woken by it (so the application is woken on the
    /// server's core). A step that goes further than predicted only costs that motion the
    /// server's remaining work (or, under load, the running task's slice).
    func followQuietMotions() {
        let quiet = Self.nextMotionIsQuiet(arm: armedKey, press: triggerPress)
        if !QuietWakePolicy.set(batch: quiet) {
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
