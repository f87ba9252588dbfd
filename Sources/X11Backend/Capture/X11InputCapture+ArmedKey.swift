import GestureEngine

extension X11InputCapture {
    /// A raw motion of the undecided press that the arm says completes a swipe with a key bound
    /// (``KeyArm``): the key is typed now, before the motion is converted and handed to the
    /// pipeline (docs/design.md, «The daemon», keys typed ahead). One arm types one key: the
    /// pipeline arms again after its step.
    func typeArmedKey(_ arm: SwipeArm, motionTo p: Point, at t: Instant) {
        guard let trigger = arm.firing(motionTo: p, at: t) else { return }
        armedKey = nil
        // A click or scroll that waits for the pointer goes out before the key, when the key
        // action sends it (``GrabSafePerformer``): that order is the action's to keep.
        guard !holdsPointerOutput else { return }
        typesArmedKey?(trigger)
    }
}
