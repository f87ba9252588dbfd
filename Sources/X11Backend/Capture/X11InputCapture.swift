internal import CX11
import BridgeCore
import GestureEngine
import Glibc
import Logging

/// How the capture takes its input.
public enum CaptureMode: Sendable {
    /// The daemon: a passive grab of the trigger button on the root window, so pointer gestures
    /// work over every application; presses that turn out to be plain clicks are replayed.
    case grab
    /// `--dry-run` and `record`: raw events only, nothing is grabbed, nothing is taken from
    /// applications. Positions are read from the pointer.
    case observe
}

/// Live XInput2 capture: turns X events into the engine's ``InputEvent``s and carries out the
/// engine's ownership decisions for grabbed button presses.
///
/// ```text
/// press of the trigger button ──(passive grab activates)──▶ engine
///   engine: claim   → keep the grab until release (the application never sees the press)
///   engine: release → give the press back: ungrab, replay it with XTest, grab again
/// ```
/// The bridge's own injected clicks never come back as input: the grab is lifted while the
/// performer clicks the trigger button (``suspendingButtonGrab(_:)``). Clicks from other XTest
/// clients (xdotool, test drivers) are input like any other.
public final class X11InputCapture: InputArbiter {
    public let display: X11Display
    public let mode: CaptureMode
    /// The grabbed button; 0: pointer gestures are off.
    public private(set) var button: Int
    let logger: Logger
    var clock = ServerClock()
    /// What the bindings need grabbed (touches, touchpad gestures).
    var needs = CaptureNeeds(touchscreen: false, touchpadSwipes: false, touchpadPinches: false)
    /// Source device ids of direct-touch devices.
    var touchscreens: Set<Int32> = []
    /// Valuator ranges (x min, x max, y min, y max) of touchscreens, for raw touch events.
    var touchAxes: [Int32: (Double, Double, Double, Double)] = [:]
    var rawTouchPositions: [Int: Point] = [:]
    /// Touches grabbed and not yet forgotten: the master device to allow their events on.
    var touchDevices: [Int: Int32] = [:]
    /// Touches that ended before the engine decided them.
    var pendingEnds: Set<Int> = []
    /// Touches decided before they ended.
    var decidedTouches: Set<Int> = []
    var touchGrabbed = false
    var swipeGrabbed = false
    var pinchGrabbed = false
    private let focus: FocusTracker?
    private var grabbed = false
    /// The trigger button is held (a press seen, its release not yet).
    private var buttonHeld = false
    /// The held press was replayed to the application: its release is not ours.
    private var pressGivenBack = false
    private var lastPointer = Point.zero
    private var lastScreen: (Int, Int)? = nil

    /// Sets up selection (and, in `.grab` mode, the passive grab) on the root window.
    public init(display: X11Display, mode: CaptureMode, button: Int, needs: CaptureNeeds, logger: Logger) throws(X11Error) {
        self.display = display
        self.mode = mode
        self.button = button
        self.logger = logger
        self.focus = try? FocusTracker(display: display)
        if display.xinputVersion < XInputVersion(major: 2, minor: 4) {
            logger.warning("the X server speaks XInput \(display.xinputVersion): touchpad gestures need 2.4 and are unavailable")
        }
        refreshDevices()
        try select()
        if mode == .grab && button != 0 { try grabButton() }
        apply(needs)
    }

    /// The events to feed the engine first: the screen size and the focused application.
    public func initialEvents() -> [InputEvent] {
        let t = Instant(milliseconds: 0)
        let size = display.rootSize
        lastScreen = (size.width, size.height)
        var events = [InputEvent(time: t, .screen(width: size.width, height: size.height))]
        if let focus { events.append(InputEvent(time: t, focus.update.event)) }
        return events
    }

    /// The server's time now, estimated, for timers.
    public var now: Instant? { clock.now() }

    /// Milliseconds until `deadline` on the server clock, for `poll`.
    public func milliseconds(until deadline: Instant) -> Int32 { clock.milliseconds(until: deadline) }

    /// Changes the trigger button (a config reload): the grab moves with it.
    public func setButton(_ newButton: Int) throws(X11Error) {
        guard newButton != button else { return }
        if grabbed { try ungrabButton() }
        button = newButton
        buttonHeld = false
        if mode == .grab && button != 0 { try grabButton() }
    }

    /// Removes the grab (shutdown). Safe to call twice.
    public func releaseGrabs() {
        if grabbed { try? ungrabButton() }
        setTouchGrab(false)
        setGestureGrab(swipe: true, false)
        setGestureGrab(swipe: false, false)
        if buttonHeld && !pressGivenBack {
            _ = try? display.call("XIUngrabDevice") { XIUngrabDevice($0, Self.masterPointer, UInt(CurrentTime)) }
        }
        display.flush()
    }

