import BridgeCore
import CX11
import GestureConfig
import GestureEngine
import Logging
import LogTestKit
import Testing
@testable import X11Backend

/// A window manager that takes every EWMH request (it holds `SubstructureRedirect` on the root)
/// and does nothing with it, keeping what it got: what a manager that ignores a request looks
/// like from outside.
private final class IgnoringWindowManager {
    let client: XClient
    let check: Window
    private(set) var messages: [(type: String, window: Window, data: [Int])] = []

    init(_ server: XServer, desktops: Int, supporting hints: [String]) throws {
        client = try XClient(server.name)
        check = XCreateSimpleWindow(client.display, client.root, 0, 0, 1, 1, 0, 0, 0)
        XSelectInput(client.display, client.root, SubstructureRedirectMask | SubstructureNotifyMask)
        setLongs(client, check, "_NET_SUPPORTING_WM_CHECK", type: "WINDOW", [UInt(check)])
        var name = Array("Ignoring".utf8)
        XChangeProperty(client.display, check, client.atom("_NET_WM_NAME"), client.atom("UTF8_STRING"), 8, PropModeReplace, &name, Int32(name.count))
        setLongs(client, client.root, "_NET_SUPPORTING_WM_CHECK", type: "WINDOW", [UInt(check)])
        setLongs(client, client.root, "_NET_SUPPORTED", type: "ATOM", hints.map { UInt(client.atom($0)) })
        setLongs(client, client.root, "_NET_NUMBER_OF_DESKTOPS", type: "CARDINAL", [UInt(desktops)])
        setLongs(client, client.root, "_NET_CURRENT_DESKTOP", type: "CARDINAL", [0])
    }

    /// Reads the requests that arrived.
    func pump() {
        while XPending(client.display) > 0 {
            var event = XEvent()
            XNextEvent(client.display, &event)
            guard event.type == ClientMessage else { continue }
            let name = XGetAtomName(client.display, event.xclient.message_type).map { pointer in
                defer { XFree(pointer) }
                return String(cString: pointer)
            } ?? "?"
            let l = event.xclient.data.l
            messages.append((name, event.xclient.window, [l.0, l.1, l.2, l.3, l.4]))
        }
    }

    /// The data of the requests of `type`, once they arrived.
    func received(_ type: String) -> [[Int]] {
        _ = poll { pump(); return messages.contains { $0.type == type } }
        return messages.filter { $0.type == type }.map(\.data)
    }
}

private let desktopHints = ["_NET_CURRENT_DESKTOP", "_NET_NUMBER_OF_DESKTOPS", "_NET_ACTIVE_WINDOW", "_NET_WM_DESKTOP", "_NET_CLOSE_WINDOW"]

@Suite("what the window manager does with an action: checked, said once, and asked for with the server's time")
struct WindowEffectTests {
    @Test("workspace next and prev with one desktop are refused, naming the display and the count")
    func oneDesktop() throws {
        try XServer.with { server in
            let wm = try IgnoringWindowManager(server, desktops: 1, supporting: desktopHints)
            let performer = try makePerformer(server)
            for target in [WorkspaceTarget.next, .previous] {
                let error = #expect(throws: ActionError.self) { try performer.perform(.workspace(target), context: context(.pointer)) }
                #expect(error?.message == "\(Action.workspace(target)): \(server.name) has 1 desktop (add desktops in the window manager's settings)")
            }
            let move = #expect(throws: ActionError.self) { try performer.perform(.moveWindowToWorkspace(.next), context: context(.pointer)) }
            #expect(move?.message.contains("no window has the focus") == true || move?.message.contains("has 1 desktop") == true, "\(move?.message ?? "")")
            withExtendedLifetime(wm) {}
        }
    }

    @Test("an effect the window manager does not show is logged once, after the bound, and its return once")
    func ignoredSwitchIsLoggedOnce() throws {
        try XServer.with { server in
            let wm = try IgnoringWindowManager(server, desktops: 4, supporting: desktopHints)
            let recording = RecordingLogHandler.Recording()
            let performer = try X11ActionPerformer(display: X11Display(name: server.name), logger: RecordingLogHandler.logger(recording))
            func said(_ level: Logger.Level) -> [String] { recording.messages.filter { $0.level == level }.map(\.message) }

            let started = ContinuousClock.now
            try performer.perform(.workspace(.next), context: context(.pointer))
            // The action returns at once: the check happens at later turns of the loop.
            #expect(ContinuousClock.now - started < .milliseconds(500))
            #expect(performer.nextMaintenanceDeadline != nil)
            #expect(poll(timeout: .seconds(5), maintaining: performer) { !said(.warning).isEmpty })
            #expect(ContinuousClock.now - started >= X11ActionPerformer.effectTimeout)
            #expect(said(.warning) == ["workspace next: Ignoring did not switch to desktop 2 within 2.0 seconds"])
            #expect(performer.nextMaintenanceDeadline == nil, "nothing more to look at")

            // Again: not said again.
            try performer.perform(.workspace(.next), context: context(.pointer))
            #expect(poll(timeout: .seconds(5), maintaining: performer) { performer.pendingEffect == nil })
            #expect(said(.warning).count == 1, "\(recording.messages)")

            // The window manager does it this time: said once.
            try performer.perform(.workspace(.next), context: context(.pointer))
            setLongs(wm.client, wm.client.root, "_NET_CURRENT_DESKTOP", type: "CARDINAL", [1])
            #expect(poll(maintaining: performer) { said(.notice).contains("workspace next has its effect again") }, "\(recording.messages)")
        }
    }

    @Test("client messages carry the server's time, not 0, and the pager's source indication")
    func timestamps() throws {
        try XServer.with { server in
            let wm = try IgnoringWindowManager(server, desktops: 4, supporting: desktopHints)
            let window = XCreateSimpleWindow(wm.client.display, wm.client.root, 0, 0, 100, 100, 0, 0, 0)
            wm.client.setActiveWindow(window)
            let performer = try makePerformer(server)
            let before = Int(wm.client.serverTime())

            try performer.perform(.workspace(.number(3)), context: context(.pointer))
            let switched = try #require(wm.received("_NET_CURRENT_DESKTOP").last)
            #expect(switched[0] == 2 && switched[1] >= before && switched[1] < before + 10_000, "\(switched), server time \(before)")

            try performer.perform(.moveWindowToWorkspace(.number(2)), context: context(.pointer))
            let active = try #require(wm.received("_NET_ACTIVE_WINDOW").last)
            #expect(active[0] == 2 && active[1] >= before && active[1] < before + 10_000, "\(active), server time \(before)")
            #expect(wm.received("_NET_WM_DESKTOP").last == [1, 2, 0, 0, 0])

            try performer.perform(.window(.close), context: context(.pointer))
            let close = try #require(wm.received("_NET_CLOSE_WINDOW").last)
            #expect(close[0] >= before && close[0] < before + 10_000 && close[1] == 2, "\(close), server time \(before)")
        }
    }
}
