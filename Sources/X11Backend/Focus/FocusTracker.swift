internal import CX11
public import GestureEngine

/// The application that has the focus: the `WM_CLASS` of `_NET_ACTIVE_WINDOW`.
public struct FocusedApplication: Hashable, Sendable, CustomStringConvertible {
    /// The focused (client) window.
    public var window: WindowID
    /// `WM_CLASS` instance (`res_name`, e.g. `navigator`), as the window set it; may be empty.
    public var instance: String
    /// `WM_CLASS` class (`res_class`, e.g. `firefox`), as the window set it; may be empty.
    public var className: String

    public init(window: WindowID, instance: String, className: String) {
        self.window = window
        self.instance = instance
        self.className = className
    }

    /// The one name the engine gets: the instance, or the class when the instance is empty;
    /// empty when the window has no `WM_CLASS`. Case is kept (the engine lowercases).
    public var appName: String { instance.isEmpty ? className : instance }

    public var description: String { "\(instance).\(className) (\(window))" }
}

/// A change of the focused application, as the capture layer forwards it.
public struct FocusUpdate: Hashable, Sendable {
    /// The application that has the focus now; `nil` when no window has it (or it has no
    /// `WM_CLASS`).
    public var application: FocusedApplication?

    /// The engine event: `.focus(app:appClass:)` with ``FocusedApplication/appName`` and the
    /// class (`nil` when empty), or `app: ""` when no application has the focus (so that no
    /// `app` binding matches).
    ///
    /// A binding's `app` may name the instance or the class: the engine matches either,
    /// case-insensitively, so `app = "firefox"` and `app = "navigator"` both match a window
    /// whose `WM_CLASS` is `navigator`, `firefox`.
    public var event: InputEvent.Kind {
        guard let application else { return .focus(app: "") }
        return .focus(app: application.appName, appClass: application.className.isEmpty ? nil : application.className)
    }
}

/// Follows the focused application through EWMH: `_NET_ACTIVE_WINDOW` on the root and that
/// window's `WM_CLASS`.
///
/// Creating it selects `PropertyNotify` on the root window (added to the event mask this
/// connection already has there) and reads the current focus. The capture layer passes every
/// core event to ``handle(_:)``; when `_NET_ACTIVE_WINDOW` changes and the new window belongs
/// to another application, it returns a ``FocusUpdate`` to feed to the engine.
///
/// ```swift
/// let focus = try FocusTracker(display: display)
/// engine.handle(InputEvent(time: now, focus.update.event), emit: …)
/// // for each core event:
/// if let update = focus.handle(event) { engine.handle(InputEvent(time: t, update.event), emit: …) }
/// ```
public final class FocusTracker {
    let display: X11Display
    /// The application that has the focus, as last read.
    public private(set) var current: FocusedApplication?
    private let activeWindowAtom: Atom

    /// Starts following focus on `display`.
    public init(display: X11Display) throws(X11Error) {
        self.display = display
        self.activeWindowAtom = try display.atom(.netActiveWindow)
        let root = display.root
        try display.call("XSelectInput(root, PropertyChangeMask)", sync: true) { (handle) throws(X11Error) in
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(handle, root.rawValue, &attributes) != 0 else {
                throw .failed("XGetWindowAttributes(root) failed", display: display.name)
            }
            XSelectInput(handle, root.rawValue, attributes.your_event_mask | PropertyChangeMask)
        }
        current = try read()
    }

    /// The focus as last read, as an update to feed to the engine at start.
    public var update: FocusUpdate { FocusUpdate(application: current) }

    /// Re-reads the focus; returns an update when the application changed.
    public func refresh() throws(X11Error) -> FocusUpdate? {
        let now = try read()
        guard Self.application(now) != Self.application(current) else {
            current = now
            return nil
        }
        current = now
        return FocusUpdate(application: now)
    }

    /// Handles one core event: a `PropertyNotify` of `_NET_ACTIVE_WINDOW` on the root re-reads
    /// the focus. Returns an update when the application changed; `nil` for every other event.
    func handle(_ event: XEvent) -> FocusUpdate? {
        guard event.type == PropertyNotify,
              event.xproperty.window == display.root.rawValue,
              event.xproperty.atom == activeWindowAtom
        else { return nil }
        return try? refresh()
    }

    /// The focused window and its `WM_CLASS`; `nil` when no window has the focus or it has gone.
    private func read() throws(X11Error) -> FocusedApplication? {
        guard let window = try display.windowProperty(.netActiveWindow, of: display.root) else { return nil }
        do throws(X11Error) {
            let names = try display.strings(.wmClass, of: window) ?? []
            return FocusedApplication(window: window, instance: names.first ?? "", className: names.dropFirst().first ?? "")
        } catch {
            // The window went away between the two reads: nothing has the focus for now.
            if error.protocolError?.code == .badWindow { return nil }
            throw error
        }
    }

    private static func application(_ focused: FocusedApplication?) -> [String]? {
        focused.map { [$0.instance, $0.className] }
    }
}
