import Foundation
import GestureTestKit
import ProcessTestKit
import Testing

/// The real binary's `doctor` and the daemon's first-run line, as a user sees them.
@Suite("doctor and the first run, end to end")
struct DoctorEndToEndTests {
    /// Runs `gesture-bridge ARGUMENTS` to completion with only `environment` (plus PATH, and a
    /// HOME and runtime directory of its own).
    static func run(_ arguments: [String], environment: [String: String]) throws -> ProgramRun {
        let home = DaemonProcess.makeDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        var env = ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_RUNTIME_DIR": home.path, "XDG_CONFIG_DIRS": home.appendingPathComponent("none").path]
        env.merge(environment) { $1 }
        return try ProgramRun(executable: DaemonProcess.executable, arguments: arguments, environment: env)
    }

    @Test("doctor on Xvfb: one line per check, exit 0; --json: one object per check")
    func doctorOnXvfb() throws {
        try XServer.with(windowManager: true) { server in
            let human = try Self.run(["doctor"], environment: ["DISPLAY": server.name])
            print("gesture-bridge doctor on Xvfb + openbox:\n\(human.out)")
            #expect(human.status == 0, "\(human.log)")
            let firstLines = human.out.split(separator: "\n").filter { !$0.hasPrefix(" ") }
            for line in firstLines.dropLast() {
                #expect(line.hasPrefix("ok    ") || line.hasPrefix("warn  ") || line.hasPrefix("fail  "), "\(human.log)")
            }
            #expect(human.out.contains("ok    window manager: Openbox"), "\(human.log)")
            #expect(firstLines.last?.hasPrefix("gesture-bridge can run here") == true, "\(human.log)")

            let json = try Self.run(["doctor", "--json"], environment: ["DISPLAY": server.name])
            #expect(json.status == 0, "\(json.log)")
            let lines = json.out.split(separator: "\n")
            #expect(lines.count == firstLines.count - 1, "\(json.log)")
            for line in lines {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["check"] is String && object?["message"] is String, "\(line)")
                let status = object?["status"] as? String
                #expect(status == "ok" || status == "warn" || status == "fail", "\(line)")
            }
        }
    }

    @Test("doctor with an unreachable DISPLAY, or one that never answers: fail, a clear message, exit 1")
    func unreachableDisplay() throws {
        let free = (4000..<4100).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") }
        let number = try #require(free)
        let r = try Self.run(["doctor"], environment: ["DISPLAY": ":\(number)"])
        #expect(r.status == 1, "\(r.log)")
        #expect(r.out.hasPrefix("fail  display: Cannot open X display \":\(number)\": no X server answers there"), "\(r.log)")
        #expect(r.out.contains("      → check that the X server runs"), "\(r.log)")
        #expect(r.out.contains("ok    config:") && r.out.contains("ok    instance:"), "\(r.log)")
        #expect(r.out.hasSuffix("gesture-bridge cannot run here (1 failed)\n"), "\(r.log)")

        let silent = try #require(SilentXSocket())
        let started = ContinuousClock.now
        let s = try Self.run(["doctor"], environment: ["DISPLAY": silent.displayName, "GESTURE_BRIDGE_CONNECT_TIMEOUT": "0.5"])
        #expect(s.status == 1, "\(s.log)")
        #expect(s.out.contains("did not answer within 0.5 s"), "\(s.log)")
        #expect(ContinuousClock.now - started < .seconds(8))
        withExtendedLifetime(silent) {}
    }

    @Test("the daemon started without a config file says once which file it would read and how to start one")
    func firstRunLine() throws {
        try XServer.with { server in
            let dir = DaemonProcess.makeDirectory()
            let xdg = dir.appendingPathComponent("xdg")
            let configFile = xdg.appendingPathComponent("gesture-bridge/config.toml")
            let daemon = try DaemonProcess(
                server, directory: dir, configFile: configFile, arguments: [],
                environment: ["XDG_CONFIG_HOME": xdg.path, "XDG_CONFIG_DIRS": dir.appendingPathComponent("nowhere").path])
            daemon.signal(SIGHUP)
            let reloaded = poll(timeout: .seconds(10)) { daemon.output.contains("config reloaded (SIGHUP)") }
            #expect(reloaded, "\(daemon.output)")
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output)")
            let lines = daemon.output.split(separator: "\n").filter { $0.contains("no config file") }
            #expect(lines.count == 1, "once, not at the reload:\n\(daemon.output)")
            let line = String(lines.first ?? "")
            #expect(line.contains("notice"), "\(line)")
            #expect(line.contains("gesture-bridge reads \(configFile.path) once it exists"), "\(line)")
            #expect(line.contains("mkdir -p \(xdg.path)/gesture-bridge && gesture-bridge print-config > \(configFile.path)"), "\(line)")

            // With a config file there is nothing to say.
            let configured = try DaemonProcess(server, config: pointerSwipeBindings)
            configured.signal(SIGTERM)
            #expect(configured.waitForExit() == 0)
            #expect(!configured.output.contains("no config file"), "\(configured.output)")
        }
    }
}
