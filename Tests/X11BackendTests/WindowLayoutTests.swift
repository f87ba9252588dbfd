import BridgeCore
import CX11
import Foundation
import GestureConfig
import Testing
@testable import X11Backend
import GestureEngine

/// The client window's own area on the root grown by its `_NET_FRAME_EXTENTS`: what the window
/// manager says its frame is.
private func extentsFrame(of window: Window, _ client: XClient) -> PixelRect {
    var attributes = XWindowAttributes()
    XGetWindowAttributes(client.display, window, &attributes)
    var x: Int32 = 0, y: Int32 = 0
    var child: Window = 0
    XTranslateCoordinates(client.display, window, client.root, 0, 0, &x, &y, &child)
    let e = (client.longs("_NET_FRAME_EXTENTS", of: window) ?? [0, 0, 0, 0]).map { Int($0) }
    return PixelRect(x: Int(x) - e[0], y: Int(y) - e[2], width: Int(attributes.width) + e[0] + e[1], height: Int(attributes.height) + e[2] + e[3])
}

/// Sets a 32-bit property (`CARDINAL`, `ATOM`) on `window`.
func setLongs(_ client: XClient, _ window: Window, _ property: String, type: String, _ values: [UInt]) {
    var longs = values.map { CLong(bitPattern: $0) }
    longs.withUnsafeMutableBytes { bytes in
        _ = XChangeProperty(client.display, window, client.atom(property), client.atom(type), 32, PropModeReplace,
                            bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(values.count))
    }
    client.sync()
}

/// Plays an EWMH window manager that manages nothing: a valid `_NET_SUPPORTING_WM_CHECK` and
/// a `_NET_SUPPORTED` listing `hints`, on a connection kept open by the caller.
func pretendWindowManager(_ server: XServer, supporting hints: [String]) throws -> XClient {
    let wm = try XClient(server.name)
    let check = XCreateSimpleWindow(wm.display, wm.root, 0, 0, 1, 1, 0, 0, 0)
    setLongs(wm, check, "_NET_SUPPORTING_WM_CHECK", type: "WINDOW", [UInt(check)])
    setLongs(wm, wm.root, "_NET_SUPPORTING_WM_CHECK", type: "WINDOW", [UInt(check)])
    setLongs(wm, wm.root, "_NET_SUPPORTED", type: "ATOM", hints.map { UInt(wm.atom($0)) })
    return wm
}

/// A panel: a `_NET_WM_WINDOW_TYPE_DOCK` window at `rect` reserving `strut` (`_NET_WM_STRUT_PARTIAL`),
/// mapped on its own connection (kept in the returned client).
private func mapDock(_ server: XServer, at rect: PixelRect, strut: [UInt]) throws -> (XClient, Window) {
    let client = try XClient(server.name)
    let dock = XCreateSimpleWindow(client.display, client.root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), 0, 0, 0x808080)
    setLongs(client, dock, "_NET_WM_WINDOW_TYPE", type: "ATOM", [UInt(client.atom("_NET_WM_WINDOW_TYPE_DOCK"))])
    setLongs(client, dock, "_NET_WM_STRUT_PARTIAL", type: "CARDINAL", strut)
    XMapWindow(client.display, dock)
    client.sync()
    return (client, dock)
}

/// Moves a managed window (its frame's top-left corner to `x`, `y`) as an application would,
/// and waits until the window manager did it.
private func move(_ window: EventWindow, to x: Int, _ y: Int, observer: XClient) -> Bool {
    XMoveWindow(window.client.display, window.window, Int32(x), Int32(y))
    window.client.sync()
    return poll { outerFrame(of: window.window, observer).x == x && outerFrame(of: window.window, observer).y == y }
}

private let maximized: Set<String> = ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]

@Suite("window layout and desktop actions through EWMH, read back from openbox")
struct WindowLayoutTests {
    /// A server with openbox and one managed, focused window; with `split`, two monitors side by
    /// side (`left` and `right`, 640×800 each).
    private func withFocusedWindow(
        split: Bool = false, width: Int = 400, height: Int = 300, _ body: (XServer, XClient, EventWindow, X11ActionPerformer) throws -> Void
    ) throws {
        try XServer.with(windowManager: true) { server in
            if split {
                try tool(server, "xrandr", "--setmonitor", "left", "640/169x800/127+0+0", "none")
                try tool(server, "xrandr", "--setmonitor", "right", "640/169x800/127+640+0", "none")
            }
            let window = try EventWindow(server: server.name, width: width, height: height, takeFocus: false)
            let client = try XClient(server.name)
            try #require(poll { client.window("_NET_ACTIVE_WINDOW", of: client.root) == window.window })
            try body(server, client, window, try makePerformer(server))
        }
    }

