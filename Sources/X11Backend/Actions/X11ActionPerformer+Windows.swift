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
    /// How long the state must stay clear of maximized and fullscreen for a restore to be done.
    static let restoreSettle = Duration.milliseconds(30)
    /// How often the state is looked at while a restore is under way (a tile waits for it).
    static let restoreCheckInterval = Duration.milliseconds(10)

    /// `_NET_MOVERESIZE_WINDOW` flags: `NorthWestGravity` (x, y place the frame's outer top-left
    /// corner, as ICCCM defines gravity for a configure request), x, y, width and height
    /// present (bits 8–11), and the source indication of a pager (bits 12–15).
    private static let moveResizeFlags = Int(NorthWestGravity) | (0xF << 8) | (sourceIndicationUser << 12)
    /// The same with `StaticGravity`: x, y place the client window itself, for a frame the
    /// window manager does not describe (i3 places the client there whatever the gravity).
    private static let moveResizeFlagsStatic = Int(StaticGravity) | (0xF << 8) | (sourceIndicationUser << 12)

    /// `_NET_WM_DESKTOP`'s value for a window on every desktop.
    static let allDesktops: UInt = 0xFFFF_FFFF

    // MARK: - Maximized and fullscreen

    /// Maximizes `window` both ways, or restores it when it is maximized both ways (a window
    /// maximized one way only is maximized fully: that is what the gesture asks for).
    ///
    /// - Returns: whether it was maximized both ways (and so is being restored).
    @discardableResult
    func toggleMaximize(_ window: WindowID) throws(X11Error) -> Bool {
        let state = try wmState(of: window)
        let vert = try display.atom(.netWMStateMaximizedVert), horz = try display.atom(.netWMStateMaximizedHorz)
        let maximized = state.contains(UInt(vert)) && state.contains(UInt(horz))
        try display.sendClientMessage(.netWMState, about: window, data: [
            (maximized ? WMStateAction.remove : .add).rawValue, Int(vert), Int(horz), Self.sourceIndicationUser,
        ])
        return maximized
    }

    /// Asks the window manager to take `window` out of maximized (either way) and fullscreen;
    /// `then` (a tile) follows once it is done. A window in neither state is left alone and
    /// `then` happens at once.
    ///
    /// Nothing waits here: ``checkPendingEffect(now:)`` looks at the state at later turns of the
    /// loop (``ExpectedEffect/restored(_:then:)``). A fullscreen window is also un-maximized,
    /// whatever its state says: openbox lists only `_NET_WM_STATE_FULLSCREEN` for a maximized
    /// window made fullscreen and maximizes it again as it leaves fullscreen. Under load that
    /// re-maximizing was seen to land after the un-maximize, so the state must stay clear for
    /// ``restoreSettle`` before the restore counts as done, and a maximized state that comes
    /// back meanwhile is removed again. Waiting matters for `tile` too: the frame extents and
    /// geometry change with the restore (a fullscreen window has no frame), so the move must be
    /// computed from the restored window (openbox updates them before it rewrites `_NET_WM_STATE`).
    func restore(_ window: WindowID, action: Action, _ wm: WindowManagerAbilities, then: TileRequest? = nil) throws(X11Error) {
        let left = try wmState(of: window).intersection(try restoredStates())
        guard !left.isEmpty else {
            if let then { try moveAndResize(then, wm) }
            return
        }
        try askToRemove(left, from: window)
        expect(.restored(window, then: then), goal: "take the window out of maximized and fullscreen", after: action, windowManager: wm)
        pendingEffect?.removalSent = left
    }

    /// The states a restore takes a window out of: fullscreen and maximized either way.
    func restoredStates() throws(X11Error) -> Set<UInt> {
        [UInt(try display.atom(.netWMStateFullscreen)), UInt(try display.atom(.netWMStateMaximizedVert)),
         UInt(try display.atom(.netWMStateMaximizedHorz))]
    }

    /// Asks for the states of `left` to be removed from `window`: fullscreen, then both
    /// maximized states (see ``restore(_:action:_:then:)`` for why both always).
    func askToRemove(_ left: Set<UInt>, from window: WindowID) throws(X11Error) {
        let fullscreen = UInt(try display.atom(.netWMStateFullscreen))
        if left.contains(fullscreen) {
            try display.sendClientMessage(.netWMState, about: window, data: [
                WMStateAction.remove.rawValue, Int(fullscreen), 0, Self.sourceIndicationUser,
            ])
        }
        try display.sendClientMessage(.netWMState, about: window, data: [
            WMStateAction.remove.rawValue, Int(try display.atom(.netWMStateMaximizedVert)),
            Int(try display.atom(.netWMStateMaximizedHorz)), Self.sourceIndicationUser,
        ])
    }

    /// The atoms in `window`'s `_NET_WM_STATE`.
    func wmState(of window: WindowID) throws(X11Error) -> Set<UInt> {
        Set(try display.property(.netWMState, of: window)?.items ?? [])
    }

    // MARK: - Tiling

    /// Restores the focused window, then moves and resizes its frame to `side`'s half of the
    /// work area of the monitor it is on.
    ///
    /// The request is `_NET_MOVERESIZE_WINDOW` where the window manager lists it, else a plain
    /// ConfigureRequest (awesome moves floating windows so). Where the manager publishes no
    /// `_NET_FRAME_EXTENTS` (i3, bspwm) the frame is measured: the window's outermost ancestor
    /// below the root against the window itself.
    func tile(_ side: TileSide, _ wm: WindowManagerAbilities) throws(X11Error) {
        let window = try focusedWindow()
        // The monitor is the one the window is on as the user sees it: maximized or not.
        let screen = PixelRect(x: 0, y: 0, width: display.rootSize.width, height: display.rootSize.height)
        let monitors = try monitorRects(screen: screen)
        let before = try currentFrame(of: window)
        let monitor = monitors[WindowPlacement.monitor(for: before.rect, among: monitors) ?? 0]
        try restore(window, action: .tile(side), wm, then: TileRequest(window: window, side: side, monitor: monitor))
    }

    /// A tile to finish once the window is restored: the window, the side, and the monitor it
    /// was on before.
    struct TileRequest: Sendable {
        var window: WindowID
        var side: TileSide
        var monitor: PixelRect
    }

    /// Moves and resizes the (restored) window of `tile` to its half of the work area.
    func moveAndResize(_ tile: TileRequest, _ wm: WindowManagerAbilities) throws(X11Error) {
        let (window, side, monitor) = (tile.window, tile.side, tile.monitor)
        let screen = PixelRect(x: 0, y: 0, width: display.rootSize.width, height: display.rootSize.height)
        let frame = try currentFrame(of: window)
        let extents = frame.extents
        let area = try workArea(of: monitor, for: window, screen: screen)
        let target = WindowPlacement.half(side, of: area)
        let width = max(1, target.width - extents.left - extents.right)
        let height = max(1, target.height - extents.top - extents.bottom)
        let how: String
        if wm.supported.contains("_NET_MOVERESIZE_WINDOW") {
            let data = frame.published
                ? [Self.moveResizeFlags, target.x, target.y, width, height]
                : [Self.moveResizeFlagsStatic, target.x + extents.left, target.y + extents.top, width, height]
            try display.sendClientMessage(.netMoveResizeWindow, about: window, data: data)
            how = "_NET_MOVERESIZE_WINDOW"
        } else {
            // A ConfigureRequest's position follows the window's own gravity (ICCCM 4.1.2.3):
            // the client's corner for StaticGravity, else (NorthWest, the default) the frame's.
            let clientCorner = try windowGravity(of: window) == StaticGravity
            let x = clientCorner ? target.x + extents.left : target.x, y = clientCorner ? target.y + extents.top : target.y
            try display.call("XMoveResizeWindow", sync: true) { handle in
                _ = XMoveResizeWindow(handle, window.rawValue, Int32(x), Int32(y), UInt32(width), UInt32(height))
            }
            how = "ConfigureRequest"
        }
        logger.debug("window tile \(side.rawValue): frame \(target) (monitor \(monitor), work area \(area)) by \(how)",
                     metadata: ["window": "\(window)"])
        expect(.frame(window, target: target, slack: try resizeSteps(of: window)), goal: "move and resize the window to \(target)",
               after: .tile(side), windowManager: wm)
    }

    /// The monitors as rectangles: the same list gestures are judged on (``MonitorLayout``: a
    /// screen-sized monitor that `xrandr --setmonitor` ones cover is left out), or the whole
    /// screen without RandR 1.5 or monitors.
    private func monitorRects(screen: PixelRect) throws(X11Error) -> [PixelRect] {
        let monitors = display.gestureMonitors().map { PixelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        return monitors.isEmpty ? [screen] : monitors
    }

    /// A window's frame as the user sees it, and the frame's borders around the window.
    struct Frame {
        var rect: PixelRect
        var extents: FrameExtents
        /// Whether the window manager published the extents (`_NET_FRAME_EXTENTS`), or they
        /// were measured.
        var published: Bool
    }

    /// The window's frame: its own geometry grown by `_NET_FRAME_EXTENTS`; without them, its
    /// outermost ancestor below the root (a reparenting manager's frame; the window itself
    /// under one that does not reparent).
    func currentFrame(of window: WindowID) throws(X11Error) -> Frame {
        if let items = try display.property(.netFrameExtents, of: window)?.items, items.count >= 4 {
            let v = items.map { Int(clamping: $0) }
            let extents = FrameExtents(left: v[0], right: v[1], top: v[2], bottom: v[3])
            return Frame(rect: extents.frame(around: try rootGeometry(of: window)), extents: extents, published: true)
        }
        // Measured from the window's inside, so that a border the manager gives the window
        // itself (bspwm does not reparent) counts as frame: the size asked for is the inside.
        let client = try rootGeometry(of: window, border: false)
        let outer = try rootGeometry(of: try outermostAncestor(of: window))
        let extents = FrameExtents(
            left: max(0, client.x - outer.x), right: max(0, outer.maxX - client.maxX),
            top: max(0, client.y - outer.y), bottom: max(0, outer.maxY - client.maxY))
        return Frame(rect: extents.frame(around: client), extents: extents, published: false)
    }

    /// A window's area on the root window, its border included unless `border` is false.
    private func rootGeometry(of window: WindowID, border withBorder: Bool = true) throws(X11Error) -> PixelRect {
        let root = display.root.rawValue
        return try display.call("XGetGeometry") { handle -> PixelRect in
            var rootReturn: Window = 0, child: Window = 0
            var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
            XGetGeometry(handle, window.rawValue, &rootReturn, &x, &y, &width, &height, &border, &depth)
            var rootX: Int32 = 0, rootY: Int32 = 0
            XTranslateCoordinates(handle, window.rawValue, root, 0, 0, &rootX, &rootY, &child)
            let b = withBorder ? Int(border) : 0
            return PixelRect(x: Int(rootX) - b, y: Int(rootY) - b, width: Int(width) + 2 * b, height: Int(height) + 2 * b)
        }
    }

    /// The ancestor of `window` that is a child of the root (`window` itself when it is one).
    private func outermostAncestor(of window: WindowID) throws(X11Error) -> WindowID {
        var current = window.rawValue
        // A window hierarchy is shallow; the bound only guards against a loop.
        for _ in 0..<32 {
            let parent = try display.call("XQueryTree") { handle -> Window in
                var rootReturn: Window = 0, parent: Window = 0
                var children: UnsafeMutablePointer<Window>?
                var count: UInt32 = 0
                XQueryTree(handle, current, &rootReturn, &parent, &children, &count)
                if let children { XFree(children) }
                return parent
            }
            if parent == 0 || parent == display.root.rawValue { break }
            current = parent
        }
        return WindowID(rawValue: current)
    }

    /// `win_gravity` from the window's `WM_NORMAL_HINTS` (`NorthWestGravity` when not set).
    private func windowGravity(of window: WindowID) throws(X11Error) -> Int32 {
        try display.call("XGetWMNormalHints") { handle -> Int32 in
            var hints = XSizeHints()
            var supplied: Int = 0
            guard XGetWMNormalHints(handle, window.rawValue, &hints, &supplied) != 0, hints.flags & PWinGravity != 0 else {
                return NorthWestGravity
            }
            return hints.win_gravity
        }
    }

    /// How far short of a requested size an application may keep its window: its resize step
    /// (`WM_NORMAL_HINTS` increments: a terminal's character cell), else nothing.
    private func resizeSteps(of window: WindowID) throws(X11Error) -> PixelSize {
        try display.call("XGetWMNormalHints") { handle -> PixelSize in
            var hints = XSizeHints()
            var supplied: Int = 0
            guard XGetWMNormalHints(handle, window.rawValue, &hints, &supplied) != 0, hints.flags & PResizeInc != 0 else {
                return PixelSize(width: 0, height: 0)
            }
            return PixelSize(width: Int(max(0, hints.width_inc)), height: Int(max(0, hints.height_inc)))
        }
    }

    /// The work area of `monitor` for `window`: the monitor less the struts of the panels
    /// (``struts(besides:)``), and less what the window manager's `_NET_WORKAREA` reserves
    /// beyond those (its own panels: fluxbox's toolbar, IceWM's taskbar). A manager without
    /// `_NET_WORKAREA` (awesome) has the struts of its own top-level windows read instead.
    private func workArea(of monitor: PixelRect, for window: WindowID, screen: PixelRect) throws(X11Error) -> PixelRect {
        var struts = try struts(besides: window)
        if let published = try publishedWorkArea(for: window) {
            struts += WindowPlacement.reservations(of: published, beyond: struts, screen: screen)
        } else {
            struts += try topLevelStruts()
        }
        return WindowPlacement.workArea(of: monitor, struts: struts, screen: screen)
    }

    /// `_NET_WORKAREA` for the desktop `window` is on (the one shown, for a window on every
    /// desktop), or `nil` when not published.
    private func publishedWorkArea(for window: WindowID) throws(X11Error) -> PixelRect? {
        guard let items = try display.property(.netWorkArea, of: display.root, maxItems: 4 * 1024)?.items, items.count >= 4 else { return nil }
        let areas = items.count / 4
        var desktop = try display.cardinal(.netWMDesktop, of: window).map { Int(clamping: $0) } ?? 0
        if desktop >= areas || desktop < 0 {
            desktop = try display.cardinal(.netCurrentDesktop, of: display.root).map { Int(clamping: $0) } ?? 0
        }
        let v = items[(min(desktop, areas - 1) * 4)...].prefix(4).map { Int(clamping: $0) }
        let area = PixelRect(x: v[0], y: v[1], width: v[2], height: v[3])
        return area.isEmpty ? nil : area
    }

    /// The struts of the mapped windows directly below the root: a window manager's own bars
    /// (awesome's wibar) are there and not in `_NET_CLIENT_LIST`.
    private func topLevelStruts() throws(X11Error) -> [Strut] {
        let root = display.root.rawValue
        let children = try display.call("XQueryTree") { handle -> [Window] in
            var rootReturn: Window = 0, parent: Window = 0
            var list: UnsafeMutablePointer<Window>?
            var count: UInt32 = 0
            XQueryTree(handle, root, &rootReturn, &parent, &list, &count)
            defer { if let list { XFree(list) } }
            return list.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
        }
        var struts: [Strut] = []
        for child in children {
            if let strut = try strut(of: WindowID(rawValue: child), mappedOnly: true) { struts.append(strut) }
        }
        return struts
    }

    /// The strut `window` reserves (`_NET_WM_STRUT_PARTIAL`, else `_NET_WM_STRUT`); `nil` for
    /// none, for a window that is gone, and with `mappedOnly` for one that is not viewable.
    private func strut(of window: WindowID, mappedOnly: Bool = false) throws(X11Error) -> Strut? {
        let screen = PixelRect(x: 0, y: 0, width: display.rootSize.width, height: display.rootSize.height)
        do throws(X11Error) {
            if let partial = try display.property(.netWMStrutPartial, of: window)?.items, let strut = Strut(partial: partial) {
                if mappedOnly, try mapState(of: window) != IsViewable { return nil }
                return strut
            }
            if let legacy = try display.property(.netWMStrut, of: window)?.items, let strut = Strut(legacy: legacy, screen: screen) {
                if mappedOnly, try mapState(of: window) != IsViewable { return nil }
                return strut
            }
            return nil
        } catch {
            // A window that went away while it was read reserves nothing.
            if error.protocolError?.code == .badWindow { return nil }
            throw error
        }
    }

    /// The struts of the managed windows (`_NET_CLIENT_LIST`, docks and panels included) other
    /// than `window` that are on `window`'s desktop or on every desktop:
    /// `_NET_WM_STRUT_PARTIAL`, else `_NET_WM_STRUT`.
    private func struts(besides window: WindowID) throws(X11Error) -> [Strut] {
        let desktop = try display.cardinal(.netWMDesktop, of: window)
        let clients = try display.property(.netClientList, of: display.root, maxItems: 65536)?.items ?? []
        var struts: [Strut] = []
        for raw in clients where raw != window.rawValue {
            let client = WindowID(rawValue: raw)
            do throws(X11Error) {
                let on = try display.cardinal(.netWMDesktop, of: client)
                if let on, let desktop, on != desktop, on != Self.allDesktops, desktop != Self.allDesktops { continue }
            } catch {
                if error.protocolError?.code == .badWindow { continue }
                throw error
            }
            if let strut = try strut(of: client) { struts.append(strut) }
        }
        return struts
    }

    // MARK: - Desktops

    /// Sends the focused window to the desktop `target` names and switches there; the window
    /// keeps the focus. A window on every desktop stays there: only the desktop switches.
    func moveFocusedWindow(to target: WorkspaceTarget, _ wm: WindowManagerAbilities) throws(X11Error) {
        let window = try focusedWindow()
        let (current, destination) = try desktops(for: target, wm)
        if try display.cardinal(.netWMDesktop, of: window) != Self.allDesktops {
            try display.sendClientMessage(.netWMDesktop, about: window, data: [destination, Self.sourceIndicationUser])
        }
        let time = try serverTimestamp()
        if destination != current {
            try display.sendClientMessage(.netCurrentDesktop, about: display.root, data: [destination, time])
        }
        // Following the window: it stays the focused one on its new desktop.
        try display.sendClientMessage(.netActiveWindow, about: window, data: [Self.sourceIndicationUser, time, 0])
        expect(.windowOnDesktop(window, desktop: destination), goal: "move the window to desktop \(destination + 1) and show it",
               after: .moveWindowToWorkspace(target), windowManager: wm)
    }

    /// Toggles `_NET_SHOWING_DESKTOP` (unset counts as not showing).
    func toggleShowingDesktop(_ wm: WindowManagerAbilities) throws(X11Error) {
        let showing = (try display.cardinal(.netShowingDesktop, of: display.root) ?? 0) != 0
        // The focused window, when one is shown, must go when the desktop is shown: KWin sets
        // the property without hiding anything when Plasma's shell is not running.
        var shown: WindowID? = nil
        if !showing, let window = try? focusedWindow(), try !isHidden(window) { shown = window }
        try display.sendClientMessage(.netShowingDesktop, about: display.root, data: [showing ? 0 : 1])
        expect(.showingDesktop(!showing, hidden: shown), goal: showing ? "bring the windows back" : "show the desktop",
               after: .showDesktop, windowManager: wm)
    }
}

/// The borders a frame adds around a window, in pixels (`_NET_FRAME_EXTENTS` order).
struct FrameExtents: Hashable, Sendable {
    var left: Int, right: Int, top: Int, bottom: Int

    /// The frame around a window at `client`.
    func frame(around client: PixelRect) -> PixelRect {
        PixelRect(x: client.x - left, y: client.y - top, width: client.width + left + right, height: client.height + top + bottom)
    }
}
