import CX11
import Foundation

/// The test's own Xlib connection: an independent X client that observes what the code under
/// test did (desktops, key and button state, the keyboard mapping).
///
/// Its connection-lost exit handler returns instead of exiting, so a test that kills a server
/// with a client still open fails instead of ending the test process.
final class XClient {
    let display: OpaquePointer
    let root: Window

    init(_ name: String) throws {
        guard let display = XOpenDisplay(name) else { throw HarnessError("test client cannot open \(name)") }
        XSetIOErrorExitHandler(display, { _, _ in }, nil)
        self.display = display
        self.root = XDefaultRootWindow(display)
    }

    deinit { XCloseDisplay(display) }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// Sets the root's `_NET_ACTIVE_WINDOW` to `window` (0: none), as a window manager does.
    func setActiveWindow(_ window: Window) {
        var value = [CLong(bitPattern: UInt(window))]
        value.withUnsafeMutableBytes { bytes in
            _ = XChangeProperty(display, root, atom("_NET_ACTIVE_WINDOW"), atom("WINDOW"), 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        sync()
    }

    /// The server's time now (ms, as it stamps events): from a property change on the root.
    func serverTime() -> UInt {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, root, &attributes)
        XSelectInput(display, root, attributes.your_event_mask | PropertyChangeMask)
        let probe = atom("_GESTURE_BRIDGE_TEST_TIME")
        var value: CLong = 0
        withUnsafeMutableBytes(of: &value) { bytes in
            _ = XChangeProperty(display, root, probe, atom("CARDINAL"), 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        sync()
        var event = XEvent()
        while XCheckTypedWindowEvent(display, root, PropertyNotify, &event) != 0 {
            if event.xproperty.atom == probe { return UInt(event.xproperty.time) }
        }
        return 0
    }

    /// The 32-bit items of a property, or `nil` when it is unset.
    func longs(_ property: String, of window: Window) -> [UInt]? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, window, atom(property), 0, 64, 0, Atom(AnyPropertyType), &type, &format, &count, &remaining, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, type != 0, format == 32, let data else { return nil }
        return data.withMemoryRebound(to: CLong.self, capacity: Int(count)) { p in (0..<Int(count)).map { UInt(bitPattern: p[$0]) } }
    }

    func cardinal(_ property: String, of window: Window) -> Int? { longs(property, of: window)?.first.map { Int($0) } }

    func window(_ property: String, of window: Window) -> Window? {
        guard let value = longs(property, of: window)?.first, value != 0 else { return nil }
        return value
    }

    /// `_NET_CURRENT_DESKTOP` of the root window.
    func currentDesktop() -> Int? { cardinal("_NET_CURRENT_DESKTOP", of: root) }

    /// The names of the atoms in a window's `_NET_WM_STATE`.
    func wmState(of window: Window) -> Set<String> {
        Set((longs("_NET_WM_STATE", of: window) ?? []).compactMap { atom -> String? in
            guard let name = XGetAtomName(display, atom) else { return nil }
            defer { XFree(name) }
            return String(cString: name)
        })
    }

    /// Keycodes that are down now (`XQueryKeymap`).
    func keysDown() -> Set<UInt8> {
        var keys = [CChar](repeating: 0, count: 32)
        XQueryKeymap(display, &keys)
        var down: Set<UInt8> = []
        for (index, byte) in keys.enumerated() {
            for bit in 0..<8 where UInt8(bitPattern: byte) & (1 << bit) != 0 { down.insert(UInt8(index * 8 + bit)) }
        }
        return down
    }

    /// The pointer's root position and button/modifier mask (`XQueryPointer`; covers buttons 1–5).
    func pointer() -> (x: Int, y: Int, mask: UInt32) {
        var rootReturn: Window = 0, child: Window = 0
        var rootX: Int32 = 0, rootY: Int32 = 0, x: Int32 = 0, y: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(display, root, &rootReturn, &child, &rootX, &rootY, &x, &y, &mask)
        return (Int(rootX), Int(rootY), mask)
    }

    /// The mask bits of buttons 1–5 held now.
    func buttonsDown() -> UInt32 {
        pointer().mask & UInt32(Button1Mask | Button2Mask | Button3Mask | Button4Mask | Button5Mask)
    }

    /// The whole core keyboard mapping, flattened, and keysyms per keycode.
    func keyboardMapping() -> (min: Int, perKeycode: Int, keysyms: [UInt]) {
        var minKeycode: Int32 = 0, maxKeycode: Int32 = 0, per: Int32 = 0
        XDisplayKeycodes(display, &minKeycode, &maxKeycode)
        let count = Int(maxKeycode - minKeycode + 1)
        guard let keysyms = XGetKeyboardMapping(display, UInt8(minKeycode), Int32(count), &per) else { return (0, 0, []) }
        defer { XFree(keysyms) }
        return (Int(minKeycode), Int(per), Array(UnsafeBufferPointer(start: keysyms, count: count * Int(per))))
    }

    /// The keycode whose first column is `keysym` in the server's current mapping.
    func keycode(ofUnshifted keysym: UInt) -> UInt8? {
        let mapping = keyboardMapping()
        for index in stride(from: 0, to: mapping.keysyms.count, by: mapping.perKeycode) where mapping.keysyms[index] == keysym {
            return UInt8(mapping.min + index / mapping.perKeycode)
        }
        return nil
    }

    /// Moves the pointer (as a user's mouse would) and waits until the server did it.
    func warpPointer(to x: Int, _ y: Int) {
        XWarpPointer(display, 0, root, 0, 0, 0, 0, Int32(x), Int32(y))
        XSync(display, 0)
    }

    func sync() { XSync(display, 0) }

    /// Maps a probe window until the window manager manages it (reparents and maps it), then
    /// destroys it and waits until the manager forgot it; says whether each happened within
    /// `timeout`.
    func waitUntilWindowManagerManages(timeout: Duration) -> (mapped: Bool, forgotten: Bool) {
        let probe = XCreateSimpleWindow(display, root, 0, 0, 10, 10, 0, 0, 0)
        XSelectInput(display, probe, StructureNotifyMask)
        var mapped = false
        var lastRequest = ContinuousClock.now - .seconds(1)
        poll(timeout: timeout) {
            // A map request that arrives while the manager starts up can be lost: ask again.
            if ContinuousClock.now - lastRequest > .milliseconds(200) {
                XMapWindow(display, probe)
                XSync(display, 0)
                lastRequest = .now
            }
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                if event.type == MapNotify { mapped = true }
            }
            return mapped
        }
        XDestroyWindow(display, probe)
        XSync(display, 0)
        // openbox leaves _NET_ACTIVE_WINDOW naming the destroyed probe: only the client list says
        // it is gone.
        let forgotten = poll(timeout: timeout) {
            !(longs("_NET_CLIENT_LIST", of: root) ?? []).contains(UInt(probe))
        }
        return (mapped, forgotten)
    }
}

/// The keysym value for a name (`XStringToKeysym`).
func keysym(_ name: String) -> UInt { XStringToKeysym(name) }
