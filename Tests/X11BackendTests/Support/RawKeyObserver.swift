import CX11
import Foundation

/// A client that records every raw key event on the root window (`XI_RawKeyPress/Release` for
/// all devices), as `down Alt_L` / `up Tab` lines: it sees XTest keys whoever has the keyboard
/// grabbed (a window manager cycling windows grabs it).
final class RawKeyObserver {
    let client: XClient
    private let opcode: Int32
    private let mapping: (min: Int, perKeycode: Int, keysyms: [UInt])
    /// What was received so far, in order.
    private(set) var lines: [String] = []

    init(server: String) throws {
        client = try XClient(server)
        opcode = try client.xinput22Opcode(server)
        guard client.selectXI([XI_RawKeyPress, XI_RawKeyRelease], on: client.root) else {
            throw HarnessError("XISelectEvents(raw keys) failed on \(server)")
        }
        mapping = client.keyboardMapping()
    }

    /// The unshifted keysym name of a keycode, as the keymap had it when the observer started.
    private func name(of keycode: Int) -> String {
        let start = (keycode - mapping.min) * mapping.perKeycode
        guard start >= 0, start < mapping.keysyms.count else { return "keycode \(keycode)" }
        return XKeysymToString(mapping.keysyms[start]).map { String(cString: $0) } ?? "keycode \(keycode)"
    }

    /// Reads every event waiting; returns everything received so far.
    @discardableResult
    func pump() -> [String] {
        let display = client.display
        client.forEachPendingEvent { event in
            guard event.type == GenericEvent, event.xcookie.extension == opcode, XGetEventData(display, &event.xcookie) != 0 else { return }
            defer { XFreeEventData(display, &event.xcookie) }
            let e = event.xcookie.data.assumingMemoryBound(to: XIRawEvent.self).pointee
            switch e.evtype {
            case XI_RawKeyPress: lines.append("down \(name(of: Int(e.detail)))")
            case XI_RawKeyRelease: lines.append("up \(name(of: Int(e.detail)))")
            default: break
            }
        }
        return lines
    }

    /// Forgets what was received.
    func reset() {
        pump()
        lines = []
    }
}

extension XClient {
    /// XInput's major opcode on this connection, once XI 2.2 is agreed on.
    func xinput22Opcode(_ server: String) throws -> Int32 {
        var op: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(display, "XInputExtension", &op, &event, &error) != 0 else { throw HarnessError("no XInput on \(server)") }
        var major: Int32 = 2, minor: Int32 = 2
        guard XIQueryVersion(display, &major, &minor) == Success else { throw HarnessError("XI 2.2 refused on \(server)") }
        return op
    }

    /// Selects the XI 2 `events` on `window` for every master device; says whether the server agreed.
    func selectXI(_ events: [Int32], on window: Window) -> Bool {
        var bits = [UInt8](repeating: 0, count: 4)
        for e in events { bits[Int(e) >> 3] |= UInt8(1 << (Int(e) & 7)) }
        let display = self.display
        let status = bits.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return XISelectEvents(display, window, &mask, 1)
        }
        XSync(display, 0)
        return status == Success
    }
}
