import CX11
import Foundation

/// A window on its own Xlib connection that records the key and button events it receives,
/// like an application would see them.
///
/// Keysyms are looked up the way applications do, when the event is processed and after the
/// `MappingNotify`s before it (`XRefreshKeyboardMapping`, then `XLookupString` with the event's
/// modifier state).
final class EventWindow {
    /// One received event.
    struct Received: Hashable, CustomStringConvertible {
        enum Kind: String { case keyPress, keyRelease, buttonPress, buttonRelease, motion, deleteRequest }
        var kind: Kind
        /// Keycode for keys, button for buttons.
        var detail: Int
        /// The keysym the event means with its modifier state (keys only).
        var keysym: UInt = 0
        var x = 0, y = 0, rootX = 0, rootY = 0
        var state: UInt32 = 0

        var description: String {
            switch kind {
            case .keyPress, .keyRelease:
                let name = XKeysymToString(keysym).map { String(cString: $0) } ?? "0x\(String(keysym, radix: 16))"
                return "\(kind.rawValue) \(name) (keycode \(detail))"
            case .buttonPress, .buttonRelease:
                return "\(kind.rawValue) \(detail) at (\(x), \(y)) root (\(rootX), \(rootY))"
            case .motion:
                return "motion root (\(rootX), \(rootY)) state 0x\(String(state, radix: 16))"
            case .deleteRequest:
                return "WM_DELETE_WINDOW"
            }
        }
    }

    let client: XClient
    let window: Window
    private(set) var received: [Received] = []
    private let deleteWindow: Atom

    /// Creates and maps the window, waits until it is viewable, and (without a window manager)
    /// gives it the keyboard focus.
    init(server: String, x: Int = 100, y: Int = 100, width: Int = 400, height: Int = 300,
         wmClass: (instance: String, className: String)? = nil, takeFocus: Bool = true, motion: Bool = false) throws {
        client = try XClient(server)
        let display = client.display
        window = XCreateSimpleWindow(display, client.root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0, 0xffffff)
        // With `motion`, pointer motion is recorded too (to check that a drag given back arrives in order).
        let motionMask = motion ? PointerMotionMask : 0
        XSelectInput(display, window, KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask | StructureNotifyMask | motionMask)
        deleteWindow = client.atom("WM_DELETE_WINDOW")
        // Without WM_DELETE_WINDOW, a window manager's "close" kills this connection.
        var protocols = [deleteWindow]
        XSetWMProtocols(display, window, &protocols, 1)
        if let wmClass {
            var hint = XClassHint()
            wmClass.instance.withCString { instance in
                wmClass.className.withCString { className in
                    hint.res_name = UnsafeMutablePointer(mutating: instance)
                    hint.res_class = UnsafeMutablePointer(mutating: className)
                    XSetClassHint(display, window, &hint)
                }
            }
        }
        XMapWindow(display, window)
        XSync(display, 0)
        var mapped = false
        poll(timeout: .seconds(5)) {
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                if event.type == MapNotify { mapped = true }
            }
            return mapped
        }
        guard mapped else {
            var attributes = XWindowAttributes()
            XGetWindowAttributes(display, window, &attributes)
            var rootReturn: Window = 0, parent: Window = 0
            var children: UnsafeMutablePointer<Window>?
            var count: UInt32 = 0
            XQueryTree(display, window, &rootReturn, &parent, &children, &count)
            if let children { XFree(children) }
            throw HarnessError("test window was not mapped (map state \(attributes.map_state), parent \(parent == client.root ? "root" : "0x" + String(parent, radix: 16)))")
        }
        // A window manager may still be configuring it: its size must be what was asked for,
        // or a test would aim at a window that is not where it thinks (the geometry of a
        // reused window id was seen applied to it, see XServer.startOpenbox).
        var attributes = XWindowAttributes()
        let sized = poll(timeout: .seconds(3)) {
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
            }
            XGetWindowAttributes(display, window, &attributes)
            return Int(attributes.width) == width && Int(attributes.height) == height
        }
        guard sized else {
            throw HarnessError("test window is \(attributes.width) × \(attributes.height), not the \(width) × \(height) asked for")
        }
        if takeFocus {
            XSetInputFocus(display, window, RevertToParent, 0)
            XSync(display, 0)
        }
    }

    /// Reads every event waiting for the window.
    func pump() {
        let display = client.display
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            switch event.type {
            case MappingNotify:
                XRefreshKeyboardMapping(&event.xmapping)
            case KeyPress, KeyRelease:
                var sym: KeySym = 0
                var buffer = [CChar](repeating: 0, count: 16)
                XLookupString(&event.xkey, &buffer, Int32(buffer.count), &sym, nil)
                received.append(Received(
                    kind: event.type == KeyPress ? .keyPress : .keyRelease, detail: Int(event.xkey.keycode),
                    keysym: sym, state: event.xkey.state))
            case ButtonPress, ButtonRelease:
                let b = event.xbutton
                received.append(Received(
                    kind: event.type == ButtonPress ? .buttonPress : .buttonRelease, detail: Int(b.button),
                    x: Int(b.x), y: Int(b.y), rootX: Int(b.x_root), rootY: Int(b.y_root), state: b.state))
            case MotionNotify:
                let m = event.xmotion
                received.append(Received(kind: .motion, detail: 0, x: Int(m.x), y: Int(m.y), rootX: Int(m.x_root), rootY: Int(m.y_root), state: m.state))
            case ClientMessage where UInt(event.xclient.data.l.0) == deleteWindow:
                received.append(Received(kind: .deleteRequest, detail: 0))
            default:
                break
            }
        }
    }

    /// Waits until at least `count` events arrived (or `timeout` passed) and returns them all.
    @discardableResult
    func waitForEvents(_ count: Int, timeout: Duration = .seconds(5)) -> [Received] {
        poll(timeout: timeout) {
            pump()
            return received.count >= count
        }
        return received
    }

    /// Forgets what was received so far.
    func reset() {
        pump()
        received.removeAll()
    }
}
