/// A pending multi-tap on the touchscreen: taps that already happened and wait for one more. It outlives the
/// gesture groups that made its taps, so the touchscreen source owns it, not a group.
///
/// ```text
///   empty ──a group was a tap──▶ pending(1) ──the next group continues it, and is a tap──▶ pending(n+1)
///   pending(n) ──the interval passes / the next group is no tap or no continuation /
///                the highest bound count is reached──▶ flushed: reported with n taps ──▶ empty
/// ```
///
/// While a group that landed during the interval is undecided, the sequence waits for that
/// group's verdict instead of its own deadline.
struct TapSequence {
    /// Taps so far; 0 when nothing is pending.
    private(set) var count = 0
    private(set) var fingers = 0
    /// Where the latest tap landed.
    private(set) var position = Point.zero
    /// When the latest tap's last finger lifted.
    private(set) var releaseTime = Instant(milliseconds: 0)
    private(set) var app = FocusedApp()
    /// The monitor the sequence's first tap started on: the multi-tap starts there.
    private(set) var monitor: String? = nil
    /// How far apart its taps may be: `multi_tap_distance` in the pixels of the first tap's monitor.
    private var reach = 0.0
    /// The modifier keys held when the sequence's first tap began: the multi-tap's; a tap with
    /// others does not continue it.
    private(set) var modifiers = Modifiers()
    /// Touches of all taps so far, awaiting their ownership decision.
    private var touchIDs: [Int] = []
    /// The bound triggers (the engine's), to find the multi-tap's binding.
    private let triggers: [Trigger]

    init(triggers: [Trigger]) {
        self.triggers = triggers
        touchIDs.reserveCapacity(16)
    }

    var isPending: Bool { count > 0 }

    /// When the pending sequence gives up waiting for another tap.
    @inline(__always) func deadline(_ s: RecognizerSettings) -> Instant? {
        isPending ? releaseTime + Interval(milliseconds: s.multiTapIntervalMs) : nil
    }

    /// Whether a group that settled with these fingers and modifiers, landing there, can be
    /// this sequence's next tap: same fingers, same modifiers, near the previous tap (as the
    /// first tap's monitor measures it), and a higher count is bound.
    func isContinued(fingers: Int, modifiers: Modifiers, landing: Point, maxTaps: Int) -> Bool {
        isPending && maxTaps > count && self.fingers == fingers && self.modifiers == modifiers
            && landing.distance(to: position) <= reach
    }

    /// Counts a tap: the next of this sequence when one is pending (the group that made it
    /// continued it), else the first of a new one. Fires at once when the count reaches the
    /// highest bound one.
    mutating func add(_ tap: CompletedTap, emit: (EngineOutput) -> Void) {
        if !isPending {
            touchIDs.removeAll(keepingCapacity: true)
            monitor = tap.monitor
            reach = tap.multiTapDistancePx
            modifiers = tap.modifiers
        }
        count += 1
        fingers = tap.fingers
        position = tap.position
        releaseTime = tap.time
        app = tap.app
        touchIDs.append(contentsOf: tap.touches)
        if tap.maxTaps <= count { flush(at: tap.time, emit: emit) }
    }

    /// Reports the pending multi-tap with its count so far, fires its binding and decides its
    /// touches. Nothing happens when nothing is pending.
    mutating func flush(at t: Instant, emit: (EngineOutput) -> Void) {
        let device = DeviceKind.touchscreen
        guard isPending else { return }
        var firing: Int? = nil
        var bestSpecificity = -1
        for (i, trigger) in triggers.enumerated()
        where trigger.gesture == .tap && trigger.taps == count
            && trigger.applies(to: device, app: app, fingers: fingers, edge: nil, monitor: monitor, modifiers: modifiers)
            && trigger.specificity > bestSpecificity
        {
            firing = i
            bestSpecificity = trigger.specificity
        }
        let decision: Ownership = firing != nil ? .claim : .release
        for id in touchIDs { emit(.touch(id: id, decision)) }
        emit(.gesture(GestureReport(
            time: t, gesture: .tap, phase: .recognized, fingers: fingers, device: device,
            position: position, taps: count, monitor: monitor, app: app.name, appClass: app.className, firing: firing,
            modifiers: modifiers)))
        touchIDs.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Drops the pending sequence unreported, giving its touches back (shutdown, reload).
    mutating func abandon(emit: (EngineOutput) -> Void) {
        guard isPending else { return }
        for id in touchIDs { emit(.touch(id: id, .release)) }
        touchIDs.removeAll(keepingCapacity: true)
        count = 0
    }
}
