import CX11
import Foundation
import Testing
@testable import X11Backend

/// The real binary on Xvfb with openbox: a gesture tiles the focused window.
@Suite("the daemon tiles windows, end to end", .serialized)
struct TileEndToEndTests {
    static let config = """
        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = "window tile right"

        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "left"
        action = "window tile left"
        """

    @Test("a right-button drag right tiles the focused window to the right half, a drag left to the left half")
    func dragTiles() throws {
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 500, height: 400, takeFocus: false)
            let client = try XClient(server.name)
            try #require(poll { client.window("_NET_ACTIVE_WINDOW", of: client.root) == window.window })
            let daemon = try DaemonProcess(server, config: Self.config)
            let (x, y) = window.centre()
            try rightDrag(server, from: x - 150, y, by: 300)
            let right = PixelRect(x: 640, y: 0, width: 640, height: 800)
            #expect(poll { outerFrame(of: window.window, client) == right }, "frame \(outerFrame(of: window.window, client)); \(daemon.output)")
            try rightDrag(server, from: 1100, 400, by: -300)
            let left = PixelRect(x: 0, y: 0, width: 640, height: 800)
            #expect(poll { outerFrame(of: window.window, client) == left }, "frame \(outerFrame(of: window.window, client)); \(daemon.output)")
            #expect(!daemon.output.contains("error"), "\(daemon.output)")
        }
    }

    @Test("with no window focused, the tile fails with one logged reason and the daemon goes on")
    func bareDesktop() throws {
        try XServer.with(windowManager: true) { server in
            let daemon = try DaemonProcess(server, config: Self.config)
            try rightDrag(server, from: 300, 300, by: 300)
            #expect(poll { daemon.output.contains("window tile right: no window has the focus") }, "\(daemon.output)")
            try rightDrag(server, from: 300, 300, by: 300)
            usleep(300_000)
            let lines = daemon.output.split(separator: "\n").filter { $0.contains("no window has the focus") && !$0.contains("debug") }
            #expect(lines.count == 1, "logged once: \(daemon.output)")
            #expect(daemon.process.isRunning)
        }
    }
}

/// The outermost window around `window` (its frame, a child of the root), borders included.
func outerFrame(of window: Window, _ client: XClient) -> PixelRect {
    var current = window
    while true {
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        XQueryTree(client.display, current, &rootReturn, &parent, &children, &count)
        if let children { XFree(children) }
        if parent == client.root || parent == 0 { break }
        current = parent
    }
    var rootReturn: Window = 0
    var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
    XGetGeometry(client.display, current, &rootReturn, &x, &y, &width, &height, &border, &depth)
    return PixelRect(x: Int(x), y: Int(y), width: Int(width + 2 * border), height: Int(height + 2 * border))
}
