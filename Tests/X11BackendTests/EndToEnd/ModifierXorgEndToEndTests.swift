import CX11
import Foundation
import Testing

/// A touchscreen and a touchpad gesture with Ctrl held on a real keyboard (the headless Xorg's
/// inputtest devices): the Ctrl binding fires, live (XI 2 state of the touch begin and of the
/// touchpad gesture begin) and observed (`--dry-run`, `record`: the state read at the raw event).
@Suite("modifier keys on touchscreens and touchpads, end to end on headless Xorg", .serialized,
       .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
struct ModifierXorgEndToEndTests {
    /// 3-finger swipes right: a plain binding and a Ctrl one, each touching its own file.
    static func config(_ dir: URL) -> String {
        """
        [[bind]]
        gesture = "swipe"
        fingers = 3
        direction = "right"
        action = "exec touch \(dir.appendingPathComponent("plain").path)"

        [[bind]]
        gesture = "swipe"
        fingers = 3
        direction = "right"
        modifiers = "ctrl"
        action = "exec touch \(dir.appendingPathComponent("ctrl").path)"
        """
    }

    static func exists(_ dir: URL, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path)
    }

    static func remove(_ dir: URL, _ name: String) {
        try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
    }

    @Test("with Ctrl held, a touchscreen and a touchpad 3-finger swipe fire the Ctrl binding; without it, the plain one")
    func ctrlPicksTheCtrlBinding() throws {
        try XServer.with(.xorgInputTest) { server in
            let dir = DaemonProcess.makeDirectory()
            let daemon = try DaemonProcess(server, config: Self.config(dir))
            let keyboard = try server.keyboard(), touch = try server.touchscreen(), touchpad = try server.touchpad()
            let client = try XClient(server.name)
            let ctrl = Int32(XKeysymToKeycode(client.display, keysym("Control_L")))
            for device in ["touchscreen", "touchpad"] {
                func swipe() throws {
                    if device == "touchscreen" { try touch.swipe(fingers: 3, from: 400, 400, by: 300, 0) } else {
                        try touchpad.touchpadSwipe(fingers: 3, by: 300, 0)
                    }
                }
                try keyboard.key(ctrl, pressed: true)
                try keyboard.sync()
                try swipe()
                try keyboard.key(ctrl, pressed: false)
                try keyboard.sync()
                #expect(poll { Self.exists(dir, "ctrl") }, "\(device) with Ctrl: \(daemon.output)")
                #expect(!Self.exists(dir, "plain"), "\(device) with Ctrl fired the plain binding")
                Self.remove(dir, "ctrl")
                try swipe()
                #expect(poll { Self.exists(dir, "plain") }, "\(device) without Ctrl: \(daemon.output)")
                #expect(!Self.exists(dir, "ctrl"), "\(device) without Ctrl fired the Ctrl binding")
                Self.remove(dir, "plain")
            }
            #expect(client.keysDown().isEmpty)
        }
    }

    @Test("--dry-run prints mods for a gesture begun with Ctrl held, and record writes them")
    func observedModifiers() throws {
        try XServer.with(.xorgInputTest) { server in
            let dir = DaemonProcess.makeDirectory()
            let config = Self.config(dir)
            let keyboard = try server.keyboard(), touch = try server.touchscreen(), touchpad = try server.touchpad()
            let client = try XClient(server.name)
            let ctrl = Int32(XKeysymToKeycode(client.display, keysym("Control_L")))
            func swipesWithCtrl() throws {
                try keyboard.key(ctrl, pressed: true)
                try keyboard.sync()
                try touch.swipe(fingers: 3, from: 400, 400, by: 300, 0)
                try touchpad.touchpadSwipe(fingers: 3, by: 300, 0)
                try keyboard.key(ctrl, pressed: false)
                try keyboard.sync()
            }
            // One observer at a time: the server gives one client a root window's gesture events.
            let dryRun = try DaemonProcess(server, config: config, arguments: ["--dry-run", "--json"])
            try swipesWithCtrl()
            let line = #""mods":["ctrl"],"x""#
            #expect(poll { dryRun.output.components(separatedBy: line).count == 3 }, "\(dryRun.output)")
            #expect(dryRun.output.contains(#""device":"touchscreen","mods":["ctrl"]"#), "\(dryRun.output)")
            #expect(dryRun.output.contains(#""device":"touchpad","mods":["ctrl"]"#), "\(dryRun.output)")
            #expect(dryRun.output.components(separatedBy: "exec touch \(dir.appendingPathComponent("ctrl").path)").count == 3)
            dryRun.signal(SIGINT)
            #expect(dryRun.waitForExit() == 0, "\(dryRun.output)")

            let trace = dir.appendingPathComponent("trace.jsonl")
            let recorder = try DaemonProcess(server, config: config, arguments: ["record", trace.path])
            try swipesWithCtrl()
            usleep(200_000)
            recorder.signal(SIGINT)
            #expect(recorder.waitForExit() == 0, "\(recorder.output)")
            let recorded = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            let lines = recorded.split(separator: "\n")
            #expect(lines.first { $0.contains(#""type":"touch-begin""#) }?.hasSuffix(#","mods":["ctrl"]}"#) == true, "\(recorded)")
            #expect(lines.first { $0.contains(#""type":"touchpad-swipe-begin""#) }?.hasSuffix(#","mods":["ctrl"]}"#) == true, "\(recorded)")
            #expect(!lines.contains { $0.contains("mods") && !$0.contains("-begin") }, "mods on begins only: \(recorded)")
        }
    }
}
