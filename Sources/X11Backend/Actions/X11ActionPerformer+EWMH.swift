internal import CX11
import GestureConfig

extension AtomName {
    static let netWMStateHidden = AtomName("_NET_WM_STATE_HIDDEN")
    static let netWorkArea = AtomName("_NET_WORKAREA")
    static let netWMName = AtomName("_NET_WM_NAME")
    static let wmName = AtomName("WM_NAME")
    static let wmState = AtomName("WM_STATE")
    static let wmNormalHints = AtomName("WM_NORMAL_HINTS")
}

extension X11ActionPerformer {
    /// EWMH `_NET_WM_STATE` actions.
    enum WMStateAction: Int {
        case remove = 0, add = 1, toggle = 2
    }

    /// EWMH source indication 2: a pager or other tool acting for the user (window managers
    /// honour it over focus-stealing rules meant for applications).
    static let sourceIndicationUser = 2
    /// ICCCM `IconicState`.
    static let iconicState = 3

    /// Performs a workspace or window action through the window manager, and leaves its
    /// expected effect to be checked (``maintain(now:)``).
    func askWindowManager(_ action: Action) throws(X11Error) {
        settlePendingEffect()
        let wm = try windowManager(for: action)
        switch action {
        case .workspace(let target): try switchWorkspace(to: target, wm)
        case .window(let operation): try actOnActiveWindow(operation, wm)
        case .tile(let side): try tile(side, wm)
        case .moveWindowToWorkspace(let target): try moveFocusedWindow(to: target, wm)
        case .showDesktop: try toggleShowingDesktop(wm)
        case .key, .click, .scroll, .exec: break
        }
    }

    /// Switches desktop through EWMH.
    func switchWorkspace(to target: WorkspaceTarget, _ wm: WindowManagerAbilities) throws(X11Error) {
        let (current, destination) = try desktops(for: target, wm)
        guard destination != current else { return }
        try display.sendClientMessage(.netCurrentDesktop, about: display.root, data: [destination, try serverTimestamp()])
        expect(.currentDesktop(destination), goal: "switch to desktop \(destination + 1)", after: .workspace(target), windowManager: wm)
    }

    /// The current desktop and the one `target` names (0-based), wrapping for next and prev;
    /// fails when there is nowhere to go (one desktop, or fewer than N).
    func desktops(for target: WorkspaceTarget, _ wm: WindowManagerAbilities) throws(X11Error) -> (current: Int, destination: Int) {
        guard let count = wm.desktops, count > 0 else {
            throw refuse("the window manager on \(display.name) publishes no _NET_NUMBER_OF_DESKTOPS")
        }
        let current = try display.cardinal(.netCurrentDesktop, of: display.root).map({ Int($0) }) ?? 0
        if let problem = wm.desktopProblem(target, display: display.name) { throw refuse(problem) }
        let destination: Int
        switch target {
        case .next: destination = (current + 1) % count
        case .previous: destination = (current + count - 1) % count
        case .number(let n): destination = n - 1
        }
        return (current, destination)
    }

    /// Acts on the focused window through EWMH/ICCCM.
    func actOnActiveWindow(_ operation: WindowOperation, _ wm: WindowManagerAbilities) throws(X11Error) {
        let window = try focusedWindow()
        let action = Action.window(operation)
        let vert = UInt(try display.atom(.netWMStateMaximizedVert)), horz = UInt(try display.atom(.netWMStateMaximizedHorz))
        switch operation {
        case .maximize:
            // Adds, never toggles: `toggle-maximize` is the one that restores (docs/config.md).
            try display.sendClientMessage(.netWMState, about: window, data: [
                WMStateAction.add.rawValue, Int(vert), Int(horz), Self.sourceIndicationUser,
            ])
            expect(.state(window, present: [vert, horz], absent: []), goal: "maximize the window", after: action, windowManager: wm)
        case .fullscreen:
            let fullscreen = UInt(try display.atom(.netWMStateFullscreen))
            let was = try wmState(of: window).contains(fullscreen)
            try display.sendClientMessage(.netWMState, about: window, data: [
                WMStateAction.toggle.rawValue, Int(fullscreen), 0, Self.sourceIndicationUser,
            ])
            expect(.state(window, present: was ? [] : [fullscreen], absent: was ? [fullscreen] : []),
                   goal: was ? "take the window out of fullscreen" : "make the window fullscreen", after: action, windowManager: wm)
        case .minimize:
            try display.sendClientMessage(.wmChangeState, about: window, data: [Self.iconicState])
            // bspwm ignores WM_CHANGE_STATE but hides a window on _NET_WM_STATE_HIDDEN, which it
            // lists; others list it and ignore it from clients, as EWMH says they may.
            let fallback = wm.supported.contains(AtomName.netWMStateHidden.rawValue) ? PendingEffect.Fallback.addHidden(window) : nil
            expect(.minimized(window), goal: "minimize the window", after: action, windowManager: wm, fallback: fallback)
        case .close:
            try display.sendClientMessage(.netCloseWindow, about: window, data: [try serverTimestamp(), Self.sourceIndicationUser])
            expect(.closed(window), goal: "close the window", after: action, windowManager: wm)
        case .toggleMaximize:
            let maximized = try toggleMaximize(window)
            expect(.state(window, present: maximized ? [] : [vert, horz], absent: maximized ? [vert, horz] : []),
                   goal: maximized ? "restore the window" : "maximize the window", after: action, windowManager: wm)
        case .restore:
            try restore(window, action: action, wm)
        }
    }

