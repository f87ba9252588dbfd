internal import CX11

/// The name of an X atom, with the ones gesture-bridge uses as named statics.
struct AtomName: RawRepresentable, Hashable, Sendable {
    var rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
    init(_ rawValue: String) { self.rawValue = rawValue }

    static let netSupportingWMCheck = AtomName("_NET_SUPPORTING_WM_CHECK")
    static let netCurrentDesktop = AtomName("_NET_CURRENT_DESKTOP")
    static let netNumberOfDesktops = AtomName("_NET_NUMBER_OF_DESKTOPS")
    static let netActiveWindow = AtomName("_NET_ACTIVE_WINDOW")
    static let netWMState = AtomName("_NET_WM_STATE")
    static let netWMStateMaximizedVert = AtomName("_NET_WM_STATE_MAXIMIZED_VERT")
    static let netWMStateMaximizedHorz = AtomName("_NET_WM_STATE_MAXIMIZED_HORZ")
    static let netWMStateFullscreen = AtomName("_NET_WM_STATE_FULLSCREEN")
    static let netCloseWindow = AtomName("_NET_CLOSE_WINDOW")
    static let netSupported = AtomName("_NET_SUPPORTED")
    static let netClientList = AtomName("_NET_CLIENT_LIST")
    static let netWMDesktop = AtomName("_NET_WM_DESKTOP")
    static let netShowingDesktop = AtomName("_NET_SHOWING_DESKTOP")
    static let netMoveResizeWindow = AtomName("_NET_MOVERESIZE_WINDOW")
    static let netFrameExtents = AtomName("_NET_FRAME_EXTENTS")
    static let netWMStrut = AtomName("_NET_WM_STRUT")
    static let netWMStrutPartial = AtomName("_NET_WM_STRUT_PARTIAL")
    static let netWMWindowType = AtomName("_NET_WM_WINDOW_TYPE")
    static let netWMWindowTypeDesktop = AtomName("_NET_WM_WINDOW_TYPE_DESKTOP")
    static let netWMWindowTypeDock = AtomName("_NET_WM_WINDOW_TYPE_DOCK")
    static let wmChangeState = AtomName("WM_CHANGE_STATE")
    static let wmClass = AtomName("WM_CLASS")
    static let cardinal = AtomName("CARDINAL")
    /// gesture-bridge's own: the spare keycodes lent to keysyms, as (keycode, keysym) pairs.
    static let lentKeycodes = AtomName("_GESTURE_BRIDGE_LENT_KEYCODES")
}

/// The value of a window property, as `XGetWindowProperty` returned it.
struct PropertyValue: Hashable, Sendable {
    /// The property's type atom.
    var type: Atom
    /// 8, 16 or 32.
    var format: Int32
    /// The items: bytes for format 8, 16-bit values for 16, 32-bit values for 32 (each widened).
    var items: [UInt]

    /// The items as bytes (format 8).
    var bytes: [UInt8] { items.map { UInt8(truncatingIfNeeded: $0) } }
}

extension X11Display {
    /// Reads a property of `window`; `nil` when the window has no such property.
    ///
    /// - Parameter maxItems: At most this many 32-bit units are read (enough for every property
    ///   gesture-bridge reads).
    func property(_ name: AtomName, of window: WindowID, maxItems: Int = 1024) throws(X11Error) -> PropertyValue? {
        let atom = try atom(name)
        return try call("XGetWindowProperty(\(name.rawValue))") { (display) throws(X11Error) -> PropertyValue? in
            var type: Atom = 0
            var format: Int32 = 0
            var count: UInt = 0
            var remaining: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let status = XGetWindowProperty(
                display, window.rawValue, atom, 0, maxItems, 0, Atom(AnyPropertyType),
                &type, &format, &count, &remaining, &data)
            defer { if let data { XFree(data) } }
            // A failed request reports its X error through the chokepoint; a bare status is a
            // failure without one.
            guard status == Success else { return nil }
            guard type != 0, let data else { return nil }
            let n = Int(count)
            let items: [UInt]
            switch format {
            case 8: items = (0..<n).map { UInt(data[$0]) }
            // Format 16 and 32 items come back as C short and long, not as 16/32-bit values.
            case 16: items = data.withMemoryRebound(to: CShort.self, capacity: n) { p in (0..<n).map { UInt(UInt16(bitPattern: p[$0])) } }
            default: items = data.withMemoryRebound(to: CLong.self, capacity: n) { p in (0..<n).map { UInt(UInt32(truncatingIfNeeded: p[$0])) } }
            }
            return PropertyValue(type: type, format: format, items: items)
        }
    }

