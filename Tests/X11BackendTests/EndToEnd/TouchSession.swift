import CX11

/// What a touch end-to-end test starts from: headless Xorg with its `inputtest` devices and
/// openbox, a test window, the daemon (started once the window is up) and the touchscreen.
///
/// ```swift
/// try TouchSession.with(config: swipeConfig, width: 700, height: 500) { s in
///     let (x, y) = s.centre
///     try s.touch.swipe(fingers: 3, from: Double(x - 150), Double(y), by: 300, 0)
///     #expect(poll { s.client.currentDesktop() == 1 }, "\(s.daemon.output)")
/// }
/// ```
struct TouchSession {
    let server: XServer
    /// A connection of the test's own, to ask the server (desktop, buttons down).
    let client: XClient
    /// The window the touches land on.
    let window: EventWindow
    /// With `probingDrags`: a second client following only button-1 drags over the window,
    /// selected before the daemon starts.
    let dragProbe: MotionProbe?
    let daemon: DaemonProcess
    let touch: InputTestDevice

    /// The window's centre in root pixels, wherever openbox placed it.
    var centre: (Int, Int) { window.centre() }

    /// Starts the session — server, window (`width` × `height`), drag probe when asked for,
    /// daemon with `config` and `arguments` — runs `body` in it, and stops it all.
    static func with<R>(
        config: String, arguments: [String] = ["--verbose"], width: Int = 600, height: Int = 400, probingDrags: Bool = false,
        _ body: (TouchSession) throws -> R
    ) throws -> R {
        try XServer.with(.xorgInputTest, windowManager: true) { server in
            let client = try XClient(server.name)
            let window = try EventWindow(server: server.name, width: width, height: height)
            let dragProbe = try probingDrags ? MotionProbe(server: server.name, window: window.window, mask: Button1MotionMask) : nil
            let daemon = try DaemonProcess(server, config: config, arguments: arguments)
            let touch = try server.touchscreen()
            let session = TouchSession(server: server, client: client, window: window, dragProbe: dragProbe, daemon: daemon, touch: touch)
            return try body(session)
        }
    }
}
