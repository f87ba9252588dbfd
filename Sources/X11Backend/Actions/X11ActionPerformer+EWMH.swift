internal import CX11
import GestureConfig

extension X11ActionPerformer {
    /// EWMH `_NET_WM_STATE` actions.
    enum WMStateAction: Int {
        case remove = 0, add = 1, toggle = 2
    }

    /// EWMH source indication 2: a pager or other tool acting for the user (window managers
    /// honour it over focus-stealing rules meant for applications).
    static let sourceIndicationUser = 2
    /// ICCCM `IconicState`.
    private static let iconicState = 3

    /// Switches desktop through EWMH.
    func switchWorkspace(to target: WorkspaceTarget) throws(X11Error) {
        try requireEWMH(for: .workspace(target))
        let (current, destination) = try desktops(for: target)
        guard destination != current else { return }
        try display.sendClientMessage(.netCurrentDesktop, about: display.root, data: [destination, CurrentTime])
    }

    /// The current desktop and the one `target` names (0-based), wrapping for next and prev.
    func desktops(for target: WorkspaceTarget) throws(X11Error) -> (current: Int, destination: Int) {
        let root = display.root
        guard let count = try display.cardinal(.netNumberOfDesktops, of: root).map({ Int($0) }), count > 0 else {
            throw refuse("the window manager on \(display.name) publishes no _NET_NUMBER_OF_DESKTOPS")
        }
        let current = try display.cardinal(.netCurrentDesktop, of: root).map({ Int($0) }) ?? 0
        let destination: Int
        switch target {
        case .next: destination = (current + 1) % count
        case .previous: destination = (current + count - 1) % count
        case .number(let n):
            guard (1...count).contains(n) else {
                throw refuse("there is no desktop \(n) on \(display.name): it has \(count)")
            }
            destination = n - 1
        }
        return (current, destination)
    }

    /// Acts on the focused window through EWMH/ICCCM.
    func actOnActiveWindow(_ operation: WindowOperation) throws(X11Error) {
        try requireEWMH(for: .window(operation))
        let window = try focusedWindow()
        switch operation {
        case .maximize:
            try display.sendClientMessage(.netWMState, about: window, data: [
                WMStateAction.toggle.rawValue,
                Int(try display.atom(.netWMStateMaximizedVert)),
                Int(try display.atom(.netWMStateMaximizedHorz)),
                Self.sourceIndicationUser,
            ])
        case .fullscreen:
            try display.sendClientMessage(.netWMState, about: window, data: [
                WMStateAction.toggle.rawValue, Int(try display.atom(.netWMStateFullscreen)), 0, Self.sourceIndicationUser,
            ])
        case .minimize:
            try display.sendClientMessage(.wmChangeState, about: window, data: [Self.iconicState])
        case .close:
            try display.sendClientMessage(.netCloseWindow, about: window, data: [CurrentTime, Self.sourceIndicationUser])
        case .toggleMaximize:
            try toggleMaximize(window)
        case .restore:
            try restore(window)
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

    /// Fails unless an EWMH window manager runs and lists in `_NET_SUPPORTED` every hint the
    /// action uses (the ones `gesture-bridge doctor` checks): a message it does not support
    /// would be ignored without a word.
    func requireEWMH(for action: Action) throws(X11Error) {
        try requireWindowManager()
        let needed = EWMHNeeds.hints(for: action)
        guard !needed.isEmpty else { return }
        let supported = Set(try display.property(.netSupported, of: display.root, maxItems: 4096)?.items ?? [])
        var missing: [String] = []
        for hint in needed where !supported.contains(UInt(try display.atom(AtomName(hint)))) { missing.append(hint) }
        guard missing.isEmpty else {
            throw refuse("the window manager on \(display.name) does not list \(missing.joined(separator: ", ")) in _NET_SUPPORTED, "
                + "so it would ignore the request; use a window manager that supports \(missing.count == 1 ? "it" : "them")")
        }
    }

    /// Fails unless an EWMH window manager runs: without one, these messages go nowhere.
    private func requireWindowManager() throws(X11Error) {
        guard try display.ewmhWindowManagerCheckWindow() != nil else {
            throw refuse("no EWMH window manager is running on \(display.name) (the root window has no valid _NET_SUPPORTING_WM_CHECK); "
                + "start one: workspace and window actions work again as soon as it runs")
        }
    }
}