    /// Sets a 32-bit `CARDINAL` property of `window` to `items`; deletes it when `items` is empty.
    func setCardinals(_ name: AtomName, of window: WindowID, to items: [UInt]) throws(X11Error) {
        let atom = try atom(name)
        let type = try self.atom(.cardinal)
        try call("XChangeProperty(\(name.rawValue))", sync: true) { display in
            if items.isEmpty {
                XDeleteProperty(display, window.rawValue, atom)
                return
            }
            // Format 32 items go to Xlib as C longs.
            var values = items.map { CLong(bitPattern: $0) }
            values.withUnsafeMutableBytes { bytes in
                _ = XChangeProperty(display, window.rawValue, atom, type, 32, PropModeReplace,
                                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(items.count))
            }
        }
    }

    /// The first item of a 32-bit property as a number (`CARDINAL`, `WINDOW`), or `nil`.
    func cardinal(_ name: AtomName, of window: WindowID) throws(X11Error) -> UInt? {
        guard let value = try property(name, of: window), value.format == 32 else { return nil }
        return value.items.first
    }

    /// A `WINDOW` property, or `nil` when unset or `None`.
    func windowProperty(_ name: AtomName, of window: WindowID) throws(X11Error) -> WindowID? {
        guard let raw = try cardinal(name, of: window), raw != 0 else { return nil }
        return WindowID(rawValue: raw)
    }

    /// The NUL-separated strings of an 8-bit property (`WM_CLASS`), or `nil`.
    func strings(_ name: AtomName, of window: WindowID) throws(X11Error) -> [String]? {
        guard let value = try property(name, of: window), value.format == 8 else { return nil }
        var bytes = value.bytes
        if bytes.last == 0 { bytes.removeLast() }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `window` still exists (`XGetWindowAttributes` does not fail with `BadWindow`).
    func windowExists(_ window: WindowID) throws(X11Error) -> Bool {
        do throws(X11Error) {
            return try call("XGetWindowAttributes") { display in
                var attributes = XWindowAttributes()
                return XGetWindowAttributes(display, window.rawValue, &attributes) != 0
            }
        } catch {
            if error.protocolError?.code == .badWindow { return false }
            throw error
        }
    }

    /// The window manager's check window when an EWMH window manager runs, else `nil`.
    ///
    /// EWMH: the root's `_NET_SUPPORTING_WM_CHECK` names a window whose own
    /// `_NET_SUPPORTING_WM_CHECK` names itself. A stale property (the WM died) fails the check.
    func ewmhWindowManagerCheckWindow() throws(X11Error) -> WindowID? {
        guard let check = try windowProperty(.netSupportingWMCheck, of: root) else { return nil }
        do throws(X11Error) {
            return try windowProperty(.netSupportingWMCheck, of: check) == check ? check : nil
        } catch {
            if error.protocolError?.code == .badWindow { return nil }
            throw error
        }
    }

    /// Sends an EWMH/ICCCM client message about `window` to the root window, where the window
    /// manager listens (`SubstructureRedirect | SubstructureNotify`), and waits until the server
    /// has taken it.
    func sendClientMessage(_ type: AtomName, about window: WindowID, data: [Int]) throws(X11Error) {
        let messageType = try atom(type)
        let root = self.root
        try call("XSendEvent(\(type.rawValue))", sync: true) { display in
            var event = XEvent()
            event.xclient.type = ClientMessage
            event.xclient.send_event = 1
            event.xclient.display = display
            event.xclient.window = window.rawValue
            event.xclient.message_type = messageType
            event.xclient.format = 32
            let l = data + Array(repeating: 0, count: max(0, 5 - data.count))
            event.xclient.data.l = (l[0], l[1], l[2], l[3], l[4])
            XSendEvent(display, root.rawValue, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        }
    }
}
