import GestureEngine

/// What the capture knows of each grabbed touch between its begin and its last event: the
/// device to allow it on, whether it ended or was decided first, and which of the server's two
/// end events reports the finger's lift to the engine — exactly one per touch.
///
/// The server sends a touch's owner an `XI_TouchEnd` when the finger lifts, or at once when the
/// owner rejects the touch while it is down (`TouchRejected`); the `XI_RawTouchEnd` always
/// marks the physical lift. So:
///
/// | order read                               | the lift reported from  |
/// |------------------------------------------|-------------------------|
/// | end, (raw end), verdict                  | `XI_TouchEnd`           |
/// | verdict claim, end                       | `XI_TouchEnd`           |
/// | verdict release, end (server's), raw end | `XI_RawTouchEnd`        |
/// | verdict release, raw end, end            | `XI_RawTouchEnd`        |
/// | raw end, verdict release, end            | `XI_TouchEnd`           |
///
/// The last row happens live: the two ends can arrive in separate reads and an engine timer
/// fire between them. Reporting neither there left the engine believing a finger was still
/// down, and every later touch was passed on to applications.
///
/// Pure bookkeeping, no X calls: ``X11InputCapture`` acts on what it answers.
struct TouchLedger {
    /// Touches grabbed and not yet forgotten: the master device to allow their events on.
    private(set) var devices: [Int: Int32] = [:]
    /// Touches that ended before the engine decided them.
    private var pendingEnds: Set<Int> = []
    /// Touches decided before they ended.
    private var decided: Set<Int> = []
    /// Given back while, as far as was read, the finger was down: the raw end reports the lift…
    private var liftFromRawEnd: Set<Int> = []
    /// …and the `XI_TouchEnd` still to be read is not a lift.
    private var endNotALift: Set<Int> = []
    /// Undecided, and the raw end was read before the `XI_TouchEnd`: the finger has lifted.
    private var liftedBeforeEnd: Set<Int> = []

    /// Nothing is kept: every touch seen is over and forgotten.
    var isEmpty: Bool {
        devices.isEmpty && pendingEnds.isEmpty && decided.isEmpty && liftFromRawEnd.isEmpty && endNotALift.isEmpty
            && liftedBeforeEnd.isEmpty
    }

    /// Whether `id` is a grabbed touch whose events are still expected.
    func knows(_ id: Int) -> Bool { devices[id] != nil }

    /// An `XI_TouchBegin` grabbed on `device`.
    mutating func began(_ id: Int, device: Int32) {
        devices[id] = device
    }

    /// An `XI_TouchEnd`: whether to report it to the engine as the finger's lift.
    mutating func ended(_ id: Int) -> Bool {
        if decided.remove(id) != nil { devices[id] = nil } else { pendingEnds.insert(id) }
        liftedBeforeEnd.remove(id)
        return endNotALift.remove(id) == nil
    }

    /// An `XI_RawTouchEnd` while grabbing: whether to report it as the finger's lift.
    mutating func rawEnded(_ id: Int) -> Bool {
        if liftFromRawEnd.remove(id) != nil { return true }
        if devices[id] != nil, !decided.contains(id), !pendingEnds.contains(id) { liftedBeforeEnd.insert(id) }
        return false
    }

    /// The engine's verdict on `id`: the device to allow it on and whether the touch had
    /// already ended; nil for a touch not (or no longer) known.
    mutating func decide(_ id: Int, _ ownership: Ownership) -> (device: Int32, ended: Bool)? {
        guard let device = devices[id] else { return nil }
        let lifted = liftedBeforeEnd.remove(id) != nil
        if pendingEnds.remove(id) != nil {
            devices[id] = nil
            return (device, true)
        }
        decided.insert(id)
        if ownership == .release && !lifted {
            liftFromRawEnd.insert(id)
            endNotALift.insert(id)
        }
        return (device, false)
    }

    /// Shutdown: the touches still waiting for a verdict, with their devices; forgets all.
    mutating func takeUndecided() -> [(id: Int, device: Int32)] {
        let undecided = devices.filter { !decided.contains($0.key) }.map { (id: $0.key, device: $0.value) }
        self = TouchLedger()
        return undecided
    }
}
