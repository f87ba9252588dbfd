import CX11
import GestureEngine
import Testing
@testable import X11Backend

@Suite("focus tracking through _NET_ACTIVE_WINDOW and WM_CLASS")
struct FocusTrackerTests {
    @Test("a focus change to another application becomes a focus event with its WM_CLASS instance")
    func followsFocus() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            let tracker = try FocusTracker(display: display)
            #expect(tracker.current == nil)
            #expect(tracker.update.event == .focus(app: ""))

            let firefox = try EventWindow(server: server.name, wmClass: ("navigator", "Firefox"), takeFocus: false)
            let firefox2 = try EventWindow(server: server.name, wmClass: ("navigator", "Firefox"), takeFocus: false)
            let terminal = try EventWindow(server: server.name, wmClass: ("xterm", "XTerm"), takeFocus: false)
            let bare = try EventWindow(server: server.name, takeFocus: false)
            let client = try XClient(server.name)

            var updates: [FocusUpdate] = []
            func drain(until count: Int) -> Bool {
                poll {
                    while let event = display.nextEvent() {
                        if let update = tracker.handle(event) { updates.append(update) }
                    }
                    return updates.count >= count
                }
            }

            client.setActiveWindow(firefox.window)
            try #require(drain(until: 1))
            #expect(updates[0].application == FocusedApplication(window: WindowID(rawValue: UInt(firefox.window)), instance: "navigator", className: "Firefox"))
            #expect(updates[0].event == .focus(app: "navigator", appClass: "Firefox"))

            // Another window of the same application is no change; a terminal is.
            client.setActiveWindow(firefox2.window)
            client.setActiveWindow(terminal.window)
            try #require(drain(until: 2))
            #expect(updates.count == 2)
            #expect(updates[1].event == .focus(app: "xterm", appClass: "XTerm"))
            #expect(updates[1].application?.className == "XTerm")

            client.setActiveWindow(bare.window)
            try #require(drain(until: 3))
            #expect(updates[2].application?.instance == "")
            #expect(updates[2].event == .focus(app: ""))

            client.setActiveWindow(0)
            try #require(drain(until: 4))
            #expect(updates[3].application == nil)
            #expect(tracker.current == nil)
        }
    }

    @Test("the tracker reads the focus that is already there when it starts")
    func initialFocus() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, wmClass: ("gesture-test", "GestureTest"), takeFocus: false)
            let client = try XClient(server.name)
            try #require(poll { client.window("_NET_ACTIVE_WINDOW", of: client.root) == window.window })
            let tracker = try FocusTracker(display: X11Display(name: server.name))
            #expect(tracker.current?.appName == "gesture-test")
            #expect(tracker.update.event == .focus(app: "gesture-test", appClass: "GestureTest"))
        }
    }
}