    /// Performs `action` and waits until the window's frame is `expected`; true when it got there.
    private func frameBecomes(_ expected: PixelRect, after action: Action, _ window: EventWindow, _ client: XClient, _ performer: X11ActionPerformer) throws -> Bool {
        try performer.perform(action, context: context(.touchscreen))
        return poll(maintaining: performer) { outerFrame(of: window.window, client) == expected }
    }

    /// Tiles the window to each side in turn and expects its frame to cover exactly that
    /// rectangle, by the server's geometry and by the window manager's own account (extents).
    private func expectTiles(
        _ halves: [(TileSide, PixelRect)], _ window: EventWindow, _ client: XClient, _ performer: X11ActionPerformer, on monitor: String
    ) throws {
        for (side, expected) in halves {
            let tiled = try frameBecomes(expected, after: .tile(side), window, client, performer)
            #expect(tiled, "tile \(side) on \(monitor): frame \(outerFrame(of: window.window, client)), not \(expected)")
            #expect(poll { extentsFrame(of: window.window, client) == expected }, "\(extentsFrame(of: window.window, client))")
        }
    }

    @Test("toggle-maximize maximizes, and restores when done again")
    func toggleMaximize() throws {
        try withFocusedWindow { _, client, window, performer in
            let before = outerFrame(of: window.window, client)
            try performer.perform(.window(.toggleMaximize), context: context(.touchpad))
            #expect(poll { client.wmState(of: window.window).isSuperset(of: maximized) })
            try performer.perform(.window(.toggleMaximize), context: context(.touchpad))
            #expect(poll { client.wmState(of: window.window).isDisjoint(with: maximized) })
            #expect(poll { outerFrame(of: window.window, client) == before }, "back where it was: \(outerFrame(of: window.window, client)), not \(before)")
        }
    }

    @Test("toggle-maximize maximizes fully a window maximized one way only")
    func toggleMaximizeHalfMaximized() throws {
        try withFocusedWindow { _, client, window, performer in
            // What openbox's own "maximize vertically" leaves.
            askWindowManager(client, "_NET_WM_STATE", about: window.window, [1, Int(client.atom("_NET_WM_STATE_MAXIMIZED_VERT")), 0, 2])
            try #require(poll { client.wmState(of: window.window) == ["_NET_WM_STATE_MAXIMIZED_VERT"] })
            try performer.perform(.window(.toggleMaximize), context: context(.touchpad))
            #expect(poll { client.wmState(of: window.window).isSuperset(of: maximized) })
        }
    }

    @Test("restore takes the window out of maximized, and out of fullscreen")
    func restore() throws {
        try withFocusedWindow { _, client, window, performer in
            let before = outerFrame(of: window.window, client)
            try performer.perform(.window(.maximize), context: context(.pointer))
            try #require(poll { client.wmState(of: window.window).isSuperset(of: maximized) })
            try performer.perform(.window(.restore), context: context(.pointer))
            #expect(poll(maintaining: performer) { client.wmState(of: window.window).isDisjoint(with: maximized) })
            #expect(poll(maintaining: performer) { outerFrame(of: window.window, client) == before })

            try performer.perform(.window(.fullscreen), context: context(.pointer))
            try #require(poll { client.wmState(of: window.window).contains("_NET_WM_STATE_FULLSCREEN") })
            try performer.perform(.window(.restore), context: context(.pointer))
            #expect(poll(maintaining: performer) { !client.wmState(of: window.window).contains("_NET_WM_STATE_FULLSCREEN") })
            #expect(poll(maintaining: performer) { outerFrame(of: window.window, client) == before })

            // Both at once, and a window in neither state: restore is not a toggle.
            try performer.perform(.window(.maximize), context: context(.pointer))
            try #require(poll { client.wmState(of: window.window).isSuperset(of: maximized) })
            try performer.perform(.window(.fullscreen), context: context(.pointer))
            try #require(poll { client.wmState(of: window.window).contains("_NET_WM_STATE_FULLSCREEN") }, "\(client.wmState(of: window.window))")
            try performer.perform(.window(.restore), context: context(.pointer))
            // Done once the state has stayed clear (openbox maximizes again as it leaves fullscreen).
            #expect(poll(maintaining: performer) { performer.pendingEffect == nil }, "\(client.wmState(of: window.window))")
            #expect(client.wmState(of: window.window).isDisjoint(with: maximized.union(["_NET_WM_STATE_FULLSCREEN"])), "\(client.wmState(of: window.window))")
            try performer.perform(.window(.restore), context: context(.pointer))
            client.sync()
            #expect(client.wmState(of: window.window).isDisjoint(with: maximized.union(["_NET_WM_STATE_FULLSCREEN"])))
            #expect(poll { outerFrame(of: window.window, client) == before })
        }
    }

