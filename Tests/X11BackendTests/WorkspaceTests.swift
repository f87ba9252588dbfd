import BridgeCore
import GestureConfig
import Testing
@testable import X11Backend
import GestureEngine

@Suite("workspace actions through EWMH")
struct WorkspaceTests {
    @Test("next, prev and N switch _NET_CURRENT_DESKTOP under openbox, wrapping around")
    func switchesDesktops() throws {
        try XServer.with(windowManager: true) { server in
            let client = try XClient(server.name)
            let performer = try makePerformer(server)
            #expect(client.currentDesktop() == 0)
            let steps: [(WorkspaceTarget, Int)] = [
                (.next, 1), (.next, 2), (.previous, 1), (.previous, 0),
                (.previous, 3),   // wraps backwards from the first desktop to the last
                (.next, 0),       // and forwards from the last to the first
                (.number(3), 2), (.number(1), 0), (.number(4), 3),
            ]
            for (target, expected) in steps {
                try performer.perform(.workspace(target), context: context(.touchpad))
                #expect(poll { client.currentDesktop() == expected }, "after \(target): desktop \(client.currentDesktop() ?? -1), not \(expected)")
            }
        }
    }

    @Test("a desktop the window manager does not have is refused, naming the count")
    func noSuchDesktop() throws {
        try XServer.with(windowManager: true) { server in
            let performer = try makePerformer(server)
            let error = #expect(throws: ActionError.self) { try performer.perform(.workspace(.number(9)), context: context(.pointer)) }
            #expect(error?.message == "workspace 9: there is no desktop 9 on \(server.name): it has 4")
        }
    }

    @Test("without an EWMH window manager, the error says so")
    func noWindowManager() throws {
        try XServer.with { server in
            let performer = try makePerformer(server)
            let error = #expect(throws: ActionError.self) { try performer.perform(.workspace(.next), context: context(.pointer)) }
            #expect(error?.message == "workspace next: no EWMH window manager is running on \(server.name) (the root window has no valid _NET_SUPPORTING_WM_CHECK); "
                + "start one: workspace and window actions work again as soon as it runs")
            #expect(throws: ActionError.self) { try performer.perform(.window(.close), context: context(.pointer)) }
        }
    }
}
