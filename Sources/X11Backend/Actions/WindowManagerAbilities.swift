import GestureConfig

/// What the running window manager shows it can do for each workspace and window action: the
/// hints it lists in `_NET_SUPPORTED`, its desktop count, and what was seen of it when it was
/// tested (docs/config.md, «Window managers»).
///
/// Pure: `gesture-bridge doctor` asks it for a line per bound action, the performer for the
/// reason an action cannot work here and for the known cause when an action had no effect.
///
/// ```swift
/// let wm = WindowManagerAbilities(name: "i3", supported: ["_NET_CURRENT_DESKTOP", …], desktops: 1)
/// wm.ability(for: .workspace(.next), display: ":0")   // .no(":0 has 1 desktop …")
/// wm.ability(for: .tile(.left), display: ":0")        // .partly("floating windows only: …")
/// ```
struct WindowManagerAbilities: Hashable, Sendable {
    /// How an action fares on this window manager.
    enum Ability: Hashable, Sendable {
        /// It works, the way the text says.
        case yes(String)
        /// It works in some cases only, which the text names.
        case partly(String)
        /// It cannot work here, for the reason the text gives.
        case no(String)
    }

    /// The window manager's `_NET_WM_NAME` (as log lines name it).
    var name: String
    /// The hints `_NET_SUPPORTED` lists, by name.
    var supported: Set<String>
    /// `_NET_NUMBER_OF_DESKTOPS`, when published.
    var desktops: Int?

    init(name: String, supported: Set<String>, desktops: Int?) {
        self.name = name
        self.supported = supported
        self.desktops = desktops
    }

    /// What the window manager on `display` shows: the hints of interest its `_NET_SUPPORTED`
    /// lists, and its desktop count; `name` is its `_NET_WM_NAME`.
    init(reading display: X11Display, name: String) throws(X11Error) {
        let listed = Set(try display.property(.netSupported, of: display.root, maxItems: 4096)?.items ?? [])
        var supported: Set<String> = []
        for hint in Self.hintsOfInterest where listed.contains(UInt(try display.atom(AtomName(hint)))) {
            supported.insert(hint)
        }
        let desktops = try display.cardinal(.netNumberOfDesktops, of: display.root).map { Int($0) }
        self.init(name: name, supported: supported, desktops: desktops)
    }

    /// The window managers whose traits were seen in tests, by the start of their `_NET_WM_NAME`.
    enum Known: String, CaseIterable {
        case i3, bspwm, herbstluftwm, awesome, kwin = "KWin"
    }

    /// The known window manager this one is, if any.
    var known: Known? {
        Known.allCases.first { name == $0.rawValue || name.hasPrefix($0.rawValue + " ") }
    }

    /// Whether the window manager places its (tiled) windows itself: moving and resizing works
    /// only for windows it lets float.
    var tilesWindows: Bool {
        switch known {
        case .i3?, .bspwm?, .herbstluftwm?, .awesome?: true
        default: false
        }
    }

    /// The hints the performer and `doctor` look for in `_NET_SUPPORTED`: those actions cannot
    /// do without, and those that change how they are done.
    static let hintsOfInterest: [String] = {
        var hints: [String] = []
        let actions: [Action] = [.workspace(.next), .tile(.left), .moveWindowToWorkspace(.next), .showDesktop]
            + WindowOperation.allCases.map { .window($0) }
        for action in actions { for hint in requiredHints(for: action) where !hints.contains(hint) { hints.append(hint) } }
        for hint in ["_NET_MOVERESIZE_WINDOW", "_NET_FRAME_EXTENTS", "_NET_WORKAREA", "_NET_WM_STATE_HIDDEN", "_NET_CLIENT_LIST"]
        where !hints.contains(hint) { hints.append(hint) }
        return hints
    }()

    /// The hints `action` cannot do without (the performer refuses it when one is missing,
    /// naming it: a message the manager does not support would be ignored without a word).
    static func requiredHints(for action: Action) -> [String] {
        EWMHNeeds.hints(for: action)
    }

