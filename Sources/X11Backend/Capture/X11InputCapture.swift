internal import CX11
public import BridgeCore
public import GestureEngine
import Glibc
public import Logging

/// How the capture takes its input.
public enum CaptureMode: Sendable {
    /// The daemon: passive grabs of the trigger buttons on the root window (with the modifiers
    /// their bindings name), so pointer gestures work over every application; presses that turn
    /// out to be plain clicks are replayed.
    case grab
    /// `--dry-run` and `record`: raw events only, nothing is grabbed, nothing is taken from
    /// applications. Positions are read from the pointer.
    case observe
}

/// Live XInput2 capture: turns X events into the engine's ``InputEvent``s and carries out the
/// engine's ownership decisions for grabbed button presses and touches.
///
/// ```text
/// press of a trigger button ──(synchronous passive grab activates: the pointer waits)──▶ engine
///   motion and release: the raw events of the device that pressed ──▶ engine
///   engine: claim   → XIAllowEvents(async): the rest of the press comes to the bridge only
///   engine: release → XIAllowEvents(replay): the server gives the application the press where
///                     it happened, the motion that followed in order, then the release
/// ```
/// See ``TriggerPress``. Each button that starts pointer gestures (``PointerPresses``) is
/// grabbed once, with any modifiers or in exactly the modifier states its bindings name (and
/// the locks'), so a press no binding wants is never taken and never waits. The bridge's own
/// injected clicks never come back as input: the button's grab is lifted while the performer
/// clicks it (``suspendingButtonGrab(_:_:)``) and put back after, or on the next loop turn if
/// that fails (``restoreButtonGrab()``). Clicks from other XTest clients (xdotool, test
/// drivers) are input like any other. While a claimed press holds the pointer, the bridge's
/// clicks and scrolls, and the other buttons the hand presses, wait until it is free
/// (``HeldPointerOutput``).
///
/// A gesture's modifiers are X's modifier state of its first event (a touch begin, a trigger
/// press, an XI 2.4 gesture begin; observing, the pointer's state when a raw press or touch is
/// read), less the modifier keys the bridge holds itself (``ownModifierMask``).
public final class X11InputCapture: InputArbiter {
    public let display: X11Display
    public let mode: CaptureMode
    /// The presses that start pointer gestures: grabbed (their buttons, in their modifier
    /// states) when taking input, followed when observing.
    public internal(set) var pointer = PointerPresses()
    let logger: Logger
    var clock = ServerClock()
    /// What the bindings need grabbed (touches, touchpad gestures).
    var needs = CaptureNeeds(touchscreen: false, touchpadSwipes: false, touchpadPinches: false)
    /// Source device ids of direct-touch devices.
    var touchscreens: Set<Int32> = []
    /// Valuator ranges (x min, x max, y min, y max) of touchscreens, for raw touch events.
    var touchAxes: [Int32: (Double, Double, Double, Double)] = [:]
    var rawTouchPositions: [Int: Point] = [:]
    /// Which grabbed touches are pending, decided, and which end of theirs is the lift.
    var touchLedger = TouchLedger()
    let buttonStateReset = ButtonStateReset()
    var touchGrabbed = false
    var swipeGrabbed = false
    var pinchGrabbed = false
    private let focus: FocusTracker?
    /// The trigger buttons' grabs (``PassiveGrab/triggerButtons(_:_:)``).
    var buttonGrabs: [PassiveGrab] = []
    /// The buttons whose grab is in place.
    var grabbedButtons: Set<Int> = []
    /// The modifier states of trigger buttons that another client holds: their bindings cannot
    /// fire (grab mode).
    public internal(set) var grabConflicts: [ButtonGrabConflict] = []
    /// X's modifiers as the keymap has them, for gestures' modifiers and the grabs' states.
    var modifierMap = ModifierMap()
    /// The X modifier bits of the keys the bridge itself holds down now (its `hold` keys, a
    /// key action's): they never count as a gesture's modifiers.
    var ownModifierMask: () -> UInt32 = { 0 }
    /// A grab could not be put back after an injected click: logged once, retried.
    var grabRestoreFailed = false
    /// No retry before this (a failing grab costs a round trip per try).
    var nextGrabRetry = ContinuousClock.now
    /// How long after a failed try the grab is tried again.
    var grabRetryInterval = Duration.seconds(1)
    /// The press of the trigger button in progress (grab mode).
    var triggerPress: TriggerPress? = nil
    /// What the next raw motion of an undecided press fires, when that is a key typed ahead
    /// (``ArmedKeys``); set after every step of the pipeline.
    var armedKey: SwipeArm? = nil
    /// Types the key of the trigger the armed motion fires.
    var typesArmedKey: ((Int) -> Void)? = nil

