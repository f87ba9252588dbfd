import CX11
import Foundation
import GestureTestKit
import Glibc
import Synchronization

/// A failure of the test harness itself (a server that would not start), with what it saw.
struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// An `Xvfb` (or a headless `Xorg` with `inputtest` devices) started for one test, and on
/// request `openbox` on it, stopped by PID at the end.
///
/// Each test gets its own server, so tests run in parallel. The display number is one of
/// ``TestDisplays`` (`GESTURE_BRIDGE_TEST_DISPLAYS`) with no `/tmp/.X11-unix/XN` socket and no
/// `/tmp/.XN-lock`, reserved in this process; a server that
/// loses the race with another process is detected (it exits, or the lock file names another
/// PID) and the next number is tried. Both programs run under `timeout`, so that a test process
/// that crashes cannot leave them running for long. They are started with ``ChildProcess``, not
/// Foundation's `Process`, which passes on the calling thread's signal mask: test threads block
/// SIGTERM, and an Xvfb started from one ignores being stopped.
///
/// ```swift
/// try XServer.with(windowManager: true) { server in
///     let client = try XClient(server.name)
///     …
/// }
/// ```
final class XServer {
    /// The display name, `:N`.
    let name: String
    let number: Int
    private let process: ChildProcess
    private var openbox: ChildProcess?
    /// The connections that mapped openbox's start-up probe windows, kept open until the server
    /// stops: closed, their resource ids would be handed to the next client, whose first window
    /// would get the probe's id. Under CPU load openbox then managed that window with the
    /// probe's 10 × 10 geometry (a test window shrunk to 10 × 10 at the screen's centre, and a
    /// drag meant for it landing on the root window).
    private var windowManagerProbes: [XClient] = []
    private var stopped = false
    private let directory: URL
    let kind: Kind
    /// The open `inputtest` connections, by socket path: one per device for the server's
    /// lifetime, closed only after the server has stopped.
    private var inputDevices: [String: InputTestDevice] = [:]
    /// Connections the driver closed (its device was disabled), kept to be closed at the end.
    private var retiredInputDevices: [InputTestDevice] = []

    /// The desktops openbox is configured with.
    static let desktopCount = 4
    /// Longest wait for a server or window manager to come up.
    static let startTimeout = Duration.seconds(15)
    /// Safety net: `timeout` ends a server still running after this many seconds — ten minutes,
    /// plus the length of a soak run (`GESTURE_BRIDGE_SOAK_SECONDS`, see `SoakTests`).
    private static var lifetimeSeconds: Int {
        600 + (ProcessInfo.processInfo.environment["GESTURE_BRIDGE_SOAK_SECONDS"].flatMap { Int($0) } ?? 0)
    }

    private static let reserved = Mutex<Set<Int>>([])

    /// The kind of server to start.
    enum Kind {
        /// `Xvfb`: a mouse and a keyboard, XInput 2.4, XTEST.
        case xvfb
        /// Headless `Xorg` (dummy video) with `inputtest` devices: a direct touchscreen
        /// (10 touches), an XI 2.4 gesture touchpad and a relative mouse. Needs root.
        case xorgInputTest
    }

    /// The root window size of every server started here.
    static let screenWidth = 1280, screenHeight = 800

    /// Whether this process runs as root, which headless Xorg needs (tests that need it skip
    /// by this name when it is false).
    static let isRoot = getuid() == 0

    /// Whether this machine can run ``Kind/xorgInputTest``.
    static let canRunXorgInputTest = isRoot && xorgInputTestProblem == nil

    /// The Xorg that ``Kind/xorgInputTest`` runs: `GESTURE_BRIDGE_XORG` when set (e.g. a
    /// patched server built by `scripts/e2e-patched-xorg`), else `Xorg` from the PATH.
    static let xorgExecutable = ProcessInfo.processInfo.environment["GESTURE_BRIDGE_XORG"].flatMap { $0.isEmpty ? nil : $0 } ?? "Xorg"

