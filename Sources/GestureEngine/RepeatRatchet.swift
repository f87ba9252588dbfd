/// The repeat ratchet of one `repeat_every` binding of a continuous gesture: where the last
/// step fired, measured in the binding's own progress (px along its direction, scale delta,
/// degrees).
///
/// Each whole `every` that the progress moves past the ratchet is one step. Forward steps fire;
/// backward steps move the ratchet silently (a directional binding), or fire too when the
/// binding has no direction (`twoSided`: pinch or rotate either way). At most `cap` steps fire
/// for one event; beyond that the ratchet catches up with the progress, so later steps are
/// measured from there.
///
/// Constant time whatever the values: the steps are counted arithmetically, never one by one,
/// so neither a tiny `every` nor an absurd jump (a touchpad delta of 1e20, an angle of 1e300)
/// can hang the engine. Progress that is not finite moves nothing.
enum RepeatRatchet {
    /// Moves `ratchet` toward `progress`; returns how many steps fire now.
    static func advance(_ ratchet: inout Double, to progress: Double, every: Double, twoSided: Bool, cap: Int) -> Int {
        guard progress.isFinite, ratchet.isFinite, every.isFinite, every > 0 else { return 0 }
        let forward = steps(over: progress - ratchet, every: every) { q in
            reaches(progress, ratchet + q * every)
        }
        if forward > 0 {
            if forward >= Double(cap) {
                ratchet = progress
                return cap
            }
            ratchet += forward * every
            return Int(forward)
        }
        let backward = steps(over: ratchet - progress, every: every) { q in
            reaches(-progress, -(ratchet - q * every))
        }
        guard backward > 0 else { return 0 }
        if twoSided && backward >= Double(cap) {
            ratchet = progress
            return cap
        }
        if backward >= Self.exactLimit {
            // Far beyond counting: keep the ratchet's phase, within one step of the progress.
            ratchet = progress + (ratchet - progress).truncatingRemainder(dividingBy: every)
        } else {
            ratchet -= backward * every
        }
        return twoSided ? Int(backward) : 0
    }

    /// Beyond this many steps the count is not corrected to the last ulp: it cannot matter.
    private static let exactLimit = 1e9

    /// How many steps the threshold test may move a counted quotient, each way: rounding puts
    /// it one off at most where the test's tolerance is a few ulps.
    private static let maximumCorrection = 4

    /// The number of whole steps of `every` in `distance` (≥ 0), as the inclusive threshold test
    /// `holds(q)` ("q steps are reached") judges it at the boundary.
    private static func steps(over distance: Double, every: Double, _ holds: (Double) -> Bool) -> Double {
        var q = (distance / every).rounded(.down)
        guard q.isFinite else { return q > 0 ? .infinity : 0 }
        if q >= exactLimit { return q }
        if q < 0 { q = 0 }
        // Floating point may put the quotient one off the threshold test: correct it, by a few
        // steps at most. Far from zero the test's tolerance spans many steps (at a ratchet of
        // 1e20 and steps of 50 px, some 2e9), and stepping through them one by one would hang.
        var corrections = 0
        while corrections < maximumCorrection && holds(q + 1) { q += 1; corrections += 1 }
        while corrections < 2 * maximumCorrection && q > 0 && !holds(q) { q -= 1; corrections += 1 }
        return q
    }

    /// Thresholds are inclusive, and the few ulps a centroid or a ratio picks up in floating
    /// point must not decide: 1.15 − 1 is 0.1499…
    static func reaches(_ value: Double, _ threshold: Double) -> Bool {
        value >= threshold - 1e-9 * max(1, abs(threshold))
    }
}