    /// Whether an undecided press of ours holds the pointer frozen for every client right now:
    /// anything slow the daemon does meanwhile (a reload) is time the user's pointer stands still.
    public var freezesPointer: Bool {
        mode == .grab && triggerPress?.decision == .undecided
    }
    /// How the raw motion of ``triggerPress``'s source device moves the pointer.
    private var triggerAxes = PointerAxes()
    /// Raw motion is selected (only while a press is in progress: no wakeups for plain motion).
    private var rawMotionSelected = false
    /// Raw key releases are selected (only while the performer borrows a key the user holds).
    private var rawKeyReleasesSelected = false
    /// XTest slave devices: a raw key release of theirs is injected, never the user's hand.
    var xtestDevices: Set<Int32> = []
    /// Told of each raw key release of a keyboard that is not an XTest one, while followed
    /// (``followKeyReleases(_:)``): the performer lets go of a key it put back for the user.
    public var userKeyReleased: ((UInt8) -> Void)?
    /// Releases to feed before the next event: a previous press whose release never came.
    private var endedPresses: [InputEvent] = []
    /// The release of a press that came through the grab already released, to feed after it.
    private var releaseAfterPress: InputEvent? = nil
    /// Output waiting until no claimed press holds the pointer (``HeldPointerOutput``).
    var heldOutput: [HeldPointerOutput] = []
    /// The actions in ``heldOutput``, and those dropped since it was last sent (it was full).
    var heldActions = 0
    var droppedHeldActions = 0
    /// The buttons pressed during a claimed press, through its grab, and not released yet.
    var buttonsDownDuringClaim: Set<Int> = []
    /// A claimed press's grab is active: thawed for the bridge, not ended or let go since.
    var claimedGrab = false
    /// Raw releases of trigger buttons that no followed press took (see ``EarlyReleases``).
    private var earlyReleases = EarlyReleases()
    /// The last freeze of the pointer by a press of ours, in the server's order of requests:
    /// only input the server sent during it can have queued behind it (see ``EarlyReleases``).
    private var freeze = PointerFreeze()
    private var lastPointer = Point.zero
    private var lastScreen: (Int, Int)? = nil
    /// The monitors last fed to the engine (see ``MonitorLayout``).
    private var lastMonitors: [Monitor] = []
    /// RandR's first event number, when its change events are selected.
    private var randrEventBase: Int32? = nil
    /// The screen (RandR) or the input devices changed since ``takeLayoutChange()`` last looked.
    private var layoutChanged = false
    /// Follows the screen lock when the daemon set one: shown every core event first.
    public var screenLock: ScreenLockMonitor?
    /// The time of the last event fed to the engine (see ``drain(_:)``).
    private var lastFed: Instant? = nil

    /// Sets up selection (and, in `.grab` mode, the passive grabs) on the root window.
    ///
    /// - Throws: an X error, or ``X11Error/failed(_:display:)`` when a button that must be
    ///   grabbed with any modifiers is another client's (a modifier state another client holds
    ///   is only noted in ``grabConflicts``).
    public init(display: X11Display, mode: CaptureMode, needs: CaptureNeeds, logger: Logger) throws(X11Error) {
        self.display = display
        self.mode = mode
        self.logger = logger
        self.focus = try? FocusTracker(display: display)
        if display.xinputVersion < XInputVersion(major: 2, minor: 4) {
            // The daemon warns at start when a binding needs them (StartupWarnings).
            logger.debug("the X server speaks XInput \(display.xinputVersion): touchpad gestures need 2.4 and are unavailable")
        }
        refreshDevices()
        try select()
        randrEventBase = display.selectRandRChanges()
        // A change of the keymap (where Num Lock is) reaches the modifier map.
        display.followKeyboardMapping()
        modifierMap = (try? display.currentModifierMap()) ?? ModifierMap()
        try setPointerGrabs(needs.pointer)
        apply(needs)
    }