    @Test("tile left, right, top and bottom: the frame covers exactly that half of the screen")
    func tileOneMonitor() throws {
        try withFocusedWindow { _, client, window, performer in
            let halves: [(TileSide, PixelRect)] = [
                (.left, PixelRect(x: 0, y: 0, width: 640, height: 800)),
                (.right, PixelRect(x: 640, y: 0, width: 640, height: 800)),
                (.top, PixelRect(x: 0, y: 0, width: 1280, height: 400)),
                (.bottom, PixelRect(x: 0, y: 400, width: 1280, height: 400)),
            ]
            try expectTiles(halves, window, client, performer, on: "the screen")
        }
    }

    @Test("tile uses the half of the monitor the window is on, on a two-monitor split")
    func tileTwoMonitors() throws {
        try withFocusedWindow(split: true) { _, client, window, performer in
            try #require(move(window, to: 800, 200, observer: client))
            let right: [(TileSide, PixelRect)] = [
                (.left, PixelRect(x: 640, y: 0, width: 320, height: 800)),
                (.right, PixelRect(x: 960, y: 0, width: 320, height: 800)),
                (.top, PixelRect(x: 640, y: 0, width: 640, height: 400)),
                (.bottom, PixelRect(x: 640, y: 400, width: 640, height: 400)),
            ]
            try expectTiles(right, window, client, performer, on: "the right monitor")
            try #require(move(window, to: 50, 100, observer: client))
            let tiled = try frameBecomes(PixelRect(x: 320, y: 0, width: 320, height: 800), after: .tile(.right), window, client, performer)
            #expect(tiled,
                    "tile right on the left monitor: frame \(outerFrame(of: window.window, client))")
        }
    }

    @Test("tile restores a maximized or fullscreen window first, and keeps it on its monitor")
    func tileFromMaximizedAndFullscreen() throws {
        try withFocusedWindow(split: true) { _, client, window, performer in
            try #require(move(window, to: 700, 100, observer: client))
            try performer.perform(.window(.maximize), context: context(.pointer))
            try #require(poll { client.wmState(of: window.window).isSuperset(of: maximized) })
            let left = PixelRect(x: 640, y: 0, width: 320, height: 800)
            let tiled1 = try frameBecomes(left, after: .tile(.left), window, client, performer)
            #expect(tiled1, "frame \(outerFrame(of: window.window, client))")
            #expect(client.wmState(of: window.window).isDisjoint(with: maximized))

            try performer.perform(.window(.fullscreen), context: context(.pointer))
            try #require(poll { client.wmState(of: window.window).contains("_NET_WM_STATE_FULLSCREEN") })
            let bottom = PixelRect(x: 640, y: 400, width: 640, height: 400)
            let tiled2 = try frameBecomes(bottom, after: .tile(.bottom), window, client, performer)
            #expect(tiled2, "frame \(outerFrame(of: window.window, client))")
            #expect(!client.wmState(of: window.window).contains("_NET_WM_STATE_FULLSCREEN"))
            #expect(poll { extentsFrame(of: window.window, client) == bottom }, "\(extentsFrame(of: window.window, client))")
        }
    }

    @Test("tile leaves a panel's strut free, on the monitor the panel is on only")
    func tileBesideAPanel() throws {
        try XServer.with(windowManager: true) { server in
            try tool(server, "xrandr", "--setmonitor", "left", "640/169x800/127+0+0", "none")
            try tool(server, "xrandr", "--setmonitor", "right", "640/169x800/127+640+0", "none")
            // A 40 px panel along the bottom of the left monitor only: x 0…639.
            let (dockClient, dock) = try mapDock(server, at: PixelRect(x: 0, y: 760, width: 640, height: 40),
                                                 strut: [0, 0, 0, 40, 0, 0, 0, 0, 0, 0, 0, 639])
            let client = try XClient(server.name)
            try #require(poll { (client.longs("_NET_CLIENT_LIST", of: client.root) ?? []).contains(UInt(dock)) })
            // openbox honours it: its own (whole-screen) work area loses the 40 px.
            #expect(poll { client.longs("_NET_WORKAREA", of: client.root)?.prefix(4) == [0, 0, 1280, 760] })
            let window = try EventWindow(server: server.name, takeFocus: false)
            try #require(poll { client.window("_NET_ACTIVE_WINDOW", of: client.root) == window.window })
            let performer = try makePerformer(server)

            try #require(move(window, to: 100, 100, observer: client))
            let tiled3 = try frameBecomes(PixelRect(x: 0, y: 380, width: 640, height: 380), after: .tile(.bottom), window, client, performer)
            #expect(tiled3,
                    "bottom of the left monitor, above the panel: \(outerFrame(of: window.window, client))")
            let tiled4 = try frameBecomes(PixelRect(x: 0, y: 0, width: 320, height: 760), after: .tile(.left), window, client, performer)
            #expect(tiled4,
                    "left of the left monitor: \(outerFrame(of: window.window, client))")
            try #require(move(window, to: 800, 100, observer: client))
            let tiled5 = try frameBecomes(PixelRect(x: 640, y: 400, width: 640, height: 400), after: .tile(.bottom), window, client, performer)
            #expect(tiled5,
                    "the right monitor has no panel: \(outerFrame(of: window.window, client))")
            withExtendedLifetime(dockClient) {}
        }
    }

    @Test("move-to-workspace next, prev and N sends the window there and follows it, wrapping around")
    func moveToWorkspace() throws {
        try withFocusedWindow { _, client, window, performer in
            let steps: [(WorkspaceTarget, Int)] = [
                (.next, 1), (.next, 2), (.previous, 1), (.previous, 0),
                (.previous, 3),   // wraps backwards from the first desktop to the last
                (.next, 0),       // and forwards from the last to the first
                (.number(3), 2), (.number(1), 0),
            ]
            for (target, expected) in steps {
                try performer.perform(.moveWindowToWorkspace(target), context: context(.touchpad))
                #expect(poll { client.cardinal("_NET_WM_DESKTOP", of: window.window) == expected && client.currentDesktop() == expected },
                        "after \(target): window on \(client.cardinal("_NET_WM_DESKTOP", of: window.window) ?? -1), shown \(client.currentDesktop() ?? -1), not \(expected)")
                // openbox passes the focus on through "none" (_NET_ACTIVE_WINDOW 0) as the window
                // leaves the desktop shown; let it finish before looking.
                try #require(pingWindowManager(client))
                #expect(poll { client.window("_NET_ACTIVE_WINDOW", of: client.root) == window.window }, "the moved window keeps the focus")
            }
            let error = #expect(throws: ActionError.self) { try performer.perform(.moveWindowToWorkspace(.number(5)), context: context(.pointer)) }
            #expect(error?.message.contains("there is no desktop 5") == true)
        }
    }

    @Test("move-to-workspace keeps a window on all desktops there, and only switches the desktop")
    func moveStickyWindow() throws {
        try withFocusedWindow { _, client, window, performer in
            askWindowManager(client, "_NET_WM_DESKTOP", about: window.window, [0xFFFF_FFFF, 2])
            try #require(poll { onAllDesktops(window.window, client) })
            try performer.perform(.moveWindowToWorkspace(.number(3)), context: context(.touchpad))
            #expect(poll { client.currentDesktop() == 2 })
            try #require(pingWindowManager(client))
            #expect(onAllDesktops(window.window, client))
            #expect(window.mapState() == IsViewable)
        }
    }

    @Test("show-desktop toggles _NET_SHOWING_DESKTOP, hiding the windows and bringing them back")
    func showDesktop() throws {
        try withFocusedWindow { _, client, window, performer in
            #expect((client.cardinal("_NET_SHOWING_DESKTOP", of: client.root) ?? 0) == 0)
            try performer.perform(.showDesktop, context: context(.touchscreen))
            #expect(poll { client.cardinal("_NET_SHOWING_DESKTOP", of: client.root) == 1 })
            #expect(poll { window.mapState() == IsUnmapped }, "the window is hidden while the desktop shows")
            try performer.perform(.showDesktop, context: context(.touchscreen))
            #expect(poll { client.cardinal("_NET_SHOWING_DESKTOP", of: client.root) == 0 })
            #expect(poll { window.mapState() == IsViewable })
        }
    }

    @Test("a window action on the bare desktop says that no window has the focus")
    func bareDesktop() throws {
        try XServer.with(windowManager: true) { server in
            let performer = try makePerformer(server)
            for action: Action in [.tile(.left), .window(.toggleMaximize), .window(.restore), .moveWindowToWorkspace(.next)] {
                let error = #expect(throws: ActionError.self) { try performer.perform(action, context: context(.pointer)) }
                #expect(error?.message.hasPrefix("\(action): no window has the focus") == true, "\(error?.message ?? "")")
            }
            // show-desktop needs no window.
            try performer.perform(.showDesktop, context: context(.pointer))
        }
    }

    @Test("a focused panel is not tiled")
    func focusedPanel() throws {
        try XServer.with(windowManager: true) { server in
            let (dockClient, dock) = try mapDock(server, at: PixelRect(x: 0, y: 0, width: 1280, height: 30), strut: [0, 0, 30, 0, 0, 0, 0, 0, 0, 1279, 0, 0])
            let client = try XClient(server.name)
            try #require(poll { (client.longs("_NET_CLIENT_LIST", of: client.root) ?? []).contains(UInt(dock)) })
            client.setActiveWindow(dock)
            let performer = try makePerformer(server)
            let error = #expect(throws: ActionError.self) { try performer.perform(.tile(.left), context: context(.pointer)) }
            #expect(error?.message == "window tile left: no application window has the focus: the focused window 0x\(String(dock, radix: 16)) is a panel or dock (_NET_WM_WINDOW_TYPE_DOCK)")
            withExtendedLifetime(dockClient) {}
        }
    }

    @Test("a hint the window manager does not list in _NET_SUPPORTED fails the action, naming the hint")
    func unsupportedHint() throws {
        try XServer.with { server in
            // A minimal EWMH window manager: a check window and a _NET_SUPPORTED without
            // _NET_SHOWING_DESKTOP or _NET_MOVERESIZE_WINDOW.
            let wm = try pretendWindowManager(server, supporting: ["_NET_ACTIVE_WINDOW", "_NET_WM_STATE", "_NET_CURRENT_DESKTOP"])
            let performer = try makePerformer(server)
            let showDesktop = #expect(throws: ActionError.self) { try performer.perform(.showDesktop, context: context(.pointer)) }
            #expect(showDesktop?.message == "show-desktop: the window manager on \(server.name) does not list _NET_SHOWING_DESKTOP in _NET_SUPPORTED, "
                + "so it would ignore the request; use a window manager that supports it")
            // Tile needs only _NET_ACTIVE_WINDOW: without _NET_MOVERESIZE_WINDOW it sends a
            // ConfigureRequest, without _NET_FRAME_EXTENTS it measures the frame. Here it fails
            // for want of a focused window, not of a hint.
            let tile = #expect(throws: ActionError.self) { try performer.perform(.tile(.top), context: context(.pointer)) }
            #expect(tile?.message.hasPrefix("window tile top: no window has the focus") == true, "\(tile?.message ?? "")")
            withExtendedLifetime(wm) {}
        }
    }
}

