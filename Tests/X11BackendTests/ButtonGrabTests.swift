import BridgeCore
import CX11
import GestureEngine
import Testing
@testable import X11Backend
import Logging
import LogTestKit

/// The trigger button's grab is never left off: when it cannot be put back after an injected
/// click, that is logged once and it is tried again until it is back.
@Suite("the trigger button's grab")
struct ButtonGrabTests {
    /// Another client's passive XI2 grab of `button` on the root window, with any modifiers.
    func grabButton(_ client: XClient, _ button: Int32) -> Int32 {
        var bits = [UInt8](repeating: 0, count: 4)
        bits[Int(XI_ButtonPress) >> 3] |= UInt8(1 << (Int(XI_ButtonPress) & 7))
        var modifiers = [XIGrabModifiers(modifiers: Int32(bitPattern: UInt32(XIAnyModifier)), status: 0)]
        let failed = bits.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return XIGrabButton(client.display, XIAllMasterDevices, button, client.root, 0, XIGrabModeAsync, XIGrabModeAsync, 0, &mask, 1, &modifiers)
        }
        XSync(client.display, 0)
        return failed
    }

    /// What the capture grabs for a pointer binding of `[pointer] button` = `button`.
    static func needs(button: Int) -> CaptureNeeds {
        CaptureNeeds(
            touchscreen: false, touchpadSwipes: false, touchpadPinches: false,
            pointer: PointerPresses(triggers: [Trigger(gesture: .swipe, device: .pointer)], defaultButton: button))
    }

    func ungrabButton(_ client: XClient, _ button: Int32) {
        var modifiers = [XIGrabModifiers(modifiers: Int32(bitPattern: UInt32(XIAnyModifier)), status: 0)]
        XIUngrabButton(client.display, XIAllMasterDevices, button, client.root, 1, &modifiers)
        XSync(client.display, 0)
    }

    @Test("a grab taken by another client during an injected click is logged once and restored when it is free")
    func lostGrabIsRestored() throws {
        try XServer.with { server in
            let recording = RecordingLogHandler.Recording()
            let display = try X11Display(name: server.name)
            let capture = try X11InputCapture(
                display: display, mode: .grab, needs: Self.needs(button: 3), logger: RecordingLogHandler.logger(recording))
            capture.grabRetryInterval = .zero
            let other = try XClient(server.name)
            #expect(grabButton(other, 3) != 0, "the bridge holds the grab: another client cannot take it")

            capture.suspendingButtonGrab(3) {
                // The moment the grab is lifted for the click, another client takes the button.
                #expect(grabButton(other, 3) == 0)
            }
            for _ in 0..<5 { capture.restoreButtonGrab() }
            let paused = recording.messages.filter { $0.message.contains("pointer gestures are paused") }
            #expect(paused.count == 1, "logged once, not per retry: \(recording.messages)")
            #expect(paused.first?.level == .error)

            ungrabButton(other, 3)
            capture.restoreButtonGrab()
            #expect(recording.messages.contains { $0.message.contains("grabbed again") }, "\(recording.messages)")
            #expect(grabButton(other, 3) != 0, "the bridge holds the grab again")
        }
    }

    @Test("a reload to a button another client holds keeps the old button grabbed")
    func failedButtonChangeKeepsOldGrab() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            let capture = try X11InputCapture(display: display, mode: .grab, needs: Self.needs(button: 3), logger: quietLogger)
            let other = try XClient(server.name)
            #expect(grabButton(other, 2) == 0)
            #expect(throws: X11Error.self) { try capture.setPointerGrabs(Self.needs(button: 2).pointer) }
            #expect(capture.pointer.buttons.map(\.button) == [3])
            #expect(grabButton(other, 3) != 0, "button 3 is still the bridge's")
        }
    }
}
