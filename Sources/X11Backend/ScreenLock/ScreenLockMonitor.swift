internal import CX11
public import BridgeCore
public import GestureEngine
public import Logging

/// Follows whether the screen is locked, from X events alone (nothing is polled):
///
/// - **the screen saver**: the MIT-SCREEN-SAVER extension's state is `ScreenSaverOn` (or
///   cycling). Read once with `XScreenSaverQueryInfo`, then followed through `ScreenSaverNotify`
///   events (`XScreenSaverSelectInput` on the root window).
/// - **a known locker's window**: a window that is a child of the root window (where lockers
///   map their override-redirect windows), or a window-manager frame's child window, is mapped
///   and its `WM_CLASS` instance or class is one of ``knownLockers`` (ASCII case ignored), as
///   set when it was mapped. Found at start with `XQueryTree` of the root (viewable children),
///   then followed through `MapNotify`, `UnmapNotify` and `DestroyNotify` (`SubstructureNotify`
///   on the root).
///
/// The capture layer passes it every core event (``handle(_:clock:)``); a change is told to
/// ``onChange`` at once, in order with the input around it, with the instant it happened: the
/// screen saver event's own server time, or the server's time now for a window.
public final class ScreenLockMonitor {
    /// The `WM_CLASS` names (instance or class, compared without ASCII case) of screen lockers.
    public static let knownLockers: Set<String> = [
        "i3lock", "xsecurelock", "xscreensaver", "slock", "xlock", "xtrlock", "alock", "sxlock", "light-locker",
        "xfce4-screensaver", "mate-screensaver", "cinnamon-screensaver", "gnome-screensaver", "kscreenlocker_greet",
    ]

    let display: X11Display
    private let logger: Logger
    /// `ScreenSaverNotify`'s event type on this display; nil without the extension.
    private let saverEvent: Int32?
    /// The screen saver is on.
    private(set) var saverOn = false
    /// Mapped top-level windows of known lockers, with the name that matched.
    private(set) var lockerWindows: [UInt: String] = [:]
    /// The lock last told to ``onChange`` (for ``follow(display:capture:pipeline:logger:)``).
    var announced: ScreenLock?
    /// Told each change of ``lock``, with when it happened on the input clock.
    public var onChange: ((ScreenLock?, Instant, _ endedByInput: Bool) -> Void)?

    /// Starts following the lock on `display`: selects the events and reads the state now.
    ///
    /// Without the MIT-SCREEN-SAVER extension only lockers' windows are followed (logged once).
    public init(display: X11Display, logger: Logger) throws(X11Error) {
        self.display = display
        self.logger = logger
        let root = display.root.rawValue
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        let hasSaver = try display.call("XScreenSaverQueryExtension") { XScreenSaverQueryExtension($0, &eventBase, &errorBase) != 0 }
        saverEvent = hasSaver ? eventBase + Int32(ScreenSaverNotify) : nil
        if hasSaver {
            saverOn = try display.call("XScreenSaverSelectInput(root)", sync: true) { handle -> Bool in
                XScreenSaverSelectInput(handle, root, UInt(ScreenSaverNotifyMask))
                guard let info = XScreenSaverAllocInfo() else { return false }
                defer { XFree(info) }
                guard XScreenSaverQueryInfo(handle, root, info) != 0 else { return false }
                return Self.isOn(Int32(info.pointee.state))
            }
        } else {
            logger.notice("the X server has no MIT-SCREEN-SAVER extension: only screen lockers' windows count as a locked screen")
        }
        let children = try display.call("XSelectInput(root, SubstructureNotifyMask)", sync: true) { (handle) throws(X11Error) -> [UInt] in
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(handle, root, &attributes) != 0 else {
                throw .failed("XGetWindowAttributes(root) failed", display: display.name)
            }
            XSelectInput(handle, root, attributes.your_event_mask | SubstructureNotifyMask)
            return Self.children(of: root, handle)
        }
        for window in children where isViewable(window) {
            if let name = lockerName(of: window) { lockerWindows[window] = name }
        }
    }

    /// The lock now: a locker's window first (the more telling), then the screen saver.
    public var lock: ScreenLock? {
        if let name = lockerWindows.values.min() { return .locker(name) }
        return saverOn ? .screenSaver : nil
    }

