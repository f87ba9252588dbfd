import CX11
import Foundation
import Glibc

/// The window managers the end-to-end matrix runs (docs/config.md, «Window managers»), each as
/// Debian installs it and set up with 4 desktops.
///
/// How each starts under Xvfb: xfwm4, marco, metacity, mutter and KWin run under
/// `dbus-run-session` (xfwm4 and mutter do not start without a session bus); i3 has only the
/// workspaces in use, so a window is put on each of 4 (`assign`); herbstluftwm and bspwm make
/// their 4 desktops in their start-up script; KWin gets `[Desktops] Number=4` in its kwinrc.
enum WindowManagerKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case openbox, xfwm4, i3, fluxbox, icewm, awesome, metacity, marco, herbstluftwm, bspwm, mutter, kwin

    var description: String { rawValue }

    /// The program that must be on the PATH.
    var program: String {
        switch self {
        case .kwin: "kwin_x11"
        default: rawValue
        }
    }

    /// The Debian package that brings it.
    var package: String {
        switch self {
        case .i3: "i3-wm"
        case .kwin: "kwin-x11"
        case .marco: "marco mate-settings-daemon-common"
        default: rawValue
        }
    }

    /// Whether it is installed here.
    var isInstalled: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }

    /// The ones `scripts/setup-debian` installs, so that CI runs them: the others run where
    /// they are installed.
    static let installedForTests: [WindowManagerKind] = [.openbox, .xfwm4, .i3, .fluxbox, .icewm, .awesome, .metacity]

    /// The window class of a window i3 and the others let float.
    static let floatingClass = "GBFloating"
    /// The window class of the filler window i3 keeps on desktop N.
    static func fillerClass(_ desktop: Int) -> String { "GBFiller\(desktop)" }
}

/// A window manager running on a test server, with the windows that keep its desktops.
final class WindowManagerSession {
    let kind: WindowManagerKind
    let server: XServer
    private var process: ChildProcess?
    private let directory: URL
    /// Windows that exist only to keep i3's workspaces.
    private var fillers: [AppWindow] = []
    /// The probe client of the readiness check, kept open (see XServer.startOpenbox).
    private var probe: XClient?

    /// The desktops every window manager is set up with.
    static let desktops = 4

    /// Starts `kind` on `server` and waits until it manages windows and has 4 desktops (with
    /// `desktops` 1, i3 is left as it starts: one workspace).
    init(_ kind: WindowManagerKind, on server: XServer, desktops: Int = WindowManagerSession.desktops) throws {
        self.kind = kind
        self.server = server
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gb-wm-\(kind)-\(UUID().uuidString)")
        let home = directory.appendingPathComponent("home"), config = home.appendingPathComponent(".config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        if kind == .openbox {
            try server.startOpenbox()
            return
        }
        var environment = [
            "DISPLAY": server.name, "HOME": home.path, "XDG_CONFIG_HOME": config.path, "XDG_CACHE_HOME": home.path,
            "XDG_DATA_HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "XDG_RUNTIME_DIR": directory.path,
        ]
        let argv: [String]
        switch kind {
        case .openbox:
            argv = []
        case .xfwm4:
            argv = ["dbus-run-session", "xfwm4", "--compositor=off"]
        case .i3:
            let file = directory.appendingPathComponent("i3.config")
            // The first line says v4: without it i3 takes the file for v3 and converts it (a bar
            // appears, `for_window` is lost).
            var text = """
                # i3 config file (v4)
                font pango:monospace 8
                focus_follows_mouse no
                ipc-socket \(directory.appendingPathComponent("i3.sock").path)
                for_window [class="\(WindowManagerKind.floatingClass)"] floating enable

                """
            for desktop in 1...Self.desktops { text += "assign [class=\"\(WindowManagerKind.fillerClass(desktop))\"] \(desktop)\n" }
            try text.write(to: file, atomically: true, encoding: .utf8)
            argv = ["i3", "-c", file.path]
        case .fluxbox:
            argv = ["fluxbox"]
        case .icewm:
            argv = ["icewm"]
        case .awesome:
            // Debian's own rc.lua (floating layout first, a wibar at the top), with 4 tags.
            let rc = try String(contentsOfFile: "/etc/xdg/awesome/rc.lua", encoding: .utf8)
                .replacingOccurrences(of: #"{ "1", "2", "3", "4", "5", "6", "7", "8", "9" }"#, with: #"{ "1", "2", "3", "4" }"#)
            let file = directory.appendingPathComponent("rc.lua")
            try rc.write(to: file, atomically: true, encoding: .utf8)
            argv = ["awesome", "-c", file.path]
        case .metacity:
            argv = ["dbus-run-session", "metacity", "--no-composite"]
        case .marco:
            argv = ["dbus-run-session", "marco", "--no-composite"]
        case .herbstluftwm:
            // The rule first: the desktops tell the harness it is ready.
            let file = try script("autostart", """
                herbstclient rule class=\(WindowManagerKind.floatingClass) floating=on
                herbstclient rename default 1
                for tag in 2 3 4; do herbstclient add "$tag"; done
                """)
            argv = ["herbstluftwm", "--autostart", file.path]
        case .bspwm:
            let file = try script("bspwmrc", "bspc rule -a \(WindowManagerKind.floatingClass) state=floating\nbspc monitor -d 1 2 3 4\n")
            argv = ["bspwm", "-c", file.path]
        case .mutter:
            argv = ["dbus-run-session", "mutter", "--x11", "--replace"]
        case .kwin:
            try "[Desktops]\nNumber=\(Self.desktops)\nRows=1\n".write(to: config.appendingPathComponent("kwinrc"), atomically: true, encoding: .utf8)
            environment["KDE_DEBUG"] = "0"
            argv = ["dbus-run-session", "kwin_x11"]
        }
        process = try ChildProcess(
            ["timeout", "-k", "5", "600"] + argv, environment: environment, log: directory.appendingPathComponent("wm.log").path)
        try waitUntilReady(desktops: desktops)
    }

    /// The window manager's output so far.
    var log: String { (try? String(contentsOf: directory.appendingPathComponent("wm.log"), encoding: .utf8)) ?? "" }

    private func script(_ name: String, _ body: String) throws -> URL {
        let file = directory.appendingPathComponent(name)
        try ("#!/bin/sh\n" + body + "\n").write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o755)
        return file
    }

