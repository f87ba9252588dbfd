internal import CX11

extension X11Display {
    /// Sets one passive grab on the root window for every master device (`XIAllMasterDevices`),
    /// with any modifiers (`XIAnyModifier`), and returns its status: a grab conflict is not an
    /// X error but a status in the modifiers array (0: granted; `BadAccess`, 10: another client
    /// holds a grab that conflicts; the server does not say which client).
    ///
    /// - Parameters:
    ///   - operation: the name X errors are reported under.
    ///   - events: the XI 2 event types the grab selects.
    ///   - grab: the `XIGrab…` call, given the display, the root window, the mask and the
    ///     one-element modifier list; it returns the number of modifiers that failed.
    func passiveGrab(
        _ operation: String, events: [Int32],
        _ grab: (OpaquePointer, Window, inout XIEventMask, inout [XIGrabModifiers]) -> Int32
    ) throws(X11Error) -> Int32 {
        var mask = EventMask()
        for e in events { mask.set(e) }
        let root = self.root.rawValue
        return try call(operation, sync: true) { handle -> Int32 in
            var modifiers = X11InputCapture.anyModifier
            return mask.withXIEventMask(device: X11InputCapture.masterPointer) { m in
                var m = m
                let failed = grab(handle, root, &m, &modifiers)
                return failed > 0 ? modifiers[0].status : 0
            }
        }
    }
}
