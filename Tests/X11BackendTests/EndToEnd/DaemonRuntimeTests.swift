import Foundation
import Testing

/// `n` tap bindings (1 to 5 fingers): configs told apart in the log by their `bindings=` count.
private func tapBindings(_ n: Int) -> String {
    (1...n).map { "[[bind]]\ngesture = \"tap\"\nfingers = \($0)\naction = \"click middle\"\n" }.joined(separator: "\n")
}

/// The log lines that say a config was reloaded.
private func reloadLines(_ output: String) -> [Substring] {
    output.split(separator: "\n").filter { $0.contains("config reloaded") }
}

/// The daemon's process-level behaviour on a real Xvfb (issue 9): following the config on
/// disk, the single-instance lock, standard descriptors, `record`'s output.
@Suite("the daemon's runtime, end to end", .serialized)
struct DaemonRuntimeTests {
    // MARK: - Following the config (items 6, 11, 16)

    /// A daemon started without `--config`, in a home with no config file at all.
    private static func startWithoutConfig(_ server: XServer) throws -> (DaemonProcess, URL) {
        let dir = DaemonProcess.makeDirectory()
        let xdg = dir.appendingPathComponent("xdg")
        let configFile = xdg.appendingPathComponent("gesture-bridge/config.toml")
        let daemon = try DaemonProcess(
            server, directory: dir, configFile: configFile, arguments: [],
            environment: ["XDG_CONFIG_HOME": xdg.path, "XDG_CONFIG_DIRS": dir.appendingPathComponent("nowhere").path])
        #expect(daemon.output.contains("config=<default config>"), "\(daemon.output)")
        return (daemon, configFile)
    }