    /// The window `_NET_ACTIVE_WINDOW` names, when it exists and is an application's window.
    func focusedWindow() throws(X11Error) -> WindowID {
        guard let window = try display.windowProperty(.netActiveWindow, of: display.root) else {
            throw refuse("no window has the focus (_NET_ACTIVE_WINDOW is unset)")
        }
        // Window managers can leave _NET_ACTIVE_WINDOW naming a window that is gone (openbox
        // does when the focused window is destroyed and nothing takes the focus).
        guard try display.windowExists(window) else {
            throw refuse("no window has the focus (_NET_ACTIVE_WINDOW names \(window), which no longer exists)")
        }
        // A desktop window (a file manager's icons) or a panel can hold the focus: moving,
        // closing or maximizing it is never what a gesture meant.
        if let type = try display.property(.netWMWindowType, of: window)?.items.first {
            for (name, what) in [(AtomName.netWMWindowTypeDesktop, "the desktop"), (.netWMWindowTypeDock, "a panel or dock")]
            where type == UInt(try display.atom(name)) {
                throw refuse("no application window has the focus: the focused window \(window) is \(what) (\(name.rawValue))")
            }
        }
        return window
    }

    /// The window manager and what it shows it can do; fails unless an EWMH window manager runs
    /// and lists in `_NET_SUPPORTED` every hint `action` cannot do without (the ones
    /// `gesture-bridge doctor` checks): a message it does not support would be ignored without a
    /// word.
    func windowManager(for action: Action) throws(X11Error) -> WindowManagerAbilities {
        let check = try requireWindowManager()
        let wm = try WindowManagerAbilities(reading: display, name: try windowManagerName(check))
        let missing = WindowManagerAbilities.requiredHints(for: action).filter { !wm.supported.contains($0) }
        guard missing.isEmpty else {
            throw refuse("the window manager on \(display.name) does not list \(missing.joined(separator: ", ")) in _NET_SUPPORTED, "
                + "so it would ignore the request; use a window manager that supports \(missing.count == 1 ? "it" : "them")")
        }
        return wm
    }

    /// The name the window manager gives its check window (`_NET_WM_NAME`, else `WM_NAME`),
    /// read once per window manager.
    private func windowManagerName(_ check: WindowID) throws(X11Error) -> String {
        if let known = windowManagerName, known.check == check { return known.name }
        var name = try display.strings(.netWMName, of: check)?.first { !$0.isEmpty }
        if name == nil { name = try display.strings(.wmName, of: check)?.first { !$0.isEmpty } }
        let found = name ?? "the window manager"
        windowManagerName = (check, found)
        return found
    }

    /// The window manager's check window; fails unless an EWMH window manager runs: without
    /// one, these messages go nowhere.
    private func requireWindowManager() throws(X11Error) -> WindowID {
        guard let check = try display.ewmhWindowManagerCheckWindow() else {
            throw refuse("no EWMH window manager is running on \(display.name) (the root window has no valid _NET_SUPPORTING_WM_CHECK); "
                + "start one: workspace and window actions work again as soon as it runs")
        }
        return check
    }
}
