internal import CX11
import GestureEngine

/// One passive grab the bridge takes on the root window, defined once: the capture takes it,
/// `gesture-bridge doctor` takes it for a moment to see whether it can be had.
///
/// A definition is everything the server is asked for: the kind of grab (a button, touch
/// begins, touchpad swipe or pinch begins), the devices (every master device, so hot-plugged
/// devices fall under it at once), the grab modes, the XI 2 event mask and the modifiers. The
/// doctor's answer is about the very grab the daemon would take: a grab conflict depends on
/// the kind, the device, the window and the modifiers, so probing another mask or mode than the
/// capture takes could answer for another grab.
///
/// ```swift
/// let grab = PassiveGrab.triggerButton(3)
/// let status = try grab.take(on: display)      // 0: granted; BadAccess: another client holds it
/// try grab.release(on: display)
/// ```
///
/// A grab may be for several modifier states at once (a trigger button for the modifiers its
/// bindings name, with the lock states: ``ModifierMap/grabMasks(_:)``): the server grants
/// each that no other client holds, and ``takeEach(on:)`` says which it refused.
struct PassiveGrab: Hashable, Sendable {
    /// What is grabbed.
    enum Kind: Hashable, Sendable {
        /// Presses of a mouse button (`XIGrabButton`).
        case button(Int)
        /// Touch sequences (`XIGrabTouchBegin`).
        case touchBegin
        /// Touchpad swipes (`XIGrabSwipeGestureBegin`, XI 2.4).
        case swipeBegin
        /// Touchpad pinches (`XIGrabPinchGestureBegin`, XI 2.4).
        case pinchBegin
    }

    var kind: Kind
    /// The device the grab is for: `XIAllMasterDevices`.
    var device: Int32
    /// The XI 2 events the grab delivers.
    var events: [Int32]
    /// `XIGrabModeSync` freezes the grabbed device when the grab activates; `XIGrabModeAsync`
    /// does not. Touch grabs have no mode (ownership decides instead).
    var mode: Int32
    /// The mode of the paired device (the keyboard, for a pointer grab).
    var pairedDeviceMode: Int32
    /// The modifier states the grab applies in, each exactly; `[XIAnyModifier]`: any.
    var modifiers: [UInt32]

    /// `XIAnyModifier`: a grab in every modifier state.
    static let anyModifier = [UInt32(XIAnyModifier)]

    /// A modifier state the server refused, with its status (`BadAccess`: another client holds a
    /// grab that conflicts).
    struct Refusal: Hashable, Sendable {
        var modifiers: UInt32
        var status: Int32
    }

    /// A trigger button's grab (`[pointer] button`, a pointer binding's `button`): with any
    /// modifiers by default, or in exactly the modifier states `modifiers` (a button whose
    /// bindings all name modifiers: a press without them is never taken and never waits).
    ///
    /// Synchronous for the pointer: the press freezes it until the engine decides (see
    /// ``TriggerPress``); the keyboard goes on. No `XI_Motion`: the press is followed by its raw
    /// events, and a claim that thaws the pointer would otherwise have the server deliver every
    /// motion it held before it gets to the action that follows the claim (about 40 µs on Xvfb:
    /// the latency benchmark in docs/performance.md).
    static func triggerButton(_ button: Int, modifiers: [UInt32] = anyModifier) -> PassiveGrab {
        PassiveGrab(
            kind: .button(button), device: Int32(XIAllMasterDevices), events: [XI_ButtonPress, XI_ButtonRelease],
            mode: Int32(XIGrabModeSync), pairedDeviceMode: Int32(XIGrabModeAsync), modifiers: modifiers)
    }

    /// The grab of each button that starts pointer gestures, in the modifier states that start
    /// them (``PointerPresses``), the locks' states included.
    static func triggerButtons(_ presses: PointerPresses, _ map: ModifierMap) -> [PassiveGrab] {
        presses.buttons.map { b in
            b.anyModifiers ? triggerButton(b.button) : triggerButton(b.button, modifiers: b.modifierSets.flatMap(map.grabMasks))
        }
    }

    /// Whether the grab is for every modifier state.
    var isForAnyModifiers: Bool { modifiers == Self.anyModifier }

    /// The touch grab: every touch sequence waits for the engine's verdict (accept or reject).
    static let touches = PassiveGrab(
        kind: .touchBegin, device: Int32(XIAllMasterDevices), events: [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd, XI_TouchOwnership],
        mode: Int32(XIGrabModeAsync), pairedDeviceMode: Int32(XIGrabModeAsync), modifiers: anyModifier)