    @Test("started without a config file, it picks up one created later when the file appears")
    func configCreatedLaterIsWatched() throws {
        try XServer.with { server in
            let (daemon, configFile) = try Self.startWithoutConfig(server)
            try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try tapBindings(1).write(to: configFile, atomically: false, encoding: .utf8)
            #expect(poll(timeout: .seconds(10)) {
                reloadLines(daemon.output).contains { $0.contains("config=\(configFile.path)") && $0.contains("bindings=1") }
            }, "\(daemon.output)")
        }
    }

    @Test("started without a config file, SIGHUP looks along the search path again")
    func configCreatedLaterIsFoundBySighup() throws {
        try XServer.with { server in
            let (daemon, configFile) = try Self.startWithoutConfig(server)
            try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try tapBindings(2).write(to: configFile, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            var line: Substring? = nil
            #expect(poll(timeout: .seconds(10)) {
                line = reloadLines(daemon.output).first { $0.contains("(SIGHUP)") }
                return line != nil
            }, "\(daemon.output)")
            #expect(line?.contains("config=\(configFile.path)") == true, "\(daemon.output)")
            #expect(line?.contains("bindings=2") == true, "\(daemon.output)")
        }
    }

    @Test("a config that is a symlink: edits of its target and the link re-pointed are both seen")
    func symlinkedConfigIsFollowed() throws {
        try XServer.with { server in
            let dir = DaemonProcess.makeDirectory()
            let fm = FileManager.default
            for sub in ["dotfiles", "generation-2", "conf"] {
                try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            let target = dir.appendingPathComponent("dotfiles/gesture-bridge.toml")
            try tapBindings(1).write(to: target, atomically: false, encoding: .utf8)
            let link = dir.appendingPathComponent("conf/config.toml")
            // Relative, as GNU stow makes them.
            try fm.createSymbolicLink(atPath: link.path, withDestinationPath: "../dotfiles/gesture-bridge.toml")
            let daemon = try DaemonProcess(server, directory: dir, configFile: link, arguments: ["--config", link.path])

            try tapBindings(2).write(to: target, atomically: false, encoding: .utf8)
            #expect(poll(timeout: .seconds(10)) { reloadLines(daemon.output).contains { $0.contains("bindings=2") } }, "\(daemon.output)")

            // As home-manager does it: a new link renamed over the old one.
            let next = dir.appendingPathComponent("generation-2/config.toml")
            try tapBindings(3).write(to: next, atomically: false, encoding: .utf8)
            let fresh = dir.appendingPathComponent("conf/.config.toml.new")
            try fm.createSymbolicLink(atPath: fresh.path, withDestinationPath: next.path)
            #expect(rename(fresh.path, link.path) == 0)
            #expect(poll(timeout: .seconds(10)) { reloadLines(daemon.output).contains { $0.contains("bindings=3") } }, "\(daemon.output)")

            try tapBindings(4).write(to: next, atomically: true, encoding: .utf8)
            #expect(poll(timeout: .seconds(10)) { reloadLines(daemon.output).contains { $0.contains("bindings=4") } }, "\(daemon.output)")
        }
    }

    @Test("the watch survives the config's directory being replaced (mv dir dir.old; mkdir dir)")
    func replacedDirectoryIsFollowed() throws {
        try XServer.with { server in
            let dir = DaemonProcess.makeDirectory()
            let conf = dir.appendingPathComponent("conf")
            try FileManager.default.createDirectory(at: conf, withIntermediateDirectories: true)
            let configFile = conf.appendingPathComponent("config.toml")
            try tapBindings(1).write(to: configFile, atomically: false, encoding: .utf8)
            let daemon = try DaemonProcess(server, directory: dir, configFile: configFile, arguments: ["--config", configFile.path])

            #expect(rename(conf.path, dir.appendingPathComponent("conf.old").path) == 0)
            try FileManager.default.createDirectory(at: conf, withIntermediateDirectories: false)
            try tapBindings(2).write(to: configFile, atomically: false, encoding: .utf8)
            #expect(poll(timeout: .seconds(10)) { reloadLines(daemon.output).contains { $0.contains("bindings=2") } }, "\(daemon.output)")
            // And it is still watched there.
            try tapBindings(3).write(to: configFile, atomically: false, encoding: .utf8)
            #expect(poll(timeout: .seconds(10)) { reloadLines(daemon.output).contains { $0.contains("bindings=3") } }, "\(daemon.output)")
        }
    }

    @Test("a non-atomic save (truncate, a pause, then the text) applies only the final config")
    func nonAtomicSaveNeverAppliesTheEmptyFile() throws {
        try XServer.with { server in
            let daemon = try DaemonProcess(server, config: tapBindings(1))
            let path = daemon.configFile.path
            let fd = open(path, O_WRONLY | O_TRUNC)
            #expect(fd >= 0)
            // Longer than any settle delay: the empty file itself must not count as a config.
            usleep(500_000)
            let text = Array(tapBindings(3).utf8)
            #expect(write(fd, text, text.count) == text.count)
            close(fd)
            #expect(poll(timeout: .seconds(10)) { reloadLines(daemon.output).contains { $0.contains("bindings=3") } }, "\(daemon.output)")
            let reloads = reloadLines(daemon.output)
            #expect(reloads.count == 1, "\(daemon.output)")
            #expect(!reloads.contains { $0.contains("bindings=0") }, "\(daemon.output)")
            #expect(!daemon.output.contains("config not reloaded ("), "\(daemon.output)")
        }
    }

    /// A reload while a press holds the pointer frozen for every client waits until the press
    /// is decided: a large config's load would otherwise be time the user's pointer stands
    /// still (issue 25, item 2: a 1 MiB config held a right press 33 s).
    @Test("SIGHUP during an undecided press: the press is decided first, then the config reloaded")
    func reloadWaitsForAnUndecidedPress() throws {
        // A long press bound on the pointer keeps a held right press undecided for 2 s.
        let config = "[recognizer.pointer]\nlong_press_ms = 2000\n\n[[bind]]\ngesture = \"long-press\"\ndevice = \"pointer\"\naction = \"click middle\"\n"
        try XServer.with { server in
            let daemon = try DaemonProcess(server, config: config, arguments: ["--verbose"])
            let mouse = try PointerDriver(server)
            mouse.move(to: 400, 300)
            mouse.press(3)
            #expect(daemon.pressReached(), "\(daemon.output)")
            daemon.signal(SIGHUP)
            // Well within the long press's 2 s: the reload must not have happened yet.
            usleep(400_000)
            #expect(reloadLines(daemon.output).isEmpty, "reloaded while the press held the pointer: \(daemon.output)")
            mouse.release(3)
            #expect(poll(timeout: .seconds(10)) { !reloadLines(daemon.output).isEmpty }, "\(daemon.output)")
            let lines = daemon.output.split(separator: "\n")
            let givenBack = lines.firstIndex { $0.contains("passed on to the application") }
            let reloaded = lines.firstIndex { $0.contains("config reloaded") }
            #expect(givenBack != nil && reloaded != nil && givenBack! < reloaded!, "\(daemon.output)")
        }
    }

    // MARK: - The single-instance lock (item 12)

    @Test("one instance per display, however the display is spelt", arguments: [".0", "unix"])
    func lockIsKeyedOnTheDisplay(spelling: String) throws {
        try XServer.with { server in
            let first = try DaemonProcess(server, config: tapBindings(1))
            let dir = first.configFile.deletingLastPathComponent()
            let other = spelling == "unix" ? "unix\(server.name)" : server.name + spelling
            let secondDir = dir.appendingPathComponent("second")
            try FileManager.default.createDirectory(at: secondDir, withIntermediateDirectories: true)
            let second = try DaemonProcess(
                server, directory: secondDir, configFile: first.configFile, arguments: ["--config", first.configFile.path],
                environment: ["XDG_RUNTIME_DIR": dir.path], display: other, waitForReady: false)
            #expect(second.waitForExit() == 1, "\(second.output)")
            #expect(second.output.contains("already running"), "\(second.output)")
        }
    }

    @Test("without XDG_RUNTIME_DIR the lock goes in a private directory, and a second instance is still refused")
    func lockWithoutRuntimeDirectory() throws {
        try XServer.with { server in
            // One user, one home: the lock goes in its state directory.
            let home = DaemonProcess.makeDirectory()
            func start(_ display: String, waitForReady: Bool) throws -> DaemonProcess {
                let dir = DaemonProcess.makeDirectory()
                let configFile = dir.appendingPathComponent("config.toml")
                try tapBindings(1).write(to: configFile, atomically: false, encoding: .utf8)
                return try DaemonProcess(
                    server, directory: dir, configFile: configFile, arguments: ["--config", configFile.path],
                    environment: ["XDG_RUNTIME_DIR": "", "HOME": home.path], display: display, waitForReady: waitForReady)
            }
            let first = try start(server.name + ".0", waitForReady: true)
            #expect(first.output.contains("XDG_RUNTIME_DIR is not set"), "\(first.output)")
            let second = try start(server.name, waitForReady: false)
            #expect(second.waitForExit() == 1, "\(second.output)")
            #expect(second.output.contains("already running"), "\(second.output)")
        }
    }

    // MARK: - Standard descriptors (item 13)

    @Test("started with standard descriptors closed, it still gets ready, works and stops on SIGTERM",
          arguments: [[2], [0, 1, 2]] as [[Int32]])
    func closedStandardDescriptors(closed: [Int32]) throws {
        try XServer.with(windowManager: true) { server in
            let dir = DaemonProcess.makeDirectory()
            let configFile = dir.appendingPathComponent("config.toml")
            try pointerSwipeBindings.write(to: configFile, atomically: false, encoding: .utf8)
            let notify = try NotifySocket(path: dir.appendingPathComponent("notify").path)
            let environment = [
                "DISPLAY": server.name, "XDG_RUNTIME_DIR": dir.path, "HOME": dir.path, "NOTIFY_SOCKET": notify.path,
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ]
            let daemon = try ChildProcess(
                [DaemonProcess.executable, "--config", configFile.path], environment: environment,
                log: dir.appendingPathComponent("daemon.log").path, closing: closed)
            #expect(notify.waitForMessage(containing: "READY=1", timeout: .seconds(20)), "never said it was ready")
            let client = try XClient(server.name)
            try rightDrag(server, from: 300, 300, by: 300)
            #expect(poll { client.currentDesktop() == 1 }, "the drag did not switch the desktop")
            kill(daemon.pid, SIGTERM)
            #expect(daemon.waitForExit(timeout: .seconds(10)) == 0)
        }
    }

    // MARK: - The service manager (issue 25, item 11)

    // Only READY=1 was sent, and NOTIFY_SOCKET reached the programs `exec` started: one of them
    // could tell systemd the daemon was ready or stopping.
    @Test("systemd hears READY, RELOADING with MONOTONIC_USEC then READY, and STOPPING; a started program gets none of its variables")
    func serviceManager() throws {
        try XServer.with { server in
            let dir = DaemonProcess.makeDirectory()
            let environmentFile = dir.appendingPathComponent("child-environment").path
            let configFile = dir.appendingPathComponent("config.toml")
            try """
                [[bind]]
                gesture = "long-press"
                device = "pointer"
                action = '''exec /bin/sh -c "env > \(environmentFile).tmp && mv \(environmentFile).tmp \(environmentFile)"'''
                """.write(to: configFile, atomically: false, encoding: .utf8)
            let notify = try NotifySocket(path: dir.appendingPathComponent("notify").path)
            let daemon = try DaemonProcess(
                server, directory: dir, configFile: configFile, arguments: ["--config", configFile.path],
                environment: [
                    "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1", "LISTEN_FDS": "1",
                    "LISTEN_PID": "1", "LISTEN_FDNAMES": "x", "GESTURE_BRIDGE_TEST_MARK": "kept",
                ])
            #expect(notify.messages(until: "READY=1", timeout: .seconds(10)).last == "READY=1")

            daemon.signal(SIGHUP)
            let reload = notify.messages(until: "READY=1", timeout: .seconds(10))
            #expect(reload.count == 2, "\(reload)")
            let lines = reload.first?.split(separator: "\n") ?? []
            #expect(lines.first == "RELOADING=1", "\(reload)")
            // CLOCK_MONOTONIC in microseconds: since boot, and not ahead of this process's clock.
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
            let stamp = lines.dropFirst().first.flatMap { $0.hasPrefix("MONOTONIC_USEC=") ? UInt64($0.dropFirst(15)) : nil }
            #expect(stamp.map { $0 <= microseconds && microseconds - $0 < 60_000_000 } == true, "\(reload) at \(microseconds)")

            try tool(server, "xdotool", "mousemove", "300", "300", "mousedown", "3")
            usleep(800_000)
            try tool(server, "xdotool", "mouseup", "3")
            #expect(poll(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: environmentFile) }, "\(daemon.output)")
            let variables = try String(contentsOfFile: environmentFile, encoding: .utf8).split(separator: "\n").map { String($0.prefix { $0 != "=" }) }
            #expect(variables.contains("GESTURE_BRIDGE_TEST_MARK"))
            for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] {
                #expect(!variables.contains(name), "\(name) reached the program")
            }

            daemon.signal(SIGTERM)
            #expect(notify.messages(until: "STOPPING=1", timeout: .seconds(10)).last == "STOPPING=1")
            #expect(daemon.waitForExit() == 0)
        }
    }

    // MARK: - record's output (item 16)

    @Test("record to a pipe whose reader is gone ends with exit 1 and one message")
    func recordToAClosedPipe() throws {
        try XServer.with { server in
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            // Not inherited by the child, but for the dup onto its stdout.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            close(ends[0])
            let dir = DaemonProcess.makeDirectory()
            let log = dir.appendingPathComponent("record.log")
            let record = try ChildProcess(
                [DaemonProcess.executable, "record"],
                environment: ["DISPLAY": server.name, "HOME": dir.path, "XDG_CONFIG_HOME": dir.path, "PATH": "/usr/bin:/bin"],
                log: log.path, standardOutput: ends[1])
            close(ends[1])
            try tool(server, "xdotool", "mousemove_relative", "--", "5", "5")
            let status = record.waitForExit(timeout: .seconds(10))
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(status == 1, "\(output)")
            let complaints = output.split(separator: "\n").filter { $0.contains("Broken pipe") }
            #expect(complaints.count == 1, "\(output)")
            #expect(complaints.first?.contains("cannot record") == true, "\(output)")
        }
    }

    @Test("record to a full disk (/dev/full) ends with exit 1 and one message")
    func recordToAFullDisk() throws {
        try XServer.with { server in
            let dir = DaemonProcess.makeDirectory()
            let log = dir.appendingPathComponent("record.log")
            let record = try ChildProcess(
                [DaemonProcess.executable, "record", "/dev/full"],
                environment: ["DISPLAY": server.name, "HOME": dir.path, "XDG_CONFIG_HOME": dir.path, "PATH": "/usr/bin:/bin"],
                log: log.path)
            try tool(server, "xdotool", "mousemove_relative", "--", "5", "5")
            let status = record.waitForExit(timeout: .seconds(10))
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(status == 1, "\(output)")
            let complaints = output.split(separator: "\n").filter { $0.contains("No space left on device") }
            #expect(complaints.count == 1, "\(output)")
            #expect(complaints.first?.contains("/dev/full") == true, "\(output)")
        }
    }
}

/// A `NOTIFY_SOCKET` as systemd offers one: a datagram socket the test reads.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw HarnessError("bind \(path): \(errno)") }
    }

    deinit { close(fd) }

    /// The datagrams received until one contains `text` (that one last), or all received
    /// within `timeout`.
    func messages(until text: String, timeout: Duration) -> [String] {
        var received: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = poll(timeout: timeout) {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return false }
            received.append(String(decoding: buffer[..<n], as: UTF8.self))
            return received.last!.contains(text)
        }
        return received
    }

    /// Waits for a datagram that contains `text`.
    func waitForMessage(containing text: String, timeout: Duration) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        return poll(timeout: timeout) {
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 && String(decoding: buffer[..<n], as: UTF8.self).contains(text)
        }
    }
}
