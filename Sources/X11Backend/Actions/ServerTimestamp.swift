internal import CX11

extension AtomName {
    /// gesture-bridge's own: appended to (with nothing) to learn the server's time.
    static let timestampProbe = AtomName("_GESTURE_BRIDGE_TIMESTAMP")
}

extension X11ActionPerformer {
    /// The X server's time now, as the server stamps events: what EWMH client messages carry
    /// (`_NET_ACTIVE_WINDOW`, `_NET_CURRENT_DESKTOP`, `_NET_CLOSE_WINDOW`).
    ///
    /// Window managers check these timestamps: 0 (`CurrentTime`) makes mutter log "Buggy client"
    /// and treat the request as one without user interaction, and a timestamp ahead of the
    /// server's clock makes its `SetInputFocus` be ignored. The engine's times for phases fired
    /// by a deadline are estimates, so the server is asked: appending nothing to a property of a
    /// window of ours makes it send a `PropertyNotify` stamped with its time. One round trip; used
    /// only by workspace and window actions, never by keys.
    func serverTimestamp() throws(X11Error) -> Int {
        let window = try timestampWindow()
        let property = try display.atom(.timestampProbe), type = try display.atom(.cardinal)
        return try display.call("server timestamp") { handle -> Int in
            var nothing: CLong = 0
            withUnsafeMutableBytes(of: &nothing) { bytes in
                _ = XChangeProperty(handle, window, property, type, 32, PropModeAppend,
                                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 0)
            }
            // Only this window's PropertyNotify is taken from the queue; other events stay.
            var event = XEvent()
            XWindowEvent(handle, window, PropertyChangeMask, &event)
            return Int(event.xproperty.time)
        }
    }

    /// The unmapped window whose property changes tell the time, created on first use.
    private func timestampWindow() throws(X11Error) -> Window {
        if let window = timestampWindowID { return window }
        let root = display.root.rawValue
        let window = try display.call("create the timestamp window", sync: true) { handle -> Window in
            let window = XCreateSimpleWindow(handle, root, -1, -1, 1, 1, 0, 0, 0)
            XSelectInput(handle, window, PropertyChangeMask)
            return window
        }
        timestampWindowID = window
        return window
    }
}
