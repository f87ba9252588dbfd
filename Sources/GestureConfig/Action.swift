/// What a binding does, parsed and checked when the config loads (docs/config.md).
///
/// The text form stays with the binding (``Binding/actionText``) for output; the performer
/// only ever sees this typed value.
///
/// ```swift
/// let a = try Action(parsing: "key ctrl+alt+Right")   // .key(KeyCombo(...))
/// ```
public enum Action: Hashable, Sendable {
    /// Press the keys in order, release them in reverse.
    case key(KeyCombo)
    /// Click a mouse button (1 left, 2 middle, 3 right, or any X button number).
    case click(button: Int)
    /// Scroll `steps` times (buttons 4–7).
    case scroll(ScrollDirection, steps: Int)
    /// Switch desktop through EWMH.
    case workspace(WorkspaceTarget)
    /// Act on the focused window through EWMH.
    case window(WindowOperation)
    /// Start a program, no shell: `argv[0]` is looked up in `PATH`.
    case exec(argv: [String])
    /// Restore the focused window, then move and resize its frame to that half of the work area
    /// of the monitor it is on (`window tile left`).
    case tile(TileSide)
    /// Send the focused window to a desktop and switch to it (`window move-to-workspace next`).
    case moveWindowToWorkspace(WorkspaceTarget)
    /// Toggle `_NET_SHOWING_DESKTOP` (`show-desktop`).
    case showDesktop
}

/// A key combination: X keysyms pressed in order and released in reverse.
public struct KeyCombo: Hashable, Sendable, CustomStringConvertible {
    /// One key of the combination.
    public struct Key: Hashable, Sendable {
        /// The X keysym name, as X spells it (`Control_L`, `Right`, `XF86AudioRaiseVolume`).
        public var name: String
        /// The keysym value.
        public var keysym: UInt32
        public init(name: String, keysym: UInt32) { self.name = name; self.keysym = keysym }
    }
    /// The keys, in press order.
    public var keys: [Key]
    public init(keys: [Key]) { self.keys = keys }
    public var description: String { keys.map(\.name).joined(separator: "+") }
}

/// `scroll` directions; X buttons 4 (up), 5 (down), 6 (left), 7 (right).
public enum ScrollDirection: String, CaseIterable, Hashable, Sendable {
    case up, down, left, right
    /// The X button that scrolls this way.
    public var button: Int {
        switch self {
        case .up: 4
        case .down: 5
        case .left: 6
        case .right: 7
        }
    }
}

/// `workspace` targets.
public enum WorkspaceTarget: Hashable, Sendable {
    /// The next desktop, wrapping around.
    case next
    /// The previous desktop, wrapping around.
    case previous
    /// Desktop N, counted from 1 as written in the config.
    case number(Int)
}

/// `window` operations on `_NET_ACTIVE_WINDOW`.
public enum WindowOperation: String, CaseIterable, Hashable, Sendable {
    case maximize, minimize, fullscreen, close
    /// Maximize, or restore when maximized both ways.
    case toggleMaximize = "toggle-maximize"
    /// Take the window out of maximized and fullscreen.
    case restore
}
