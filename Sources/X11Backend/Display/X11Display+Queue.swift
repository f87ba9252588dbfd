internal import CX11

extension X11Display {
    /// Whether an XInput event of type `evtype` (e.g. `XI_HierarchyChanged`) is waiting: in
    /// Xlib's queue, or already on the socket (read without blocking). The queue stays as it is;
    /// nothing is sent to the server.
    ///
    /// For an event whose meaning depends on one the server sends right after it: a device
    /// being disabled or unplugged first ends its touches, as if lifted, then reports the
    /// hierarchy change.
    func hasQueuedEvent(xinput evtype: Int32) -> Bool {
        guard !isConnectionLost else { return false }
        var search = QueueSearch(opcode: xinputOpcode, evtype: evtype)
        _ = try? call("XCheckIfEvent") { handle in
            var event = XEvent()
            withUnsafeMutablePointer(to: &search) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout<QueueSearch>.size) { argument in
                    // The predicate only looks: returning False leaves every event in the queue.
                    _ = XCheckIfEvent(handle, &event, { _, event, argument in
                        guard let event, let argument else { return 0 }
                        argument.withMemoryRebound(to: QueueSearch.self, capacity: 1) { search in
                            let cookie = event.pointee.xcookie
                            if cookie.type == GenericEvent, cookie.extension == search.pointee.opcode, cookie.evtype == search.pointee.evtype {
                                search.pointee.found = true
                            }
                        }
                        return 0
                    }, argument)
                }
            }
        }
        return search.found
    }
}

/// What ``X11Display/hasQueuedEvent(xinput:)`` looks for, passed through Xlib's predicate.
private struct QueueSearch {
    var opcode: Int32
    var evtype: Int32
    var found = false
}