    /// `GESTURE_BRIDGE_EXPECT_PATCHED_XORG=1`: ``xorgExecutable`` carries the fix in
    /// `contrib/xorg-server`, so tests assert strictly what is a known server issue otherwise.
    static let expectsPatchedXorg = ProcessInfo.processInfo.environment["GESTURE_BRIDGE_EXPECT_PATCHED_XORG"] == "1"

    /// Why ``Kind/xorgInputTest`` cannot start here (a missing package), or nil.
    static var xorgInputTestProblem: String? {
        let needed = [
            ("/usr/lib/xorg/modules/input/inputtest_drv.so", "xserver-xorg-core (the inputtest input driver)"),
            ("/usr/lib/xorg/modules/drivers/dummy_drv.so", "xserver-xorg-video-dummy (the dummy video driver)"),
        ]
        let missing = needed.filter { !FileManager.default.fileExists(atPath: $0.0) }.map { "\($0.0), from \($0.1)" }
        if !missing.isEmpty { return "headless Xorg cannot run: missing \(missing.joined(separator: "; ")); run scripts/setup-debian" }
        if !isRoot { return "headless Xorg needs root (the dummy driver and the inputtest devices)" }
        return nil
    }

    /// Runs `body` with a fresh server and stops it afterwards, also when `body` throws.
    /// `openboxRC`: more of openbox's rc file (e.g. a `<keyboard>` section), with `windowManager`.
    static func with<R>(
        _ kind: Kind = .xvfb, windowManager: Bool = false, openboxRC: String = "", environment: [String: String] = [:],
        _ body: (XServer) throws -> R
    ) throws -> R {
        let server = try XServer.start(kind, environment: environment)
        defer { server.stop() }
        if windowManager { try server.startOpenbox(rc: openboxRC) }
        return try body(server)
    }

    private init(number: Int, process: ChildProcess, directory: URL, kind: Kind) {
        self.number = number
        self.name = ":\(number)"
        self.process = process
        self.directory = directory
        self.kind = kind
    }