    /// Runs `body` (an injection of the trigger button) with the passive grab lifted, so the
    /// injected click reaches applications instead of coming back to the bridge.
    public func suspendingButtonGrab<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        guard grabbed else { return try body() }
        try? ungrabButton()
        defer { try? grabButton() }
        return try body()
    }

    // MARK: - Events

    /// Converts every queued X event; `sink` receives the engine's input in order.
    public func drain(_ sink: (InputEvent) -> Void) {
        while var event = display.nextEvent() {
            if let update = focus?.handle(event) {
                sink(InputEvent(time: clock.now() ?? Instant(milliseconds: 0), update.event))
                continue
            }
            if event.type == ConfigureNotify, event.xconfigure.window == display.root.rawValue {
                let size = (Int(event.xconfigure.width), Int(event.xconfigure.height))
                if lastScreen.map({ $0 != size }) ?? true {
                    lastScreen = size
                    sink(InputEvent(time: clock.now() ?? Instant(milliseconds: 0), .screen(width: size.0, height: size.1)))
                }
                continue
            }
            let converted = try? display.withEventData(&event) { (cookie) throws(X11Error) -> InputEvent? in
                self.convert(cookie)
            }
            if let converted, let input = converted { sink(input) }
        }
    }

    private func convert(_ cookie: UnsafeMutablePointer<XGenericEventCookie>) -> InputEvent? {
        if let touch = convertTouch(cookie) { return touch }
        let type = cookie.pointee.evtype
        switch type {
        case XI_ButtonPress, XI_ButtonRelease, XI_Motion:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
            let p = Point(x: e.root_x, y: e.root_y)
            lastPointer = p
            return pointerEvent(type, detail: Int(e.detail), at: p, time: t)
        case XI_RawButtonPress, XI_RawButtonRelease, XI_RawMotion:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIRawEvent.self).pointee
            // Pointer events a touchscreen emulates are the touches themselves, seen twice.
            if e.flags & Int32(XIPointerEmulated) != 0 { return nil }
            let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
            let p = pointerPosition() ?? lastPointer
            lastPointer = p
            let kind = type == XI_RawButtonPress ? XI_ButtonPress : type == XI_RawButtonRelease ? XI_ButtonRelease : XI_Motion
            return pointerEvent(kind, detail: Int(e.detail), at: p, time: t)
        case XI_HierarchyChanged:
            // Grabs are on the master devices: hot-plugged devices fall under them at once.
            logger.info("input devices changed")
            refreshDevices()
            return nil
        default:
            return nil
        }
    }

    private func pointerEvent(_ type: Int32, detail: Int, at p: Point, time t: Instant) -> InputEvent? {
        switch type {
        case XI_ButtonPress:
            if detail == button {
                buttonHeld = true
                pressGivenBack = false
            }
            return InputEvent(time: t, .buttonPress(button: detail, at: p))
        case XI_ButtonRelease:
            if detail == button {
                buttonHeld = false
                if pressGivenBack { pressGivenBack = false; return nil }
            }
            return InputEvent(time: t, .buttonRelease(button: detail, at: p))
        default:
            return InputEvent(time: t, .motion(at: p))
        }
    }

    private func pointerPosition() -> Point? {
        try? display.call("XQueryPointer") { handle -> Point? in
            var root: Window = 0, child: Window = 0
            var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
            var mask: UInt32 = 0
            guard XQueryPointer(handle, display.root.rawValue, &root, &child, &rx, &ry, &wx, &wy, &mask) != 0 else { return nil }
            return Point(x: Double(rx), y: Double(ry))
        }
    }

    // MARK: - Ownership (InputArbiter)

    public func apply(_ decision: OwnershipDecision) {
        guard mode == .grab else { return }
        switch decision {
        case .pointer(let b, .release) where b == button:
            giveBackPress()
        case .touch(let id, let ownership):
            decideTouch(id, ownership)
        case .pointer, .touchpad:
            // A grabbed touchpad gesture cannot be handed back (XI 2.4 has no replay for it).
            break
        }
    }

    /// The grabbed press was not a gesture: the application gets it after all. If the button
    /// is still held, the press is replayed and its real release goes to the application; if
    /// it was already released, the whole click is replayed.
    private func giveBackPress() {
        let held = buttonHeld
        do {
            try display.call("replay button \(button)", sync: true) { (handle) throws(X11Error) in
                if grabbed {
                    var modifiers = Self.anyModifier
                    XIUngrabButton(handle, Self.masterPointer, Int32(button), display.root.rawValue, 1, &modifiers)
                }
                if held { XIUngrabDevice(handle, Self.masterPointer, UInt(CurrentTime)) }
                XTestFakeButtonEvent(handle, UInt32(button), 1, UInt(CurrentTime))
                if !held { XTestFakeButtonEvent(handle, UInt32(button), 0, UInt(CurrentTime)) }
            }
            pressGivenBack = held
            grabbed = false
            try grabButton()
            logger.debug("replayed button \(button) to the application", metadata: ["held": "\(held)"])
        } catch {
            logger.error("could not give button \(button) back to the application: \(error)")
        }
    }

    // MARK: - Selection and grabs

    /// `XIAllMasterDevices`: grabs and raw events for every master pointer.
    static let masterPointer = Int32(XIAllMasterDevices)

    private func select() throws(X11Error) {
        var hierarchy = EventMask()
        hierarchy.set(XI_HierarchyChanged)
        var masks = [(Int32(XIAllDevices), hierarchy)]
        let gestures = display.xinputVersion >= XInputVersion(major: 2, minor: 4)
        if mode == .observe {
            var raw = EventMask()
            raw.set(XI_RawButtonPress); raw.set(XI_RawButtonRelease); raw.set(XI_RawMotion)
            raw.set(XI_RawTouchBegin); raw.set(XI_RawTouchUpdate); raw.set(XI_RawTouchEnd)
            if gestures {
                // Touchpad gestures reach root when the window under the pointer does not take them.
                raw.set(XI_GestureSwipeBegin); raw.set(XI_GestureSwipeUpdate); raw.set(XI_GestureSwipeEnd)
                raw.set(XI_GesturePinchBegin); raw.set(XI_GesturePinchUpdate); raw.set(XI_GesturePinchEnd)
            }
            masks.append((Self.masterPointer, raw))
        }
        let root = display.root.rawValue
        try display.call("XISelectEvents(root)", sync: true) { handle in
            for (device, var mask) in masks {
                mask.withXIEventMask(device: device) { m in
                    var m = m
                    _ = XISelectEvents(handle, root, &m, 1)
                }
            }
            var attributes = XWindowAttributes()
            if XGetWindowAttributes(handle, root, &attributes) != 0 {
                XSelectInput(handle, root, attributes.your_event_mask | StructureNotifyMask)
            }
        }
    }

    /// Sets one passive grab on the root window for every master device, with any modifiers,
    /// and returns the grab status: grab conflicts are not X errors but a status in the
    /// modifiers array (0: granted).
    func passiveGrab(
        _ operation: String, events: [Int32],
        _ grab: (OpaquePointer, Window, inout XIEventMask, inout [XIGrabModifiers]) -> Int32
    ) throws(X11Error) -> Int32 {
        var mask = EventMask()
        for e in events { mask.set(e) }
        let root = display.root.rawValue
        return try display.call(operation, sync: true) { handle -> Int32 in
            var modifiers = Self.anyModifier
            return mask.withXIEventMask(device: Self.masterPointer) { m in
                var m = m
                let failed = grab(handle, root, &m, &modifiers)
                return failed > 0 ? modifiers[0].status : 0
            }
        }
    }

    /// `XIAnyModifier` as a grab modifier list.
    static var anyModifier: [XIGrabModifiers] { [XIGrabModifiers(modifiers: Int32(bitPattern: UInt32(XIAnyModifier)), status: 0)] }

    private func grabButton() throws(X11Error) {
        let b = Int32(button)
        let failed = try passiveGrab("XIGrabButton(\(button))", events: [XI_ButtonPress, XI_ButtonRelease, XI_Motion]) { handle, root, mask, modifiers in
            XIGrabButton(handle, Self.masterPointer, b, root, 0, XIGrabModeAsync, XIGrabModeAsync, 0, &mask, 1, &modifiers)
        }
        guard failed == 0 else {
            throw .failed("cannot grab mouse button \(button) on the root window: another client holds it (status \(failed)); "
                + "choose another [pointer] button or stop that client", display: display.name)
        }
        grabbed = true
    }

    private func ungrabButton() throws(X11Error) {
        let root = display.root.rawValue
        let b = Int32(button)
        try display.call("XIUngrabButton(\(button))", sync: true) { handle in
            var modifiers = Self.anyModifier
            XIUngrabButton(handle, Self.masterPointer, b, root, 1, &modifiers)
        }
        grabbed = false
    }
}

/// An XI2 event mask: `XISetMask` and `XIMaskLen` are function-like macros Swift cannot import,
/// so the bits are set here.
struct EventMask {
    private var bytes = [UInt8](repeating: 0, count: 8)

    mutating func set(_ event: Int32) {
        bytes[Int(event) >> 3] |= UInt8(1 << (Int(event) & 7))
    }

    mutating func withXIEventMask<R>(device: Int32, _ body: (XIEventMask) -> R) -> R {
        bytes.withUnsafeMutableBufferPointer { buffer in
            body(XIEventMask(deviceid: device, mask_len: Int32(buffer.count), mask: buffer.baseAddress))
        }
    }
}
