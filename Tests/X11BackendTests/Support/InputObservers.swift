import CX11
import Foundation

/// An XI 2.2 client on its own connection that selects touch events and, on request, pointer
/// motion on one window, as a touch-aware application (or a desktop on the root window) would,
/// and records what it receives in order.
///
/// A touch is delivered to it only once it owns the touch: after the daemon's grab rejected
/// it. Claimed touches never arrive (it does not select `XI_TouchOwnership`).
final class XI2Observer {
    /// One received touch event.
    struct Touch: Hashable, CustomStringConvertible {
        enum Kind: String { case begin, end }
        var kind: Kind
        /// The server's touch id.
        var id: UInt32
        var description: String { "\(kind.rawValue) \(id)" }
    }

    let client: XClient
    let window: Window
    private let opcode: Int32
    /// Touch begins and ends received so far, in order (updates are not kept).
    private(set) var touches: [Touch] = []
    /// The `buttons` mask (bits 1–8) of every `XI_Motion` received, in order.
    private(set) var motionButtons: [UInt32] = []

    /// Selects `XI_TouchBegin/Update/End` (with `touches`) and `XI_Motion` (with `motion`) on
    /// `window` (nil: the root window) for every master device.
    init(server: String, window: Window? = nil, touches: Bool = true, motion: Bool = false) throws {
        client = try XClient(server)
        self.window = window ?? client.root
        opcode = try client.xinput22Opcode(server)
        var events = touches ? [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd] : []
        if motion { events.append(XI_Motion) }
        guard client.selectXI(events, on: self.window) else { throw HarnessError("XISelectEvents failed on \(server)") }
    }

    /// Reads every event waiting.
    func pump() {
        let display = client.display
        client.forEachPendingEvent { event in
            guard event.type == GenericEvent, event.xcookie.extension == opcode, XGetEventData(display, &event.xcookie) != 0 else { return }
            defer { XFreeEventData(display, &event.xcookie) }
            let e = event.xcookie.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            switch e.evtype {
            case XI_TouchBegin: touches.append(Touch(kind: .begin, id: UInt32(bitPattern: e.detail)))
            case XI_TouchEnd: touches.append(Touch(kind: .end, id: UInt32(bitPattern: e.detail)))
            case XI_Motion:
                let mask = UnsafeBufferPointer(start: e.buttons.mask, count: Int(e.buttons.mask_len))
                motionButtons.append(mask.first.map { UInt32($0) } ?? 0)
            default: break
            }
        }
    }

    /// Waits until at least `count` touch ends arrived (or `timeout` passed); says whether they did.
    func waitForEnds(_ count: Int, timeout: Duration = .seconds(2)) -> Bool {
        poll(timeout: timeout) {
            pump()
            return touches.filter { $0.kind == .end }.count >= count
        }
    }

    /// What is wrong with the touches received: each must begin once, then end once, begins
    /// in increasing id order (the server numbers touches as they land). Empty when all is well.
    func sequenceProblems() -> [String] {
        var problems: [String] = []
        var begun: Set<UInt32> = [], ended: Set<UInt32> = []
        var lastBegin: UInt32? = nil
        for t in touches {
            switch t.kind {
            case .begin:
                if begun.contains(t.id) { problems.append("touch \(t.id) began twice") }
                if let lastBegin, t.id <= lastBegin { problems.append("touch \(t.id) began after touch \(lastBegin)") }
                begun.insert(t.id)
                lastBegin = t.id
            case .end:
                if !begun.contains(t.id) { problems.append("touch \(t.id) ended without a begin") }
                if ended.contains(t.id) { problems.append("touch \(t.id) ended twice") }
                ended.insert(t.id)
            }
        }
        for id in begun.subtracting(ended).sorted() { problems.append("touch \(id) never ended") }
        return problems
    }
}

/// A second client's core event selection on an existing window: a precise probe for what
/// the server thinks the buttons are. With only `Button1MotionMask`, any `MotionNotify` while
/// no button is physically held means the server thinks a drag is on.
final class MotionProbe {
    let client: XClient
    /// The `state` of every `MotionNotify` received, in order.
    private(set) var states: [UInt32] = []

    init(server: String, window: Window, mask: Int) throws {
        client = try XClient(server)
        XSelectInput(client.display, window, mask)
        XSync(client.display, 0)
    }

    /// Reads every event waiting; returns the states of all motion received so far.
    @discardableResult
    func pump() -> [UInt32] {
        client.forEachPendingEvent { event in
            if event.type == MotionNotify { states.append(event.xmotion.state) }
        }
        return states
    }
}

extension XClient {
    /// Hands every event waiting on this connection to `body`, without blocking.
    func forEachPendingEvent(_ body: (inout XEvent) -> Void) {
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            body(&event)
        }
    }
}