    /// Starts `Xvfb :N -screen 0 1280x800x24 -nolisten tcp` (or Xorg) on a free display, with
    /// `environment` added to the server's, and waits until it answers.
    static func start(_ kind: Kind = .xvfb, environment: [String: String] = [:]) throws -> XServer {
        if kind == .xorgInputTest, let problem = xorgInputTestProblem { throw HarnessError(problem) }
        if let problem = TestDisplays.problem { throw HarnessError(problem) }
        let directory = URL(fileURLWithPath: TestScratch.path("gb-x11"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var attempts: [String] = []
        for number in candidateNumbers() {
            guard reserve(number) else { continue }
            let log = directory.appendingPathComponent("server-\(number).log")
            let process: ChildProcess
            switch kind {
            case .xvfb:
                process = try launch(
                    "Xvfb", [":\(number)", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
                    log: log, environment: environment)
            case .xorgInputTest:
                let config = directory.appendingPathComponent("xorg.conf")
                try xorgConfig(sockets: directory).write(to: config, atomically: true, encoding: .utf8)
                process = try launch(
                    xorgExecutable, [":\(number)", "-config", config.path, "-logfile", directory.appendingPathComponent("Xorg.log").path,
                             "-noreset", "-nolisten", "tcp", "-novtswitch", "-sharevts"],
                    log: log, environment: environment)
            }
            if waitUntilAnswering(number: number, process: process) {
                return XServer(number: number, process: process, directory: directory, kind: kind)
            }
            process.stop()
            release(number)
            attempts.append(":\(number): \(tail(of: log))")
            if attempts.count >= 5 { break }
        }
        try? FileManager.default.removeItem(at: directory)
        throw HarnessError("\(kind) did not start: \(attempts.joined(separator: "; "))")
    }

    /// Starts openbox with its own rc file (4 desktops; the stock client bindings, which grab
    /// the buttons on every frame and replay them, as on a real desktop) and waits until it
    /// manages windows.
    ///
    /// `_NET_SUPPORTING_WM_CHECK` is not enough: openbox publishes it (and its desktops) before
    /// its main loop runs, and a window mapped in between was seen never to be managed (it stays
    /// unmapped, its MapRequest lost). So a probe window is mapped until openbox manages it.
    func startOpenbox(rc extra: String = "") throws {
        let rc = directory.appendingPathComponent("rc.xml")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <openbox_config xmlns="http://openbox.org/3.4/rc">
          <desktops><number>\(Self.desktopCount)</number><firstdesk>1</firstdesk><popupTime>0</popupTime></desktops>
          <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>
          <placement><policy>Smart</policy></placement>
          <mouse>
            <context name="Client">
              <mousebind button="Left" action="Press"><action name="Focus"/><action name="Raise"/></mousebind>
              <mousebind button="Middle" action="Press"><action name="Focus"/><action name="Raise"/></mousebind>
              <mousebind button="Right" action="Press"><action name="Focus"/><action name="Raise"/></mousebind>
            </context>
          </mouse>
        \(extra)
        </openbox_config>
        """.write(to: rc, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("openbox.log")
        let home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let openboxProcess = try Self.launch(
            "openbox", ["--config-file", rc.path, "--sm-disable"], log: log,
            environment: ["DISPLAY": name, "HOME": home.path, "XDG_CONFIG_HOME": home.path, "XDG_CACHE_HOME": home.path])
        openbox = openboxProcess
        let client = try XClient(name)
        let published = poll(timeout: Self.startTimeout) {
            client.window("_NET_SUPPORTING_WM_CHECK", of: client.root) != nil
                && client.cardinal("_NET_NUMBER_OF_DESKTOPS", of: client.root) == Self.desktopCount
        }
        guard published else { throw HarnessError("openbox did not come up on \(name): \(Self.tail(of: log))") }
        let managed = client.waitUntilWindowManagerManages(timeout: Self.startTimeout)
        guard managed.mapped, managed.forgotten else {
            throw HarnessError("openbox on \(name) does not manage windows (\(managed)): \(Self.tail(of: log))")
        }
        windowManagerProbes.append(client)
    }

    deinit { stop() }

    /// The `inputtest` touchscreen (10 touches) of a ``Kind/xorgInputTest`` server, connected
    /// on first use and kept until the server stops.
    func touchscreen() throws -> InputTestDevice { try inputDevice("touch.sock") }

    /// A new connection to the touchscreen, after `xinput disable` / `xinput enable`: the driver
    /// closes its client when the device is turned off and accepts a new one when it is on again.
    func reconnectTouchscreen() throws -> InputTestDevice { try reconnect("touch.sock") }

    /// A new connection to the inputtest device at `socket` (`touch.sock`, `gesture.sock`,
    /// `mouse.sock`, `keyboard.sock`) after `xinput disable` / `xinput enable`.
    func reconnect(_ socket: String) throws -> InputTestDevice {
        if let old = inputDevices.removeValue(forKey: socket) { retiredInputDevices.append(old) }
        return try inputDevice(socket)
    }

    /// The name of the touchscreen device of a ``Kind/xorgInputTest`` server (for `xinput`).
    static let touchscreenName = "Test Touchscreen"

    /// Kills openbox as a crash would (SIGKILL; its `_NET_SUPPORTING_WM_CHECK` window goes, the
    /// property naming it stays) and waits until it is gone; ``startOpenbox()`` starts it again.
    func killOpenbox() throws {
        guard let openbox else { throw HarnessError("openbox is not running on \(name)") }
        // The child is `timeout`; openbox is its child.
        let children = (try? String(contentsOfFile: "/proc/\(openbox.pid)/task/\(openbox.pid)/children", encoding: .utf8)) ?? ""
        let pids = children.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard !pids.isEmpty else { throw HarnessError("openbox on \(name): no process under \(openbox.pid)") }
        for pid in pids { Glibc.kill(pid, SIGKILL) }
        guard poll(timeout: .seconds(5), { !openbox.isRunning }) else { throw HarnessError("openbox on \(name) did not die") }
        self.openbox = nil
    }

    /// Starts openbox again after ``killOpenbox()``. The dead one's `_NET_SUPPORTING_WM_CHECK`
    /// is removed from the root window first, so that ``startOpenbox()`` waits for the new one's.
    func restartOpenbox() throws {
        let client = try XClient(name)
        XDeleteProperty(client.display, client.root, client.atom("_NET_SUPPORTING_WM_CHECK"))
        client.sync()
        try startOpenbox()
    }

    /// The `inputtest` XI 2.4 gesture touchpad (`PointerGesture`) of a ``Kind/xorgInputTest``
    /// server, connected on first use and kept until the server stops.
    func touchpad() throws -> InputTestDevice { try inputDevice("gesture.sock") }

    /// The `inputtest` relative mouse (`Pointer`) of a ``Kind/xorgInputTest`` server: a real
    /// slave device, not XTest's, so the server keeps its button state apart from injected events.
    func mouse() throws -> InputTestDevice { try inputDevice("mouse.sock") }

    /// The `inputtest` keyboard of a ``Kind/xorgInputTest`` server: a real slave keyboard, whose
    /// held keys the server keeps apart from XTest's (a user's physically held modifier).
    func keyboard() throws -> InputTestDevice { try inputDevice("keyboard.sock") }

    private func inputDevice(_ socket: String) throws -> InputTestDevice {
        guard kind == .xorgInputTest else { throw HarnessError("\(name) is \(kind): it has no inputtest devices") }
        guard !stopped else { throw HarnessError("\(name) has stopped") }
        if let device = inputDevices[socket] { return device }
        let device = try InputTestDevice(
            socketPath: directory.appendingPathComponent(socket).path, screenWidth: Self.screenWidth, screenHeight: Self.screenHeight)
        inputDevices[socket] = device
        return device
    }

    /// Stops openbox and the server by PID (SIGTERM, then SIGKILL after a grace period),
    /// then closes the `inputtest` connections (in this order: a server that loses an input
    /// client spins), and removes the server's directory; safe to call more than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        // Closed while the server still answers (a connection to a dead server ends the test process).
        windowManagerProbes = []
        openbox?.stop()
        process.stop()
        for device in inputDevices.values { device.closeConnection() }
        for device in retiredInputDevices { device.closeConnection() }
        retiredInputDevices = []
        inputDevices = [:]
        Self.release(number)
        if ProcessInfo.processInfo.environment["GB_KEEP_X_LOGS"] == nil {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Kills the server abruptly (for connection-loss tests); ``stop()`` still cleans up.
    func kill() {
        process.stop()
    }

    /// Sends `signal` to the server itself (`SIGSTOP`: a server that hangs; `SIGCONT` to go on).
    /// The child is `timeout`; the server is its child.
    func signalServer(_ signal: Int32) throws {
        let children = (try? String(contentsOfFile: "/proc/\(process.pid)/task/\(process.pid)/children", encoding: .utf8)) ?? ""
        let pids = children.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard !pids.isEmpty else { throw HarnessError("the server of \(name): no process under \(process.pid)") }
        for pid in pids { Glibc.kill(pid, signal) }
    }

    /// True once a client can connect to `:number` and the server that answers is `process`'s.
    private static func waitUntilAnswering(number: Int, process: ChildProcess) -> Bool {
        var answered = false
        _ = poll(timeout: startTimeout) {
            guard process.isRunning else { return true }
            guard let display = XOpenDisplay(":\(number)") else { return false }
            XCloseDisplay(display)
            answered = true
            return true
        }
        return answered && process.isRunning && ownsLock(number: number, process: process)
    }

    /// The lock file names the server that `timeout` (our child) started, not another server.
    private static func ownsLock(number: Int, process: ChildProcess) -> Bool {
        guard let text = try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ")
        else { return false }
        let fields = stat[afterName.upperBound...].split(separator: " ")
        return fields.count > 1 && Int32(fields[1]) == process.pid
    }

    /// A headless Xorg: dummy video at 1280x800, no auto-added devices, and `inputtest`
    /// devices (touchscreen, touchpad, mouse, keyboard) whose sockets live in `sockets` (the devices exist without a client; a test
    /// connects through ``touchscreen()`` / ``touchpad()``, once per server lifetime).
    private static func xorgConfig(sockets: URL) -> String {
        """
        Section "ServerFlags"
            Option "AutoAddDevices" "false"
            Option "AutoEnableDevices" "false"
            Option "AllowEmptyInput" "true"
        EndSection
        Section "Device"
            Identifier "dummy"
            Driver "dummy"
            VideoRam 16384
        EndSection
        Section "Monitor"
            Identifier "monitor"
            HorizSync 5.0-1000.0
            VertRefresh 5.0-200.0
        EndSection
        Section "Screen"
            Identifier "screen"
            Device "dummy"
            Monitor "monitor"
            DefaultDepth 24
            SubSection "Display"
                Depth 24
                Modes "1280x800"
            EndSubSection
        EndSection
        Section "InputDevice"
            Identifier "Test Touchscreen"
            Driver "inputtest"
            Option "SocketPath" "\(sockets.appendingPathComponent("touch.sock").path)"
            Option "DeviceType" "Touch"
            Option "TouchCount" "10"
        EndSection
        Section "InputDevice"
            Identifier "Test Touchpad"
            Driver "inputtest"
            Option "SocketPath" "\(sockets.appendingPathComponent("gesture.sock").path)"
            Option "DeviceType" "PointerGesture"
        EndSection
        Section "InputDevice"
            Identifier "Test Mouse"
            Driver "inputtest"
            Option "SocketPath" "\(sockets.appendingPathComponent("mouse.sock").path)"
            Option "DeviceType" "Pointer"
        EndSection
        Section "InputDevice"
            Identifier "Test Keyboard"
            Driver "inputtest"
            Option "SocketPath" "\(sockets.appendingPathComponent("keyboard.sock").path)"
            Option "DeviceType" "Keyboard"
        EndSection
        Section "ServerLayout"
            Identifier "layout"
            Screen "screen"
            InputDevice "Test Touchscreen"
            InputDevice "Test Touchpad"
            InputDevice "Test Mouse"
            InputDevice "Test Keyboard"
        EndSection
        """
    }

    private static func launch(_ program: String, _ arguments: [String], log: URL, environment: [String: String]) throws -> ChildProcess {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        for (key, value) in environment { env[key] = value }
        return try ChildProcess(["timeout", "-k", "5", "\(lifetimeSeconds)", program] + arguments, environment: env, log: log.path)
    }

    /// The free numbers of ``TestDisplays/range`` (`GESTURE_BRIDGE_TEST_DISPLAYS`).
    private static func candidateNumbers() -> [Int] {
        TestDisplays.candidates().filter { number in
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
                && !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        }
    }

    private static func reserve(_ number: Int) -> Bool {
        reserved.withLock { $0.insert(number).inserted }
    }

    private static func release(_ number: Int) {
        _ = reserved.withLock { $0.remove(number) }
    }

    private static func tail(of log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(3).joined(separator: " | ")
    }
}

/// Polls `condition` every 2 ms until it holds or `timeout` passes; returns whether it held.
@discardableResult
func poll(timeout: Duration = .seconds(5), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        usleep(2_000)
    }
}
