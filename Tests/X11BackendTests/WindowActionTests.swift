import BridgeCore
import CX11
import GestureConfig
import Testing
@testable import X11Backend
import GestureEngine

@Suite("window actions through EWMH")
struct WindowActionTests {
    @Test("maximize, fullscreen, close and minimize act on the focused window under openbox")
    func windowOperations() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, takeFocus: false)
            let client = try XClient(server.name)
            // openbox focuses new windows (focusNew) and publishes it.
            try #require(poll { client.window("_NET_ACTIVE_WINDOW", of: client.root) == window.window })
            let performer = try makePerformer(server)

            try performer.perform(.window(.maximize), context: context(.touchscreen))
            #expect(poll { client.wmState(of: window.window).isSuperset(of: ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]) })
            // Maximize adds the state: done again, the window stays maximized (toggle-maximize
            // is the one that restores).
            try performer.perform(.window(.maximize), context: context(.touchscreen))
            try #require(pingWindowManager(client))
            #expect(client.wmState(of: window.window).isSuperset(of: ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]))
            try performer.perform(.window(.toggleMaximize), context: context(.touchscreen))
            #expect(poll { client.wmState(of: window.window).isDisjoint(with: ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]) })

            try performer.perform(.window(.fullscreen), context: context(.touchscreen))
            #expect(poll { client.wmState(of: window.window).contains("_NET_WM_STATE_FULLSCREEN") })
            try performer.perform(.window(.fullscreen), context: context(.touchscreen))
            #expect(poll { !client.wmState(of: window.window).contains("_NET_WM_STATE_FULLSCREEN") })

            // Close asks politely: the window gets WM_DELETE_WINDOW and decides.
            try performer.perform(.window(.close), context: context(.touchscreen))
            #expect(poll {
                window.pump()
                return window.received.contains { $0.kind == .deleteRequest }
            })

            try performer.perform(.window(.minimize), context: context(.touchscreen))
            // ICCCM WM_STATE: IconicState (3).
            #expect(poll { client.longs("WM_STATE", of: window.window)?.first == 3 })
            #expect(poll { client.wmState(of: window.window).contains("_NET_WM_STATE_HIDDEN") })
        }
    }

    @Test("when the focused window is gone, window actions say no window has the focus")
    func noFocusedWindow() throws {
        try XServer.with(windowManager: true) { server in
            let client = try XClient(server.name)
            let window = try EventWindow(server: server.name, takeFocus: false)
            try #require(poll { client.window("_NET_ACTIVE_WINDOW", of: client.root) == window.window })
            XDestroyWindow(window.client.display, window.window)
            window.client.sync()
            try #require(poll { !(client.longs("_NET_CLIENT_LIST", of: client.root) ?? []).contains(UInt(window.window)) })

            let performer = try makePerformer(server)
            let error = #expect(throws: ActionError.self) { try performer.perform(.window(.close), context: context(.pointer)) }
            // openbox leaves _NET_ACTIVE_WINDOW naming the destroyed window; a manager that
            // clears it gets the other sentence.
            if let stale = client.window("_NET_ACTIVE_WINDOW", of: client.root) {
                #expect(error?.message == "window close: no window has the focus (_NET_ACTIVE_WINDOW names 0x\(String(stale, radix: 16)), which no longer exists)")
            } else {
                #expect(error?.message == "window close: no window has the focus (_NET_ACTIVE_WINDOW is unset)")
            }
        }
    }
}