    /// How `action` fares here; `nil` for actions that do not go through the window manager.
    func ability(for action: Action, display: String) -> Ability? {
        switch action {
        case .key, .click, .scroll, .exec: return nil
        default: break
        }
        let missing = Self.requiredHints(for: action).filter { !supported.contains($0) }
        if !missing.isEmpty {
            return .no("\(name) does not list \(missing.joined(separator: ", ")) in _NET_SUPPORTED")
        }
        if let target = action.desktopTarget, let why = desktopProblem(target, display: display) { return .no(why) }
        switch action {
        case .workspace:
            return .yes("_NET_CURRENT_DESKTOP, \(desktops.map { "\($0) desktops" } ?? "desktops")")
        case .moveWindowToWorkspace:
            return .yes("_NET_WM_DESKTOP, then _NET_CURRENT_DESKTOP")
        case .window(.toggleMaximize) where known == .awesome:
            return .partly("it maximizes, but \(Self.awesomeKeepsMaximized)")
        case .window(.restore) where known == .awesome:
            return .partly("out of fullscreen only: \(Self.awesomeKeepsMaximized)")
        case .window(.maximize), .window(.toggleMaximize), .window(.fullscreen), .window(.restore):
            return .yes("_NET_WM_STATE")
        case .window(.close):
            return .yes("_NET_CLOSE_WINDOW (the application may ask first)")
        case .window(.minimize):
            if known == .i3 { return .no("\(name) has no minimized state: it ignores WM_CHANGE_STATE and _NET_WM_STATE_HIDDEN") }
            if supported.contains("_NET_WM_STATE_HIDDEN") {
                return .yes("WM_CHANGE_STATE, then _NET_WM_STATE_HIDDEN if that is not enough")
            }
            return .yes("WM_CHANGE_STATE")
        case .tile:
            let how = supported.contains("_NET_MOVERESIZE_WINDOW")
                ? "_NET_MOVERESIZE_WINDOW" : "a ConfigureRequest (\(name) does not list _NET_MOVERESIZE_WINDOW)"
            let area = supported.contains("_NET_WORKAREA") ? "within _NET_WORKAREA" : "within the monitor less the panels' struts"
            if known == .awesome { return .partly("floating windows that are not maximized (\(Self.awesomeKeepsMaximized)); \(how), \(area)") }
            if known == .herbstluftwm { return .no(Self.herbstluftwmIgnoresMoveResize) }
            if tilesWindows { return .partly("floating windows only: \(name) places its tiled windows itself; \(how), \(area)") }
            return .yes("\(how), \(area)")
        case .showDesktop:
            if known == .kwin { return .partly("only with Plasma's shell (plasmashell) running: \(name) alone hides no window") }
            return .yes("_NET_SHOWING_DESKTOP")
        case .key, .click, .scroll, .exec:
            return nil
        }
    }

    /// Why `target` goes nowhere on `display`, or `nil`: `next` and `prev` need two desktops,
    /// `N` needs N of them.
    func desktopProblem(_ target: WorkspaceTarget, display: String) -> String? {
        guard let count = desktops else { return nil }
        switch target {
        case .next, .previous:
            guard count < 2 else { return nil }
            return "\(display) has \(count) desktop\(count == 1 ? "" : "s")\(desktopAdvice)"
        case .number(let n):
            guard n > count || n < 1 else { return nil }
            return "there is no desktop \(n) on \(display): it has \(count)"
        }
    }

    /// What to know about this manager's desktops when there are too few.
    private var desktopAdvice: String {
        switch known {
        case .i3?: " (i3 creates a workspace only when it is used: bind `key super+N` to make one)"
        case .kwin?: " (KWin has 1 unless more are set: System Settings → Virtual Desktops, or kwinrc [Desktops] Number)"
        default: " (add desktops in the window manager's settings)"
        }
    }

    /// What herbstluftwm (0.9.5) was seen to do with `_NET_MOVERESIZE_WINDOW`, which it lists.
    static let herbstluftwmIgnoresMoveResize = "herbstluftwm ignores _NET_MOVERESIZE_WINDOW, for floating windows too"

    /// What awesome (4.3) was seen to do with a request to un-maximize.
    static let awesomeKeepsMaximized = "awesome ignores requests to take a window out of maximized (its own keys and buttons do it)"

    /// What is known to keep `action` from having its effect here, for the log line that says it
    /// had none; `nil` when nothing is.
    func knownCause(for action: Action) -> String? {
        switch action {
        case .window(.toggleMaximize) where known == .awesome, .window(.restore) where known == .awesome, .tile where known == .awesome:
            Self.awesomeKeepsMaximized
        case .tile where known == .herbstluftwm:
            Self.herbstluftwmIgnoresMoveResize
        case .tile where tilesWindows:
            "\(name) places its tiled windows itself: only a floating window can be tiled"
        case .tile:
            "the window manager may keep the window from that size (size hints, or a layout of its own)"
        case .window(.minimize) where known == .i3:
            "i3 has no minimized state"
        case .window(.minimize):
            "it ignores WM_CHANGE_STATE\(supported.contains("_NET_WM_STATE_HIDDEN") ? " and _NET_WM_STATE_HIDDEN" : "")"
        case .window(.close):
            "the application may have asked first (unsaved work), or ignores WM_DELETE_WINDOW"
        case .showDesktop where known == .kwin:
            "KWin shows the desktop only with Plasma's shell (plasmashell) running"
        default:
            nil
        }
    }
}
