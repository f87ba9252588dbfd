/// One input event, stamped with its own time: what the capture layer (live X input) or a
/// trace file (replay) feeds into the ``Engine``.
///
/// Cases mirror the trace format (docs/interface.md, «Trace format») one to one, so `record` and
/// `replay` round-trip without loss.
public struct InputEvent: Hashable, Sendable {
    /// When the event happened, on the input's clock.
    public var time: Instant
    /// What happened.
    public var kind: Kind

    @inlinable public init(time: Instant, _ kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// What happened, with the data that kind of event carries.
    public enum Kind: Hashable, Sendable {
        /// A touchscreen touch began at a root-window position, with the modifier keys held
        /// (they count for a gesture's first touch).
        case touchBegin(id: Int, at: Point, modifiers: Modifiers = [])
        /// A touch moved.
        case touchUpdate(id: Int, at: Point)
        /// A touch lifted.
        case touchEnd(id: Int, at: Point)
        /// The server cancelled a touch (e.g. another client took it).
        case touchCancel(id: Int, at: Point)
        /// A mouse button went down, with the modifier keys held.
        case buttonPress(button: Int, at: Point, modifiers: Modifiers = [])
        /// A mouse button went up.
        case buttonRelease(button: Int, at: Point)
        /// The pointer moved.
        case motion(at: Point)
        /// An XI 2.4 touchpad swipe began, with the modifier keys held. `at` is the pointer
        /// position when known.
        case touchpadSwipeBegin(fingers: Int, at: Point?, modifiers: Modifiers = [])
        /// A touchpad swipe moved by `delta` pixels since its previous event.
        case touchpadSwipeUpdate(fingers: Int, delta: Point)
        /// A touchpad swipe ended, or was cancelled.
        case touchpadSwipeEnd(fingers: Int, cancelled: Bool)
        /// An XI 2.4 touchpad pinch began, with the modifier keys held. `at` is the pointer
        /// position when known.
        case touchpadPinchBegin(fingers: Int, at: Point?, modifiers: Modifiers = [])
        /// A touchpad pinch changed: `scale` relative to its start, `angle` degrees since the
        /// previous event (clockwise positive), `delta` pixels of centroid motion.
        case touchpadPinchUpdate(fingers: Int, delta: Point, scale: Double, angle: Double)
        /// A touchpad pinch ended, or was cancelled.
        case touchpadPinchEnd(fingers: Int, cancelled: Bool)
        /// The root window's size and its monitors (empty: the whole screen is one monitor),
        /// for edges and monitors.
        case screen(width: Int, height: Int, monitors: [Monitor] = [])
        /// The focused application changed: its WM_CLASS instance (or class) in `app`, and
        /// its class in `appClass` when both are known, so a binding may name either.
        case focus(app: String, appClass: String? = nil)
    }
}

extension InputEvent {
    /// The name of each kind of event: the `type` field of the trace format (docs/interface.md, «Trace format») and the cause of a transition in the `--verbose` log. The one table of them.
    public enum TypeName: String, CaseIterable, Hashable, Sendable {
        case touchBegin = "touch-begin"
        case touchUpdate = "touch-update"
        case touchEnd = "touch-end"
        case touchCancel = "touch-cancel"
        case buttonPress = "button-press"
        case buttonRelease = "button-release"
        case motion
        case touchpadSwipeBegin = "touchpad-swipe-begin"
        case touchpadSwipeUpdate = "touchpad-swipe-update"
        case touchpadSwipeEnd = "touchpad-swipe-end"
        case touchpadPinchBegin = "touchpad-pinch-begin"
        case touchpadPinchUpdate = "touchpad-pinch-update"
        case touchpadPinchEnd = "touchpad-pinch-end"
        case screen
        case focus
    }
}

extension InputEvent.Kind {
    /// The name of this kind of event.
    public var typeName: InputEvent.TypeName {
        switch self {
        case .touchBegin: .touchBegin
        case .touchUpdate: .touchUpdate
        case .touchEnd: .touchEnd
        case .touchCancel: .touchCancel
        case .buttonPress: .buttonPress
        case .buttonRelease: .buttonRelease
        case .motion: .motion
        case .touchpadSwipeBegin: .touchpadSwipeBegin
        case .touchpadSwipeUpdate: .touchpadSwipeUpdate
        case .touchpadSwipeEnd: .touchpadSwipeEnd
        case .touchpadPinchBegin: .touchpadPinchBegin
        case .touchpadPinchUpdate: .touchpadPinchUpdate
        case .touchpadPinchEnd: .touchpadPinchEnd
        case .screen: .screen
        case .focus: .focus
        }
    }
}
