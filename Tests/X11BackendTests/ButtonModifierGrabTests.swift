import BridgeCore
import CX11
import Foundation
import GestureConfig
import GestureEngine
import Testing
@testable import X11Backend

/// A pointer swipe binding: `[[bind]]` with `device = "pointer"` and the given keys.
func pointerSwipe(_ direction: String, button: Int? = nil, modifiers: String? = nil, action: String) -> String {
    "[[bind]]\ngesture = \"swipe\"\ndevice = \"pointer\"\n" + (button.map { "button = \($0)\n" } ?? "")
        + (modifiers.map { "modifiers = \"\($0)\"\n" } ?? "") + "direction = \"\(direction)\"\naction = \"\(action)\"\n\n"
}

/// Super + left-drag right: the next desktop. A plain right-drag left: the previous one.
let superLeftConfig = pointerSwipe("right", button: 1, modifiers: "super", action: "workspace next")
    + pointerSwipe("left", action: "workspace prev")

/// The trigger buttons' grabs per modifier set (docs/interface.md, «Modifier keys and trigger
/// buttons»): a button whose bindings all name modifiers is grabbed only with those (and the
/// locks'), and a pair another client holds is said once, naming the bindings that cannot fire.
@Suite("trigger button grabs per modifiers", .serialized)
struct ButtonModifierGrabTests {
    /// Another client's passive grab of `button` on the root window in exactly `modifiers`;
    /// 0 when granted.
    static func grab(_ client: XClient, _ button: Int32, modifiers: UInt32) -> Int32 {
        var bits = [UInt8](repeating: 0, count: 4)
        bits[Int(XI_ButtonPress) >> 3] |= UInt8(1 << (Int(XI_ButtonPress) & 7))
        var list = [XIGrabModifiers(modifiers: Int32(bitPattern: modifiers), status: 0)]
        let failed = bits.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return XIGrabButton(client.display, XIAllMasterDevices, button, client.root, 0, XIGrabModeAsync, XIGrabModeAsync, 0, &mask, 1, &list)
        }
        XSync(client.display, 0)
        return failed
    }

    /// Super + left-drag right, and a plain right-drag left (the previous desktop).
    static let config = superLeftConfig

    @Test("a button whose bindings all name modifiers is grabbed in those states only; the trigger button with any")
    func grabsPerModifiers() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            let parsed = try Config.parse(Self.config, file: "c.toml")
            let capture = try X11InputCapture(display: display, mode: .grab, needs: CaptureNeeds(parsed), logger: quietLogger)
            let map = try display.modifierMap()
            let other = try XClient(server.name)
            // Button 1: Super (with the locks) is the bridge's; plain, Ctrl+Super and Shift are free.
            for state in map.grabMasks(.super) {
                #expect(Self.grab(other, 1, modifiers: state) != 0, "button 1 in state 0x\(String(state, radix: 16)) is the bridge's")
            }
            for state in [0, map.mask(of: [.ctrl, .super]), map.mask(of: .shift)] {
                #expect(Self.grab(other, 1, modifiers: state) == 0, "button 1 in state 0x\(String(state, radix: 16)) is free")
            }
            // Button 3: every state.
            #expect(Self.grab(other, 3, modifiers: 0) != 0)
            #expect(Self.grab(other, 3, modifiers: map.mask(of: .alt)) != 0)
            #expect(capture.grabConflicts.isEmpty)
            capture.releaseGrabs()
            #expect(Self.grab(other, 1, modifiers: map.mask(of: .super)) == 0, "released at shutdown")
            #expect(Self.grab(other, 3, modifiers: 0) == 0)
        }
    }

    @Test("a pair another client holds: the daemon starts, says it once naming the bindings, and doctor warns")
    func pairHeldByAnotherClient() throws {
        try XServer.with(windowManager: true) { server in
            let other = try XClient(server.name)
            let map = try X11Display(name: server.name).modifierMap()
            try #require(Self.grab(other, 1, modifiers: map.mask(of: .super)) == 0)

            let checks = try DoctorTests.run(server, config: Self.config)
            let all = DoctorTests.text(checks)
            print("doctor with Super + button 1 held by another client:\n\(all)")
            let button = try DoctorTests.check("button grab", in: checks)
            #expect(button.status == .warn, "\(all)")
            #expect(button.message.contains("another client holds a grab of super + button 1 on the root window"), "\(all)")
            #expect(button.message.contains("1 binding cannot fire: swipe right with 1 finger on pointer button 1 holding super → workspace next"),
                    "\(all)")
            #expect(Doctor.canRun(checks), "the other bindings work: \(all)")

            let daemon = try DaemonProcess(server, config: Self.config)
            #expect(poll { daemon.output.contains("another client holds a grab of super + button 1") }, "\(daemon.output)")
            #expect(daemon.output.components(separatedBy: "another client holds a grab").count == 2, "said once: \(daemon.output)")
            // The plain right binding works.
            try rightDrag(server, from: 700, 300, by: -300)
            let client = try XClient(server.name)
            #expect(poll { client.currentDesktop() == 3 }, "the previous desktop, wrapping around: \(daemon.output)")
            // A reload that changes nothing about it does not say it again.
            daemon.signal(SIGHUP)
            #expect(poll { daemon.output.contains("config reloaded") || daemon.output.contains("reload") }, "\(daemon.output)")
            usleep(200_000)
            #expect(daemon.output.components(separatedBy: "another client holds a grab").count == 2, "said once: \(daemon.output)")
        }
    }
}