/// Polls `condition` and lets the performer do what is due between looks (a restore that a
/// tile waits for, the effect checks), as the daemon's loop does.
func poll(timeout: Duration = .seconds(5), maintaining performer: X11ActionPerformer, _ condition: () -> Bool) -> Bool {
    poll(timeout: timeout) {
        performer.maintain()
        return condition()
    }
}

/// Whether `window`'s `_NET_WM_DESKTOP` is 0xFFFFFFFF (Xlib may hand it back sign-extended).
private func onAllDesktops(_ window: Window, _ client: XClient) -> Bool {
    client.longs("_NET_WM_DESKTOP", of: window)?.first.map { UInt32(truncatingIfNeeded: $0) } == 0xFFFF_FFFF
}

/// Sends the window manager an EWMH client message about `window` (as a pager would), and syncs.
func askWindowManager(_ client: XClient, _ type: String, about window: Window, _ data: [Int]) {
    var event = XEvent()
    event.xclient.type = ClientMessage
    event.xclient.window = window
    event.xclient.message_type = client.atom(type)
    event.xclient.format = 32
    let l = data + Array(repeating: 0, count: 5 - data.count)
    event.xclient.data.l = (l[0], l[1], l[2], l[3], l[4])
    XSendEvent(client.display, client.root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
    client.sync()
}

/// Waits until the window manager has handled everything sent to it before: it answers a
/// `_NET_REQUEST_FRAME_EXTENTS` about a fresh unmapped window by setting that window's
/// `_NET_FRAME_EXTENTS`, in its turn.
func pingWindowManager(_ client: XClient) -> Bool {
    let probe = XCreateSimpleWindow(client.display, client.root, 0, 0, 1, 1, 0, 0, 0)
    defer { XDestroyWindow(client.display, probe); client.sync() }
    askWindowManager(client, "_NET_REQUEST_FRAME_EXTENTS", about: probe, [])
    return poll { client.longs("_NET_FRAME_EXTENTS", of: probe) != nil }
}

extension EventWindow {
    /// `map_state` of the window (`IsUnmapped`, `IsUnviewable`, `IsViewable`).
    func mapState() -> Int32 {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(client.display, window, &attributes)
        return attributes.map_state
    }
}