    /// Waits for a valid `_NET_SUPPORTING_WM_CHECK`, for a window to be managed, and for 4
    /// desktops (on i3, after a filler window on each).
    private func waitUntilReady(desktops wanted: Int) throws {
        let client = try XClient(server.name)
        let started = poll(timeout: XServer.startTimeout) {
            guard let check = client.window("_NET_SUPPORTING_WM_CHECK", of: client.root) else { return false }
            return client.window("_NET_SUPPORTING_WM_CHECK", of: check) == check
        }
        guard started else { throw HarnessError("\(kind) did not come up on \(server.name): \(log.suffix(600))") }
        let managed = client.waitUntilWindowManagerManages(timeout: XServer.startTimeout)
        guard managed.mapped else { throw HarnessError("\(kind) on \(server.name) does not manage windows: \(log.suffix(600))") }
        probe = client
        if kind == .i3, wanted > 1 {
            for desktop in 1...wanted {
                fillers.append(try AppWindow(server: server.name, className: WindowManagerKind.fillerClass(desktop)))
            }
        }
        let desktops = poll(timeout: XServer.startTimeout) { client.cardinal("_NET_NUMBER_OF_DESKTOPS", of: client.root) == wanted }
        guard desktops else {
            throw HarnessError("\(kind) has \(client.cardinal("_NET_NUMBER_OF_DESKTOPS", of: client.root) ?? -1) desktops, not \(wanted)")
        }
        // i3 shows the workspace of the last filler for a moment; the tests start on the first.
        _ = poll(timeout: .seconds(5)) { client.currentDesktop() == 0 }
    }

    /// Stops the window manager: first the X server, so that it exits by itself and
    /// `dbus-run-session` ends the bus it started, then the process.
    func stop() {
        fillers = []
        probe = nil
        server.stop()
        if let process {
            _ = process.waitForExit(timeout: .seconds(3))
            process.stop()
        }
        if ProcessInfo.processInfo.environment["GB_KEEP_X_LOGS"] == nil { try? FileManager.default.removeItem(at: directory) }
    }

    /// Runs `body` with a fresh server running `kind`, and stops both afterwards.
    static func with<R>(_ kind: WindowManagerKind, desktops: Int = desktops, _ body: (WindowManagerSession) throws -> R) throws -> R {
        let server = try XServer.start()
        let session: WindowManagerSession
        do {
            session = try WindowManagerSession(kind, on: server, desktops: desktops)
        } catch {
            server.stop()
            throw error
        }
        defer { session.stop() }
        return try body(session)
    }
}

/// An application's top-level window on its own connection, as a window manager sees one: a
/// class, `WM_DELETE_WINDOW` in its protocols (it closes when asked to), and a title.
final class AppWindow {
    let client: XClient
    let window: Window
    private let deleteWindow: Atom
    /// Whether it was asked to close (and did).
    private(set) var closed = false

    init(server: String, className: String, x: Int = 200, y: Int = 150, width: Int = 400, height: Int = 300) throws {
        client = try XClient(server)
        let display = client.display
        window = XCreateSimpleWindow(display, client.root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0, 0xffffff)
        XSelectInput(display, window, StructureNotifyMask)
        deleteWindow = client.atom("WM_DELETE_WINDOW")
        var protocols = [deleteWindow]
        XSetWMProtocols(display, window, &protocols, 1)
        var hint = XClassHint()
        className.withCString { name in
            hint.res_name = UnsafeMutablePointer(mutating: name)
            hint.res_class = UnsafeMutablePointer(mutating: name)
            XSetClassHint(display, window, &hint)
        }
        XStoreName(display, window, className)
        // Where it asked to be: the window managers that place windows themselves honour it.
        var size = XSizeHints()
        size.flags = PPosition | PSize
        size.x = Int32(x)
        size.y = Int32(y)
        size.width = Int32(width)
        size.height = Int32(height)
        XSetWMNormalHints(display, window, &size)
        XMapWindow(display, window)
        XSync(display, 0)
    }

    /// Handles what arrived: a `WM_DELETE_WINDOW` request destroys the window, as an
    /// application without unsaved work does.
    func pump() {
        let display = client.display
        while !closed, XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == ClientMessage, UInt(event.xclient.data.l.0) == deleteWindow {
                XDestroyWindow(display, window)
                XSync(display, 0)
                closed = true
            }
        }
    }

    /// `map_state` (`IsUnmapped`, `IsUnviewable`, `IsViewable`).
    func mapState() -> Int32 {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(client.display, window, &attributes)
        return attributes.map_state
    }
}