    /// The events to feed the engine first: the screen size and the focused application.
    public func initialEvents() -> [InputEvent] {
        let t = Instant(milliseconds: 0)
        let size = display.rootSize
        lastScreen = (size.width, size.height)
        lastMonitors = display.gestureMonitors()
        var events = [InputEvent(time: t, .screen(width: size.width, height: size.height, monitors: lastMonitors))]
        if let focus { events.append(InputEvent(time: t, focus.update.event)) }
        return events
    }

    /// The server's time now, estimated, for timers.
    public var now: Instant? { clock.now() }

    /// Milliseconds until `deadline` on the server clock, for `poll`.
    public func milliseconds(until deadline: Instant) -> Int32 { clock.milliseconds(until: deadline) }

    /// Gives back an undecided press and removes every grab (shutdown). Safe to call twice.
    public func releaseGrabs() {
        sendDeferredClaim()
        if let press = triggerPress {
            if press.decision == .undecided { decideTriggerPress(.release) }
            // The active grab of a claimed press would outlive the passive one.
            _ = try? letGoOfHeldPress(sync: false)
            triggerPress = nil
        }
        dropHeldPointerOutput()
        releaseButtonGrabs()
        setTouchGrab(false)
        setGestureGrab(swipe: true, false)
        setGestureGrab(swipe: false, false)
        display.flush()
    }

    // MARK: - Events

    /// Converts every queued X event; `sink` receives the engine's input in order.
    ///
    /// Every event carries the server's time: its own, or, for an event the server sends without
    /// one (a root `ConfigureNotify`, a press ended because its device vanished), the time of the
    /// event before it — never an estimate of "now", which after a stall runs ahead of the input
    /// still queued and would make it late. Times never go back: an event stamped a little
    /// before the one fed previously (the server stamps property changes with its current time,
    /// input with the time the device produced it) is fed at that previous time, so the engine
    /// and a recording see events in the order the server sent them.
    public func drain(_ sink: (InputEvent) -> Void) {
        func feed(_ input: InputEvent) {
            var input = input
            if let last = lastFed, input.time < last { input.time = last }
            lastFed = input.time
            sink(input)
        }
        // What converting and feeding asked for leaves when the drain ends, as the `XPending`
        // that ended the old drain flushed it (nothing to send on a quiet turn: no system call).
        defer {
            display.flush()
            followQuietMotions()
        }
        while true {
            drainQueued(feed)
            // Every event read is handled: a press whose release was not among them has none to come.
            guard let release = releaseOfPressLetGoUnseen() else { return }
            feed(release)
            giveBackUndecidedRelease()
        }
    }

