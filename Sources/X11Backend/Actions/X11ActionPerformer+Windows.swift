internal import CX11
import GestureConfig
import GestureEngine
import Glibc
import Logging

extension Action {
    /// The desktop a `workspace` or `window move-to-workspace` action goes to; `nil` for others.
    var desktopTarget: WorkspaceTarget? {
        switch self {
        case .workspace(let target), .moveWindowToWorkspace(let target): target
        default: nil
        }
    }
}

extension X11ActionPerformer {
    /// How long `window tile` waits for the window manager to take a window out of maximized or
    /// fullscreen before it moves it. openbox does it in about a millisecond; a manager that
    /// needs longer than this is not going to do it.
    static let restoreTimeout = Duration.seconds(1)
    /// How often the window's state is read again while waiting for the restore.
    static let restorePollInterval = Duration.milliseconds(1)
    /// How long the state must stay clear of maximized and fullscreen for a restore to be done.
    static let restoreSettle = Duration.milliseconds(30)

    /// `_NET_MOVERESIZE_WINDOW` flags: `NorthWestGravity` (x, y place the frame's outer top-left
    /// corner, as ICCCM defines gravity for a configure request), x, y, width and height
    /// present (bits 8–11), and the source indication of a pager (bits 12–15).
    private static let moveResizeFlags = Int(NorthWestGravity) | (0xF << 8) | (sourceIndicationUser << 12)

    /// `_NET_WM_DESKTOP`'s value for a window on every desktop.
    private static let allDesktops: UInt = 0xFFFF_FFFF

    // MARK: - Maximized and fullscreen

    /// Maximizes `window` both ways, or restores it when it is maximized both ways (a window
    /// maximized one way only is maximized fully: that is what the gesture asks for).
    func toggleMaximize(_ window: WindowID) throws(X11Error) {
        let state = try wmState(of: window)
        let vert = try display.atom(.netWMStateMaximizedVert), horz = try display.atom(.netWMStateMaximizedHorz)
        let maximized = state.contains(UInt(vert)) && state.contains(UInt(horz))
        try display.sendClientMessage(.netWMState, about: window, data: [
            (maximized ? WMStateAction.remove : .add).rawValue, Int(vert), Int(horz), Self.sourceIndicationUser,
        ])
    }

    /// Takes `window` out of maximized (either way) and fullscreen, and waits until the window
    /// manager has done it; a window in neither is left alone.
    ///
    /// A fullscreen window is also un-maximized, whatever its state says: openbox lists only
    /// `_NET_WM_STATE_FULLSCREEN` for a maximized window made fullscreen and maximizes it again
    /// as it leaves fullscreen. Under load that re-maximizing was seen to land after the
    /// un-maximize, so the state must stay clear for ``restoreSettle`` before the restore counts
    /// as done; a maximized state that comes back meanwhile is removed again. Waiting matters
    /// for `tile` too: the frame extents and geometry change with the restore (a fullscreen
    /// window has no frame), so the move must be computed from the restored window (openbox
    /// updates them before it rewrites `_NET_WM_STATE`).
    ///
    /// - Returns: whether it was in one of those states.
    @discardableResult
    func restore(_ window: WindowID) throws(X11Error) -> Bool {
        let fullscreen = UInt(try display.atom(.netWMStateFullscreen))
        let vert = UInt(try display.atom(.netWMStateMaximizedVert)), horz = UInt(try display.atom(.netWMStateMaximizedHorz))
        let states: Set<UInt> = [fullscreen, vert, horz]
        var state = try wmState(of: window)
        guard !state.isDisjoint(with: states) else { return false }
        let clock = ContinuousClock()
        let deadline = clock.now + Self.restoreTimeout
        var clearSince: ContinuousClock.Instant? = nil
        var lastSent: Set<UInt>? = nil
        while true {
            let left = state.intersection(states)
            if left.isEmpty {
                if let since = clearSince, clock.now - since >= Self.restoreSettle { return true }
                clearSince = clearSince ?? clock.now
            } else {
                clearSince = nil
                // Each state that is (back) on is removed, once per appearance.
                if left != lastSent {
                    if left.contains(fullscreen) {
                        try display.sendClientMessage(.netWMState, about: window, data: [
                            WMStateAction.remove.rawValue, Int(fullscreen), 0, Self.sourceIndicationUser,
                        ])
                    }
                    try display.sendClientMessage(.netWMState, about: window, data: [
                        WMStateAction.remove.rawValue, Int(vert), Int(horz), Self.sourceIndicationUser,
                    ])
                    lastSent = left
                }
            }
            guard clock.now < deadline else {
                throw refuse("the window manager did not take window \(window) out of maximized or fullscreen within \(Self.restoreTimeout)")
            }
            usleep(useconds_t(Self.restorePollInterval.components.attoseconds / 1_000_000_000_000))
            state = try wmState(of: window)
        }
    }

    /// The atoms in `window`'s `_NET_WM_STATE`.
    private func wmState(of window: WindowID) throws(X11Error) -> Set<UInt> {
        Set(try display.property(.netWMState, of: window)?.items ?? [])
    }

    // MARK: - Tiling