    /// Follows one core event; tells ``onChange`` when the lock changed. Never consumes it.
    ///
    /// - Parameter previous: the time of the input event before this one: what a change without
    ///   a server time of its own (a locker window mapped or gone) is stamped with, as the
    ///   capture stamps its own events without one (never an estimate of "now", which after a
    ///   stall runs ahead of the input still queued).
    func handle(_ event: XEvent, clock: inout ServerClock, previous: Instant) {
        // Every event comes here, each motion of a drag included: the lock (a look over the
        // locker windows) is read only for the few events that can change it.
        let type = event.type
        guard saverEvent == type || type == MapNotify || type == UnmapNotify || type == DestroyNotify else { return }
        let before = lock
        var serverTime: UInt32? = nil
        // The saver went off because of input (not `xset s reset` or another forcing client).
        var byInput = false
        let root = display.root.rawValue
        switch event.type {
        case let type where saverEvent == type:
            let notify = withUnsafeBytes(of: event) { $0.load(as: XScreenSaverNotifyEvent.self) }
            guard notify.root == root else { return }
            saverOn = Self.isOn(notify.state)
            serverTime = UInt32(truncatingIfNeeded: notify.time)
            byInput = notify.forced == 0
        case MapNotify where event.xmap.event == root:
            if let name = lockerName(of: event.xmap.window) { lockerWindows[event.xmap.window] = name }
        case UnmapNotify where event.xunmap.event == root:
            lockerWindows[event.xunmap.window] = nil
        case DestroyNotify where event.xdestroywindow.event == root:
            lockerWindows[event.xdestroywindow.window] = nil
        default:
            return
        }
        let after = lock
        guard after != before else { return }
        let instant = serverTime.map { clock.instant(serverTime: $0) } ?? previous
        onChange?(after, instant, byInput)
    }

    private static func isOn(_ state: Int32) -> Bool {
        state == ScreenSaverOn || state == ScreenSaverCycle
    }

    /// The name in ``knownLockers`` that `window`'s `WM_CLASS` matches; a window without
    /// `WM_CLASS` (a window manager's frame) is judged by its children's.
    private func lockerName(of window: UInt) -> String? {
        if let names = try? display.strings(.wmClass, of: WindowID(rawValue: window)) {
            return names.first { Self.knownLockers.contains($0.lowercased()) }?.lowercased()
        }
        let children = (try? display.call("XQueryTree") { Self.children(of: window, $0) }) ?? []
        for child in children {
            let names = (try? display.strings(.wmClass, of: WindowID(rawValue: child))) ?? nil
            if let name = names?.first(where: { Self.knownLockers.contains($0.lowercased()) }) { return name.lowercased() }
        }
        return nil
    }

    private func isViewable(_ window: UInt) -> Bool {
        let state = try? display.call("XGetWindowAttributes") { handle -> Int32 in
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(handle, window, &attributes) != 0 else { return IsUnmapped }
            return attributes.map_state
        }
        return state == IsViewable
    }

    private static func children(of window: UInt, _ handle: OpaquePointer) -> [UInt] {
        var root: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(handle, window, &root, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return Array(UnsafeBufferPointer(start: children, count: Int(count)))
    }
}

extension ScreenLockMonitor {
    /// Starts following the screen lock for `pipeline`, whose input `capture` delivers: the lock
    /// now is applied at once, each change in order with the input. Locking is logged once at
    /// info, unlocking too; in `.grab` mode a held claimed press is let go when the screen locks.
    ///
    /// - Returns: the monitor (kept by the capture), or nil when it cannot start (logged: every
    ///   gesture then performs, locked or not).
    @discardableResult
    public static func follow(display: X11Display, capture: X11InputCapture, pipeline: Pipeline, logger: Logger) -> ScreenLockMonitor? {
        let monitor: ScreenLockMonitor
        do {
            monitor = try ScreenLockMonitor(display: display, logger: logger)
        } catch {
            logger.error("cannot follow the screen lock, gestures will perform while the screen is locked: \(error)")
            return nil
        }
        let apply = { [unowned capture, unowned pipeline, unowned monitor] (lock: ScreenLock?, instant: Instant, byInput: Bool) in
            let before = monitor.announced
            monitor.announced = lock
            pipeline.setScreenLock(lock, at: instant, endedByInput: byInput)
            switch (before, lock) {
            case (nil, let lock?):
                logger.info("screen locked: gestures perform nothing until it is unlocked", metadata: ["reason": "\(lock)"])
                capture.yieldClaimedPress()
            case (_?, nil):
                logger.info("screen unlocked: gestures perform again (input begun while it was locked still does nothing)")
            case (let old?, let new?):
                logger.debug("screen still locked: \(new) (was: \(old))")
            case (nil, nil):
                break
            }
        }
        monitor.onChange = apply
        capture.screenLock = monitor
        if let lock = monitor.lock { apply(lock, capture.now ?? Instant(milliseconds: 0), false) }
        return monitor
    }
}