    /// Converts every event the server has sent so far (``drain(_:)``): Xlib's queue (which
    /// holds what a round trip read in), then one read of the socket once it is empty, then the
    /// queue again. What arrives after the read waits for the loop's `poll`.
    private func drainQueued(_ feed: (InputEvent) -> Void) {
        var socketRead = false
        while true {
            guard var event = display.nextQueuedEvent() else {
                if socketRead { return }
                socketRead = true
                display.readArrived()
                continue
            }
            screenLock?.handle(event, clock: &clock, previous: timeOfLastEvent)
            if let update = focus?.handle(event) {
                feed(InputEvent(time: clock.instant(serverTime: UInt32(truncatingIfNeeded: event.xproperty.time)), update.event))
                continue
            }
            if event.type == ConfigureNotify, event.xconfigure.window == display.root.rawValue {
                layoutChanged = true
                // Also what `xrandr --setmonitor` sends (RandR 1.5 has no monitor event).
                let size = (Int(event.xconfigure.width), Int(event.xconfigure.height))
                if let screen = screenChange(size: size) { feed(InputEvent(time: timeOfLastEvent, screen)) }
                continue
            }
            if let base = randrEventBase, event.type == base + RRScreenChangeNotify || event.type == base + RRNotify {
                XRRUpdateConfiguration(&event)
                layoutChanged = true
                if let screen = screenChange(size: lastScreen ?? display.rootSize) {
                    feed(InputEvent(time: timeOfLastEvent, screen))
                }
                continue
            }
            let converted = try? display.withEventData(&event) { (cookie) throws(X11Error) -> InputEvent? in
                self.convert(cookie)
            }
            for input in endedPresses { feed(input) }
            endedPresses.removeAll()
            if let converted, let input = converted { feed(input) }
            if let release = releaseAfterPress { feed(release) }
            releaseAfterPress = nil
            giveBackUndecidedRelease()
        }
    }

    /// The screen event to feed when the size or the monitors differ from what was fed last:
    /// the monitors are asked again (one round trip, on a change of the screen only).
    private func screenChange(size: (Int, Int)) -> InputEvent.Kind? {
        let monitors = display.gestureMonitors()
        guard lastScreen.map({ $0 != size }) ?? true || monitors != lastMonitors else { return nil }
        lastScreen = size
        lastMonitors = monitors
        return .screen(width: size.0, height: size.1, monitors: monitors)
    }

    /// Whether the screen's outputs (any RandR change, a rotation or reflection that leaves the
    /// monitors as they were included) or the input devices changed since the last call: what
    /// the touchscreen mapping follows (``TouchscreenMapper``).
    public func takeLayoutChange() -> Bool {
        defer { layoutChanged = false }
        return layoutChanged
    }

    /// What an event without a server time of its own is stamped with: the time of the last
    /// event fed (0 before the first).
    private var timeOfLastEvent: Instant { lastFed ?? Instant(milliseconds: 0) }