    /// Restores the focused window, then moves and resizes its frame to `side`'s half of the
    /// work area of the monitor it is on.
    func tile(_ side: TileSide) throws(X11Error) {
        try requireEWMH(for: .tile(side))
        let window = try focusedWindow()
        // The monitor is the one the window is on as the user sees it: maximized or not.
        let screen = PixelRect(x: 0, y: 0, width: display.rootSize.width, height: display.rootSize.height)
        let monitors = try monitorRects(screen: screen)
        let before = try frameGeometry(of: window, extents: try frameExtents(of: window))
        let monitor = monitors[WindowPlacement.monitor(for: before, among: monitors) ?? 0]
        try restore(window)
        let extents = try frameExtents(of: window)
        let area = WindowPlacement.workArea(of: monitor, struts: try struts(besides: window), screen: screen)
        let target = WindowPlacement.half(side, of: area)
        let width = max(1, target.width - extents.left - extents.right)
        let height = max(1, target.height - extents.top - extents.bottom)
        try display.sendClientMessage(.netMoveResizeWindow, about: window, data: [
            Self.moveResizeFlags, target.x, target.y, width, height,
        ])
        logger.debug("window tile \(side.rawValue): frame \(target) (monitor \(monitor), work area \(area))", metadata: ["window": "\(window)"])
    }

    /// The monitors as rectangles: the same list gestures are judged on (``MonitorLayout``: a
    /// screen-sized monitor that `xrandr --setmonitor` ones cover is left out), or the whole
    /// screen without RandR 1.5 or monitors.
    private func monitorRects(screen: PixelRect) throws(X11Error) -> [PixelRect] {
        let monitors = display.gestureMonitors().map { PixelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        return monitors.isEmpty ? [screen] : monitors
    }

    /// `_NET_FRAME_EXTENTS` (left, right, top, bottom); zero when the manager did not set it.
    private func frameExtents(of window: WindowID) throws(X11Error) -> (left: Int, right: Int, top: Int, bottom: Int) {
        guard let items = try display.property(.netFrameExtents, of: window)?.items, items.count >= 4 else { return (0, 0, 0, 0) }
        let v = items.map { Int(clamping: $0) }
        return (v[0], v[1], v[2], v[3])
    }

    /// The window's frame on the root window: its own geometry (border included) grown by the
    /// frame extents.
    private func frameGeometry(of window: WindowID, extents: (left: Int, right: Int, top: Int, bottom: Int)) throws(X11Error) -> PixelRect {
        let root = display.root.rawValue
        let client = try display.call("XGetGeometry") { handle -> PixelRect in
            var rootReturn: Window = 0, child: Window = 0
            var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
            XGetGeometry(handle, window.rawValue, &rootReturn, &x, &y, &width, &height, &border, &depth)
            var rootX: Int32 = 0, rootY: Int32 = 0
            XTranslateCoordinates(handle, window.rawValue, root, 0, 0, &rootX, &rootY, &child)
            let b = Int(border)
            return PixelRect(x: Int(rootX) - b, y: Int(rootY) - b, width: Int(width) + 2 * b, height: Int(height) + 2 * b)
        }
        return PixelRect(
            x: client.x - extents.left, y: client.y - extents.top,
            width: client.width + extents.left + extents.right, height: client.height + extents.top + extents.bottom)
    }

    /// The struts of the managed windows (`_NET_CLIENT_LIST`, docks and panels included) other
    /// than `window` that are on `window`'s desktop or on every desktop:
    /// `_NET_WM_STRUT_PARTIAL`, else `_NET_WM_STRUT`.
    private func struts(besides window: WindowID) throws(X11Error) -> [Strut] {
        let screen = PixelRect(x: 0, y: 0, width: display.rootSize.width, height: display.rootSize.height)
        let desktop = try display.cardinal(.netWMDesktop, of: window)
        let clients = try display.property(.netClientList, of: display.root, maxItems: 65536)?.items ?? []
        var struts: [Strut] = []
        for raw in clients where raw != window.rawValue {
            let client = WindowID(rawValue: raw)
            do throws(X11Error) {
                let on = try display.cardinal(.netWMDesktop, of: client)
                if let on, let desktop, on != desktop, on != Self.allDesktops, desktop != Self.allDesktops { continue }
                if let partial = try display.property(.netWMStrutPartial, of: client)?.items, let strut = Strut(partial: partial) {
                    struts.append(strut)
                } else if let legacy = try display.property(.netWMStrut, of: client)?.items, let strut = Strut(legacy: legacy, screen: screen) {
                    struts.append(strut)
                }
            } catch {
                // A client that went away while it was read reserves nothing.
                if error.protocolError?.code == .badWindow { continue }
                throw error
            }
        }
        return struts
    }

    // MARK: - Desktops

    /// Sends the focused window to the desktop `target` names and switches there; the window
    /// keeps the focus. A window on every desktop stays there: only the desktop switches.
    func moveFocusedWindow(to target: WorkspaceTarget) throws(X11Error) {
        try requireEWMH(for: .moveWindowToWorkspace(target))
        let window = try focusedWindow()
        let (current, destination) = try desktops(for: target)
        if try display.cardinal(.netWMDesktop, of: window) != Self.allDesktops {
            try display.sendClientMessage(.netWMDesktop, about: window, data: [destination, Self.sourceIndicationUser])
        }
        if destination != current {
            try display.sendClientMessage(.netCurrentDesktop, about: display.root, data: [destination, CurrentTime])
        }
        // Following the window: it stays the focused one on its new desktop.
        try display.sendClientMessage(.netActiveWindow, about: window, data: [Self.sourceIndicationUser, CurrentTime, 0])
    }

    /// Toggles `_NET_SHOWING_DESKTOP` (unset counts as not showing).
    func toggleShowingDesktop() throws(X11Error) {
        try requireEWMH(for: .showDesktop)
        let showing = (try display.cardinal(.netShowingDesktop, of: display.root) ?? 0) != 0
        try display.sendClientMessage(.netShowingDesktop, about: display.root, data: [showing ? 0 : 1])
    }
}
