/// What the next motion of an undecided pointer press fires, said before it comes: the swipe
/// that motion would complete, and the trigger it would fire.
///
/// While a press of a trigger button is undecided and only a swipe can still win it at a
/// motion, the engine's decision at the next motion depends on nothing but where the pointer
/// goes and when: the swipe recognizer's own verdict on that translation (``SwipeRecognizer/Reach``,
/// what ``SwipeRecognizer/evaluate(_:at:_:)`` runs in the arena), and, when it wins, the trigger the group fires for its
/// direction. The live daemon uses this to type a bound key at the motion that completes the
/// swipe, before that motion goes through the pipeline (docs/design.md, «The daemon», keys typed ahead): the
/// engine then makes the same decision and the performer finds its key already
/// down.
///
/// An arm is only made where the engine's decision at a motion is exactly this
/// (``Engine/swipeArm``): the group open and undecided; the swipe still possible and no stroke
/// bound (a stroke makes a swipe wait for the lift); nothing else that could win first or act
/// at that motion (no tap that could still fail and fire a waiting one, no continuous gesture
/// running). It holds until the engine handles its next event or lets time run: a motion
/// later than ``latest`` lets a timer fire before it, and is not armed.
///
/// ```swift
/// if let arm = engine.swipeArm, let trigger = arm.firing(motionTo: p, at: t) {
///     // the engine fires `trigger` when it handles the motion to `p` at `t`
/// }
/// ```
public struct SwipeArm: Sendable {
    /// The pointer button whose press it follows.
    public let button: Int
    /// The modifier keys held at the press (what the fired phase reports).
    public let modifiers: Modifiers
    /// Where the press was: a motion's translation counts from it (``PointerSource``).
    let press: Point
    /// The swipe recognizer's verdict and direction as the group has them (its start, window,
    /// directions and thresholds).
    let swipe: SwipeRecognizer.Reach
    /// The trigger each planar direction fires (by ``Direction/planarIndex``); -1: the swipe
    /// fires nothing that way (its input goes back), or it was not armed that way.
    private(set) var firings: InlineArray<8, Int>
    /// The engine's time: an event stamped before it is handled at it.
    let earliest: Instant
    /// The engine's next deadline: a motion after it comes after a timer fired.
    let latest: Instant?

    /// The trigger the engine fires when it handles a motion of the press to `p` (root pixels,
    /// the position the pointer source is given) at `time`; `nil` when that motion does not
    /// complete an armed swipe (the engine then decides as it would have anyway).
    public func firing(motionTo p: Point, at time: Instant) -> Int? {
        guard verdict(motionTo: p, at: time) == .win else { return nil }
        let trigger = firings[swipe.direction(p - press).planarIndex]
        return trigger >= 0 ? trigger : nil
    }

    /// Whether the engine, handling a motion of the press to `p` at `time`, leaves the swipe
    /// undecided: it neither completes nor fails there, and no timer fires before it.
    public func staysUndecided(motionTo p: Point, at time: Instant) -> Bool {
        verdict(motionTo: p, at: time) == .undecided
    }

    /// The swipe's verdict on a motion of the press to `p` at `time`, as the engine handles it
    /// (at its own time at the earliest); `nil` when a timer fires before it.
    private func verdict(motionTo p: Point, at time: Instant) -> Verdict? {
        let t = max(time, earliest)
        if let latest, t > latest { return nil }
        return swipe.verdict(p - press, at: t)
    }

    /// Every trigger it can fire, each once.
    public var triggers: [Int] {
        var all: [Int] = []
        for i in firings.indices where firings[i] >= 0 && !all.contains(firings[i]) { all.append(firings[i]) }
        return all
    }

    /// The same arm, firing only the triggers `keep` accepts (the others are not armed: the
    /// engine decides them at their motion); `nil` when none is left.
    public func keeping(_ keep: (Int) -> Bool) -> SwipeArm? {
        var arm = self
        var any = false
        for i in arm.firings.indices where arm.firings[i] >= 0 {
            if keep(arm.firings[i]) { any = true } else { arm.firings[i] = -1 }
        }
        return any ? arm : nil
    }
}

extension Direction {
    /// Its place in ``Direction/planar``; 0 for a direction that is not planar (a swipe has none).
    @inline(__always) var planarIndex: Int {
        switch self {
        case .left: 0
        case .right: 1
        case .up: 2
        case .down: 3
        case .upLeft: 4
        case .upRight: 5
        case .downLeft: 6
        case .downRight: 7
        case .in, .out, .cw, .ccw: 0
        }
    }
}

extension GestureGroup {
    /// The arm of this group's next update (see ``SwipeArm``), when that update can only end
    /// in the swipe's verdict; `press` is where the press was.
    func swipeArm(press: Point, _ r: Recognition, now: Instant, deadline: Instant?) -> SwipeArm? {
        guard phase == .open, decision == .undecided, recognizers.swipe.state == .possible else { return nil }
        // A stroke bound: a swipe waits for the lift. A tap or a pinch still possible: its verdict
        // at the motion comes first (a failing tap decides a waiting multi-tap). A long press or
        // a pan still possible lose to a swipe that wins at the same motion; a running one would
        // have claimed the input.
        let others = recognizers
        guard !others.stroke.state.canStillWin, !others.tap.state.canStillWin, !others.pinch.state.canStillWin,
            !others.rotate.state.canStillWin
        else { return nil }
        var firings = InlineArray<8, Int>(repeating: -1)
        var any = false
        for (i, direction) in Direction.planar.enumerated() {
            if let trigger = r.bestFiring(among: candidates, gesture: .swipe, direction: direction, on: nil) {
                firings[i] = trigger
                any = true
            }
        }
        guard any else { return nil }
        return SwipeArm(
            button: button, modifiers: modifiers, press: press, swipe: recognizers.swipe.reach(settings), firings: firings,
            earliest: now, latest: deadline)
    }
}