    private func convert(_ cookie: UnsafeMutablePointer<XGenericEventCookie>) -> InputEvent? {
        if let touch = convertTouch(cookie) { return touch }
        let type = cookie.pointee.evtype
        switch type {
        case XI_ButtonPress, XI_ButtonRelease, XI_Motion:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
            let p = Point(x: e.root_x, y: e.root_y)
            lastPointer = p
            if mode == .grab { return grabbedPointerEvent(type, e, at: p, time: t) }
            return pointerEvent(type, detail: Int(e.detail), at: p, modifiers: gestureModifiers(e.mods), time: t)
        case XI_RawKeyRelease:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIRawEvent.self).pointee
            // A slave's (the master repeats it), and not injected through XTest.
            if e.deviceid == e.sourceid, !xtestDevices.contains(e.sourceid), let keycode = UInt8(exactly: e.detail) {
                userKeyReleased?(keycode)
            }
            return nil
        case XI_RawButtonPress, XI_RawButtonRelease, XI_RawMotion:
            let e = cookie.pointee.data.assumingMemoryBound(to: XIRawEvent.self).pointee
            if mode == .grab { return triggerPressEvent(type, e) }
            // Pointer events a touchscreen emulates are the touches themselves, seen twice.
            if e.flags & Int32(XIPointerEmulated) != 0 { return nil }
            let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
            let state = pointerState()
            let p = state?.position ?? lastPointer
            lastPointer = p
            let kind = type == XI_RawButtonPress ? XI_ButtonPress : type == XI_RawButtonRelease ? XI_ButtonRelease : XI_Motion
            return pointerEvent(kind, detail: Int(e.detail), at: p, modifiers: gestureModifiers(state?.modifiers ?? 0), time: t)
        case XI_HierarchyChanged:
            // Grabs are on the master devices: hot-plugged devices fall under them at once.
            logger.info("input devices changed")
            layoutChanged = true
            refreshDevices()
            endPressOfVanishedDevice()
            return nil
        default:
            return nil
        }
    }

    private func pointerEvent(_ type: Int32, detail: Int, at p: Point, modifiers: Modifiers, time t: Instant) -> InputEvent? {
        switch type {
        case XI_ButtonPress: InputEvent(time: t, .buttonPress(button: detail, at: p, modifiers: modifiers))
        case XI_ButtonRelease: InputEvent(time: t, .buttonRelease(button: detail, at: p))
        default: InputEvent(time: t, .motion(at: p))
        }
    }

    // MARK: - The trigger press (grab mode)

    /// An event the button grabs delivered. Only the press that activated a grab matters:
    /// what follows it comes from the source device's raw events, which arrive while the
    /// pointer is frozen (the grabbed events only come once a claim thawed it, and would be
    /// seen twice). Another trigger button pressed during a press comes through the active
    /// grab of the first: it is no gesture.
    private func grabbedPointerEvent(_ type: Int32, _ e: XIDeviceEvent, at p: Point, time t: Instant) -> InputEvent? {
        if keepButtonDuringClaim(type, e) { return nil }
        let button = Int(e.detail)
        guard type == XI_ButtonPress, isTriggerButton(button) else { return nil }
        if let press = triggerPress, !press.released {
            guard press.button == button else { return nil }
            // A press whose raw release never came (its device vanished): it ends here, for the
            // engine too, which would otherwise ignore the new press and leave it undecided.
            logger.debug("a new press of button \(button) ends the previous one", metadata: ["previous": "\(press)"])
            if press.feedsEngine { endedPresses.append(InputEvent(time: t, .buttonRelease(button: press.button, at: press.position))) }
        }
        let modifiers = gestureModifiers(e.mods)
        guard pointer.starts(button: button, modifiers: modifiers) else {
            // Grabbed in a modifier state that counts a key the bridge holds itself (its own
            // Super held for a gesture, a press with plain Super+click bound): not the user's
            // gesture, so it goes straight back.
            logger.debug("a press of button \(button) with \(modifiers) held starts no gesture: given back")
            triggerPress = nil
            allowEvents(master: e.deviceid, button: button, released: false, claimed: false)
            return nil
        }
        triggerPress = TriggerPress(button: button, master: e.deviceid, source: e.sourceid, position: p)
        freeze = PointerFreeze(start: e.serial)
        if let released = earlyReleases.take(source: e.sourceid, button: button, pressedAt: t) {
            // Queued behind a freeze while the daemon was slow: its raw release came first.
            logger.debug("a press of button \(button) came through the grab after its release")
            triggerPress?.released = true
            releaseAfterPress = InputEvent(time: released, .buttonRelease(button: button, at: p))
            return InputEvent(time: t, .buttonPress(button: button, at: p, modifiers: modifiers))
        }
        // Raw motion first, and sent at once: the motion made before the server has the
        // selection is lost to the engine, and reading the device's axes waits a round trip.
        selectRawMotion(true)
        display.flush()
        let source = try? display.pointerState(of: e.sourceid)
        triggerAxes = source.map { pointerAxes($0.x, $0.y) } ?? PointerAxes()
        if let source, !source.buttonsDown.contains(button) {
            // The device let go already: a press queued behind a freeze whose raw release was
            // read before it and not kept (more than ``EarlyReleases/capacity``), or one the
            // server released while the query waited (then its raw release is among the
            // events read with the answer). See ``releaseOfPressLetGoUnseen()``.
            triggerPress?.letGoUnseen = true
        }
        return InputEvent(time: t, .buttonPress(button: button, at: p, modifiers: modifiers))
    }

    /// A raw event during a press of the trigger button: the motion and release of the device
    /// that pressed, in the order it made them, fed to the engine until the press is given back.
    private func triggerPressEvent(_ type: Int32, _ e: XIRawEvent) -> InputEvent? {
        // Raw events come from the slave and again from its master: the slave's are the ones.
        guard e.deviceid == e.sourceid else { return nil }
        let t = clock.instant(serverTime: UInt32(truncatingIfNeeded: e.time))
        guard var press = triggerPress, e.sourceid == press.source, !(type == XI_RawButtonRelease && press.released) else {
            // A release no press in progress takes: perhaps that of a press the grab delivers late.
            // Only input the server sent while a press of ours held the pointer frozen can have
            // queued behind it, however late the daemon reads it; a release sent at any other
            // time (a click another client's grab took, an injected click) belongs to no press
            // of ours.
            if type == XI_RawButtonRelease, isTriggerButton(Int(e.detail)), freeze.contains(e.serial) {
                earlyReleases.note(source: e.sourceid, button: Int(e.detail), time: t)
            }
            return nil
        }
        switch type {
        case XI_RawMotion:
            let (x, y) = e.valuatorsXY
            let size = lastScreen ?? (display.rootSize.width, display.rootSize.height)
            press.moved(to: triggerAxes.move(press.position, x: x, y: y, width: size.0, height: size.1), at: t)
            triggerPress = press
            if let arm = armedKey, arm.button == press.button, press.decision == .undecided {
                typeArmedKey(arm, motionTo: press.position, at: t)
            }
            return press.feedsEngine ? InputEvent(time: t, .motion(at: press.position)) : nil
        case XI_RawButtonRelease where Int(e.detail) == press.button:
            press.released = true
            triggerPress = press
            selectRawMotion(false)
            finishTriggerPressIfDone()
            return press.feedsEngine ? InputEvent(time: t, .buttonRelease(button: press.button, at: press.position)) : nil
        default:
            return nil
        }
    }

    /// A press whose device was unplugged or disabled before its release ends now: its raw release will
    /// never come, and an undecided press would keep the pointer frozen.
    private func endPressOfVanishedDevice() {
        guard var press = triggerPress, !press.released else { return }
        guard !display.isEnabled(device: press.source) else { return }
        logger.notice("the device that held button \(press.button) is gone or disabled: the press ends")
        forgetButtonsDuringClaim()
        press.released = true
        triggerPress = press
        selectRawMotion(false)
        if press.feedsEngine {
            endedPresses.append(InputEvent(time: timeOfLastEvent, .buttonRelease(button: press.button, at: press.position)))
        }
        finishTriggerPressIfDone()
    }

    /// The engine decides a press at its release at the latest; should it not have, the pointer
    /// must not stay frozen: the press is given back, and that is logged.
    private func giveBackUndecidedRelease() {
        guard let press = triggerPress, press.released, press.decision == .undecided else { return }
        logger.warning("the press of button \(press.button) was released undecided: given back to the application")
        decideTriggerPress(.release)
    }

    /// Forgets the press once it is released and decided (the decision may come after the
    /// release: the engine decides a press on its release at the latest, or at a deadline).
    private func finishTriggerPressIfDone() {
        if triggerPress?.isFinished == true { triggerPress = nil }
    }

    /// How raw motion along axes `x` and `y` of the device that pressed moves the pointer (read
    /// at each press: devices come and go).
    private func pointerAxes(_ x: ValuatorAxis?, _ y: ValuatorAxis?) -> PointerAxes {
        guard let x, let y, x.absolute, y.absolute, let rx = x.range, let ry = y.range else { return PointerAxes() }
        return PointerAxes(absoluteRange: (rx, ry))
    }

    /// The release of a press whose device had let go of the button when the press came through
    /// the grab, once every event read so far is handled and its raw release was not among
    /// them: that release was read before the press and is gone, and none will follow. It is
    /// fed at the time of the last event (the time it really had is lost), so the press drains
    /// at once instead of waiting for the engine's deadline with the pointer frozen.
    private func releaseOfPressLetGoUnseen() -> InputEvent? {
        guard var press = triggerPress, press.letGoUnseen, !press.released else { return nil }
        logger.debug("the press of button \(press.button) came through the grab after its device let go: it ends now")
        press.released = true
        triggerPress = press
        selectRawMotion(false)
        finishTriggerPressIfDone()
        return press.feedsEngine ? InputEvent(time: timeOfLastEvent, .buttonRelease(button: press.button, at: press.position)) : nil
    }

    /// Carries out the engine's decision on the press in progress: thaw the pointer for the
    /// bridge (claim), or have the server replay the press to the application (release).
    func decideTriggerPress(_ ownership: Ownership) {
        guard var press = triggerPress, let decision = press.decide(ownership) else { return }
        triggerPress = press
        if decision == .claimed && defersClaims {
            // Thawed by ``sendDeferredClaim()``: after the key actions it comes before.
            deferredClaim = (press.master, press.button, press.released)
        } else {
            allowEvents(master: press.master, button: press.button, released: press.released, claimed: decision == .claimed)
        }
        if decision == .givenBack { selectRawMotion(false) }
        finishTriggerPressIfDone()
    }

    /// Whether a claim's thaw waits for ``sendDeferredClaim()`` (the live daemon), so that the
    /// key actions of the gesture that claimed go out before it.
    ///
    /// The pointer is frozen while a press is undecided, the keyboard is not (the grab is
    /// synchronous for the pointer only). A thaw makes the server first process every pointer
    /// event it held during the freeze, and only then the requests that follow: sent before
    /// the key, it delays the key by that work (the synchronous floor in docs/performance.md).
    /// Keys injected while the pointer is still frozen reach applications at once and cannot
    /// mix with the frozen press, which no application has seen. Anything that injects pointer
    /// input, or waits on the server for long, thaws first (``sendDeferredClaim()`` from the
    /// performer), and the daemon's loop thaws before each flush, so the pointer is never
    /// frozen past the loop turn that claimed it.
    public var defersClaims = false
    /// A claim decided but not sent yet (see ``defersClaims``).
    private var deferredClaim: (master: Int32, button: Int, released: Bool)? = nil

    /// Sends the thaw of a claimed press, if one waits (see ``defersClaims``).
    public func sendDeferredClaim() {
        guard let claim = deferredClaim else { return }
        deferredClaim = nil
        allowEvents(master: claim.master, button: claim.button, released: claim.released, claimed: true)
    }

    /// Thaws the frozen pointer for the bridge (claim) or has the server replay the press.
    func allowEvents(master: Int32, button: Int, released: Bool, claimed: Bool) {
        let mode = claimed ? Int32(XIAsyncDevice) : Int32(XIReplayDevice)
        do {
            // A claim is not waited for: what follows it goes on the same connection, and the
            // server runs requests in order; a round trip here would delay every action by one.
            // An error of the claim (the master pointer vanished) arrives with a later sync, as
            // an asynchronous X error that the loop logs. A give-back is waited for.
            try display.call(claimed ? "claim button \(button)" : "give button \(button) back", sync: !claimed) { handle in
                freeze.end = XNextRequest(handle)
                _ = XIAllowEvents(handle, master, mode, UInt(CurrentTime))
            }
            if claimed { claimedGrab = true }
            logger.debug(claimed ? "button \(button) press claimed" : "button \(button) press given back to the application",
                         metadata: ["released": "\(released)"])
        } catch {
            // The master pointer is gone, or so is the connection: nothing is frozen any more.
            logger.error("could not \(claimed ? "take" : "give back") the press of button \(button): \(error)")
        }
    }

    /// Where the pointer is and the modifier state (with the buttons'), now: what an observed
    /// raw event lacks (one round trip).
    func pointerState() -> (position: Point, modifiers: UInt32)? {
        try? display.call("XQueryPointer") { handle -> (Point, UInt32)? in
            var root: Window = 0, child: Window = 0
            var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
            var mask: UInt32 = 0
            guard XQueryPointer(handle, display.root.rawValue, &root, &child, &rx, &ry, &wx, &wy, &mask) != 0 else { return nil }
            return (Point(x: Double(rx), y: Double(ry)), mask)
        }
    }

    /// A gesture's modifiers from an XI2 event's modifier state.
    func gestureModifiers(_ state: XIModifierState) -> Modifiers {
        gestureModifiers(UInt32(bitPattern: state.effective))
    }

    /// A gesture's modifiers from an X modifier state: the named ones held, less those of the
    /// keys the bridge holds itself.
    func gestureModifiers(_ state: UInt32) -> Modifiers {
        modifierMap.modifiers(state: state & ~ownModifierMask())
    }

    // MARK: - Ownership (InputArbiter)

    public func apply(_ decision: OwnershipDecision) {
        guard mode == .grab else { return }
        switch decision {
        case .pointer(let b, let ownership) where b == triggerPress?.button:
            decideTriggerPress(ownership)
        case .touch(let id, let ownership):
            decideTouch(id, ownership)
        case .pointer, .touchpad:
            // A grabbed touchpad gesture cannot be handed back (XI 2.4 has no replay for it).
            break
        }
    }

    // MARK: - Selection and grabs

    /// `XIAllMasterDevices`: grabs and raw events for every master pointer.
    static let masterPointer = Int32(XIAllMasterDevices)

    /// What is selected for all devices on the root window: hierarchy changes and, grabbing,
    /// the raw button releases (a quick click's release must not be missed), raw touch ends,
    /// during a press of a trigger button only, raw motion, and while the performer holds a
    /// copy of a key the user holds, raw key releases.
    private var allDevicesMask: EventMask {
        var mask = EventMask()
        mask.set(XI_HierarchyChanged)
        if mode == .grab {
            mask.set(XI_RawButtonRelease)
            // Raw events reach every client that selects them, grabs or not: the real lift of a
            // touch given back while down.
            mask.set(XI_RawTouchEnd)
            if rawMotionSelected { mask.set(XI_RawMotion) }
            if rawKeyReleasesSelected { mask.set(XI_RawKeyRelease) }
        }
        return mask
    }

    /// Selects raw motion of every device while a press is followed, and not otherwise.
    private func selectRawMotion(_ on: Bool) {
        guard on != rawMotionSelected else { return }
        rawMotionSelected = on
        reselectAllDevices(what: "raw motion", on, else: "cannot follow the pointer during a button press")
    }

    /// Follows raw key releases (true) or stops (false): while the performer holds a copy of a
    /// key the user holds, so that the copy goes when the user lets go (``userKeyReleased``).
    /// Sent without waiting, before the requests that follow on the connection: a release the
    /// server processes after them is seen.
    public func followKeyReleases(_ on: Bool) {
        guard mode == .grab, on != rawKeyReleasesSelected else { return }
        rawKeyReleasesSelected = on
        reselectAllDevices(what: "raw key releases", on, else: "cannot follow the keys the user lets go of")
    }

    /// Sends ``allDevicesMask`` again after one of its parts changed.
    private func reselectAllDevices(what: String, _ on: Bool, else problem: String) {
        var mask = allDevicesMask
        let root = display.root.rawValue
        do {
            try display.call("XISelectEvents(\(what) \(on ? "on" : "off"))") { handle in
                mask.withXIEventMask(device: Int32(XIAllDevices)) { m in
                    var m = m
                    _ = XISelectEvents(handle, root, &m, 1)
                }
            }
        } catch {
            logger.warning("\(problem): \(error)")
        }
    }

    private func select() throws(X11Error) {
        var masks = [(Int32(XIAllDevices), allDevicesMask)]
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
}

extension XIRawEvent {
    /// The values of valuators 0 and 1 (x and y) when the event carries them: `values` holds
    /// only the valuators whose bit is set in `mask`, in order.
    var valuatorsXY: (x: Double?, y: Double?) {
        let mask = UnsafeBufferPointer(start: valuators.mask, count: Int(valuators.mask_len))
        func isSet(_ n: Int) -> Bool { n / 8 < mask.count && mask[n / 8] & UInt8(1 << (n % 8)) != 0 }
        let hasX = isSet(0), hasY = isSet(1)
        return (hasX ? valuators.values[0] : nil, hasY ? valuators.values[hasX ? 1 : 0] : nil)
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

extension X11InputCapture: InputSource {
    /// Hands over what the server sent since the last call (``drain(_:)``). X input does not
    /// end: the loss of the connection is the display's to tell (``X11Display/isConnectionLost``).
    public func read(into sink: (InputEvent) -> Void) -> Bool {
        drain(sink)
        return true
    }
}