    /// The touchpad swipe grab (XI 2.4). A grabbed gesture cannot be handed back.
    static let touchpadSwipes = PassiveGrab(
        kind: .swipeBegin, device: Int32(XIAllMasterDevices),
        events: [XI_GestureSwipeBegin, XI_GestureSwipeUpdate, XI_GestureSwipeEnd],
        mode: Int32(XIGrabModeAsync), pairedDeviceMode: Int32(XIGrabModeAsync), modifiers: anyModifier)

    /// The touchpad pinch grab (XI 2.4). A grabbed gesture cannot be handed back.
    static let touchpadPinches = PassiveGrab(
        kind: .pinchBegin, device: Int32(XIAllMasterDevices),
        events: [XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd],
        mode: Int32(XIGrabModeAsync), pairedDeviceMode: Int32(XIGrabModeAsync), modifiers: anyModifier)

    /// The request's name, as X errors are reported under it.
    var name: String {
        switch kind {
        case .button(let button): "XIGrabButton(\(button))"
        case .touchBegin: "XIGrabTouchBegin"
        case .swipeBegin: "XIGrabSwipeGestureBegin"
        case .pinchBegin: "XIGrabPinchGestureBegin"
        }
    }

    /// The name of the request that releases it.
    var releaseName: String {
        switch kind {
        case .button(let button): "XIUngrabButton(\(button))"
        case .touchBegin: "XIUngrabTouchBegin"
        case .swipeBegin: "ungrab touchpad swipes"
        case .pinchBegin: "ungrab touchpad pinches"
        }
    }

    /// Takes the grab on the root window (waiting for the server's answer) and returns its
    /// status: a grab conflict is not an X error but a status in the modifiers array (0:
    /// granted; `BadAccess`, 10: another client holds a grab that conflicts; the server does
    /// not say which client). With several modifier states, the status of the first refused.
    func take(on display: X11Display) throws(X11Error) -> Int32 {
        try takeEach(on: display).first?.status ?? 0
    }

    /// Takes the grab on the root window (waiting for the server's answer) and returns the
    /// modifier states the server refused; the others are granted and held.
    func takeEach(on display: X11Display) throws(X11Error) -> [Refusal] {
        var mask = EventMask()
        for e in events { mask.set(e) }
        let root = display.root.rawValue
        return try display.call(name, sync: true) { handle -> [Refusal] in
            var modifiers = self.modifierList
            let count = Int32(modifiers.count)
            return mask.withXIEventMask(device: device) { m in
                var m = m
                let failed: Int32
                switch kind {
                case .button(let button):
                    failed = XIGrabButton(handle, device, Int32(button), root, 0, mode, pairedDeviceMode, 0, &m, count, &modifiers)
                case .touchBegin:
                    failed = XIGrabTouchBegin(handle, device, root, 0, &m, count, &modifiers)
                case .swipeBegin:
                    failed = XIGrabSwipeGestureBegin(handle, device, root, mode, pairedDeviceMode, 0, &m, count, &modifiers)
                case .pinchBegin:
                    failed = XIGrabPinchGestureBegin(handle, device, root, mode, pairedDeviceMode, 0, &m, count, &modifiers)
                }
                // The refused states come first in the array, each with its status.
                return modifiers.prefix(Int(max(failed, 0))).map {
                    Refusal(modifiers: UInt32(bitPattern: $0.modifiers), status: $0.status)
                }
            }
        }
    }

    /// Releases the grab on the root window (waiting for the server).
    ///
    /// - Parameter operation: the name X errors are reported under; ``releaseName`` by default.
    func release(on display: X11Display, operation: String? = nil) throws(X11Error) {
        let root = display.root.rawValue
        try display.call(operation ?? releaseName, sync: true) { handle in
            var modifiers = self.modifierList
            let count = Int32(modifiers.count)
            switch kind {
            case .button(let button): XIUngrabButton(handle, device, Int32(button), root, count, &modifiers)
            case .touchBegin: XIUngrabTouchBegin(handle, device, root, count, &modifiers)
            case .swipeBegin: XIUngrabSwipeGestureBegin(handle, device, root, count, &modifiers)
            case .pinchBegin: XIUngrabPinchGestureBegin(handle, device, root, count, &modifiers)
            }
        }
    }

    /// ``modifiers`` as the list the `XIGrab…` calls take (and fill with the refused ones).
    private var modifierList: [XIGrabModifiers] {
        modifiers.map { XIGrabModifiers(modifiers: Int32(bitPattern: $0), status: 0) }
    }
}
