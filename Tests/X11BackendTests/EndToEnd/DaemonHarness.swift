import CX11
import Foundation
import GestureTestKit
import Testing

/// The real `gesture-bridge` binary, run against a test X server, its output in a log file.
final class DaemonProcess {
    let process: ChildProcess
    let log: URL
    let configFile: URL

    /// The built executable, beside the test bundle (`swift test` builds both).
    static var executable: String { BuiltProducts.executable(named: "gesture-bridge") }

    /// Starts the daemon on `server` with `config` (TOML text) and waits for its ready line.
    convenience init(_ server: XServer, config: String, arguments: [String] = [], waitForReady: Bool = true) throws {
        let dir = Self.makeDirectory()
        let configFile = dir.appendingPathComponent("config.toml")
        try config.write(to: configFile, atomically: false, encoding: .utf8)
        try self.init(server, directory: dir, configFile: configFile, arguments: ["--config", configFile.path] + arguments, waitForReady: waitForReady)
    }

    /// A fresh directory for one daemon: its runtime directory, `HOME` and log.
    static func makeDirectory() -> URL {
        let dir = URL(fileURLWithPath: TestScratch.path("gb-e2e"))
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Starts the daemon on `server` with `arguments` as they are, in `directory` (runtime
    /// directory, `HOME`, log), with `environment` added; `configFile` is the config it is
    /// expected to use. `launcher` runs it (e.g. `setpriv …`; its last word is followed by the
    /// executable). Waits for its ready line unless told not to.
    init(
        _ server: XServer, directory dir: URL, configFile: URL, arguments: [String], environment extra: [String: String] = [:],
        display: String? = nil, launcher: [String] = [], waitForReady: Bool = true, inheriting: [Int32] = []
    ) throws {
        self.configFile = configFile
        log = dir.appendingPathComponent("daemon.log")
        var environment = [
            "DISPLAY": display ?? server.name, "XDG_RUNTIME_DIR": dir.path, "HOME": dir.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        environment.merge(extra) { $1 }
        process = try ChildProcess(launcher + [Self.executable] + arguments, environment: environment, log: log.path, inheriting: inheriting)
        if waitForReady {
            guard poll(timeout: .seconds(20), { output.contains("ready on display") || !process.isRunning }), process.isRunning else {
                throw HarnessError("gesture-bridge did not get ready: \(output)")
            }
        }
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func signal(_ s: Int32) { kill(process.pid, s) }

    /// Whether a `--verbose` daemon's log shows a press of the pointer's reaching it, within 5 s:
    /// a drag made before then would lose its first motion to the daemon (its raw motion is
    /// selected at the press).
    func pressReached() -> Bool {
        poll(timeout: .seconds(5)) { output.contains("pointer group: idle → button-press") }
    }

    /// Waits for the process to end; returns its exit status (nil: still running).
    func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
        process.waitForExit(timeout: timeout)
    }

    deinit { process.stop() }
}

/// Runs a tool (xdotool) to completion on `server`.
func tool(_ server: XServer, _ argv: String...) throws {
    let log = URL(fileURLWithPath: TestScratch.path("gb-tool") + ".log")
    let child = try ChildProcess(argv, environment: ["DISPLAY": server.name, "PATH": "/usr/bin:/bin"], log: log.path)
    guard poll(timeout: .seconds(10), { !child.isRunning }) else { throw HarnessError("\(argv) did not finish") }
}

/// Runs `argv` (no display) to completion; returns its exit status (nil: still running after
/// `timeout`) and its output.
func runToCompletion(_ argv: [String], timeout: Duration = .seconds(10)) throws -> (status: Int32?, output: String) {
    let log = URL(fileURLWithPath: TestScratch.path("gb-run") + ".log")
    defer { try? FileManager.default.removeItem(at: log) }
    let child = try ChildProcess(argv, environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()], log: log.path)
    let status = child.waitForExit(timeout: timeout)
    return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
}

/// A right-button drag by `dx` in six steps with short pauses, as a hand would do it.
func rightDrag(_ server: XServer, from x: Int, _ y: Int, by dx: Int, steps: Int = 6) throws {
    try tool(server, "xdotool", "mousemove", "\(x)", "\(y)", "mousedown", "3")
    for _ in 0..<steps {
        try tool(server, "xdotool", "mousemove_relative", "--", "\(dx / steps)", "0")
        usleep(15_000)
    }
    try tool(server, "xdotool", "mouseup", "3")
}

extension EventWindow {
    /// The window's centre in root coordinates, wherever the window manager placed it.
    func centre() -> (Int, Int) {
        let frame = rootFrame()
        return (frame.x + frame.width / 2, frame.y + frame.height / 2)
    }

    /// The window's area in root coordinates, wherever the window manager placed it.
    func rootFrame() -> (x: Int, y: Int, width: Int, height: Int) {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(client.display, window, &attributes)
        var x: Int32 = 0, y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(client.display, window, client.root, 0, 0, &x, &y, &child)
        return (Int(x), Int(y), Int(attributes.width), Int(attributes.height))
    }

    /// The window's parent: the root window, or the frame a window manager reparented it into.
    func parent() -> Window {
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        XQueryTree(client.display, window, &rootReturn, &parent, &children, &count)
        if let children { XFree(children) }
        return parent
    }
}

/// Right-drags right and left switch to the next and the previous desktop; nothing else is bound.
let pointerSwipeBindings = """
    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "right"
    action = "workspace next"

    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "left"
    action = "workspace prev"
    """
