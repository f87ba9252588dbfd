import CX11
import Foundation
import GestureConfig
import Logging
import Testing

@testable import X11Backend

/// `[touchscreen] output` on the headless Xorg (dummy video, `inputtest` touchscreen): the
/// daemon maps the touchscreen onto its output and keeps it there as monitors are plugged in
/// and out, moved and change mode; touches then land where the finger is (docs/config.md,
/// «[touchscreen]»).
///
/// The dummy driver has 16 outputs (`DUMMY0` connected, the others turned on by giving them a
/// mode), a physical size per output (its `WIDTH_MM`, `HEIGHT_MM` properties), but no
/// rotation (`xrandr --rotate` is refused): rotated placements are checked by setting the
/// matrix computed for them and touching.
@Suite("touchscreen mapping on the headless Xorg", .serialized, .enabled(if: XServer.canRunXorgInputTest, "\(XServer.xorgInputTestProblem ?? "")"))
struct TouchscreenMappingEndToEndTests {
    /// A config for the observing run: taps and swipes in every direction on the touchscreen.
    static let observerConfig = """
        [[bind]]
        gesture = "tap"
        device = "touchscreen"
        action = "key a"

        [[bind]]
        gesture = "swipe"
        device = "touchscreen"
        action = "key b"
        """

    /// Runs `xrandr` with `arguments` on `server`; throws with its output when it fails.
    static func xrandr(_ server: XServer, _ arguments: String...) throws { try xrandr(server, arguments) }

    /// Turns `output` on with a `width`×`height` mode of its own (the dummy driver takes any
    /// mode it is given), placed by `position` (`--right-of DUMMY0`, `--pos 0x0`).
    static func plug(_ server: XServer, _ output: String, _ width: Int, _ height: Int, _ position: String...) throws {
        let mode = "\(width)x\(height)_\(output)"
        // CVT timings at 60 Hz are not needed by the dummy driver: any consistent ones do.
        try xrandr(server, "--newmode", mode, "100", "\(width)", "\(width + 8)", "\(width + 16)", "\(width + 24)",
                   "\(height)", "\(height + 1)", "\(height + 2)", "\(height + 3)")
        try xrandr(server, "--addmode", output, mode)
        try xrandr(server, ["--output", output, "--mode", mode] + position)
    }

    static func xrandr(_ server: XServer, _ arguments: [String]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gb-xrandr-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try ChildProcess(["xrandr"] + arguments, environment: ["DISPLAY": server.name, "PATH": "/usr/bin:/bin"], log: log.path)
        let status = child.waitForExit(timeout: .seconds(10))
        guard status == 0 else {
            throw HarnessError("xrandr \(arguments.joined(separator: " ")): status \(status.map(String.init) ?? "none"): \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
    }

    /// The touchscreen's device id and its matrix now, asked of the server.
    static func matrix(_ display: X11Display) throws -> TransformationMatrix? {
        guard let device = try display.listDevices().first(where: { $0.name == XServer.touchscreenName }) else { return nil }
        return try display.transformationMatrix(of: device.id)
    }

    /// What the touchscreen should have to cover `placement` on the screen as it is now.
    static func expected(_ display: X11Display, _ placement: OutputPlacement) throws -> TransformationMatrix {
        let size = try display.currentRootSize()
        return TransformationMatrix.mapping(onto: placement, screenWidth: size.width, screenHeight: size.height)
    }

    /// The dry run's gesture lines so far.
    /// The dry run's gesture lines (not the input it passes on: docs/interface.md «Output»).
    static func lines(_ dryRun: DaemonProcess) -> [String] {
        dryRun.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"t\":") && !$0.contains(#""event":"#) }
    }

    /// Whether the dry run's last line is a gesture at (`x`, `y`), within a pixel (the device's
    /// 0…65535 does not fall on whole pixels), on `monitor`.
    static func lastAt(_ dryRun: DaemonProcess, _ x: Double, _ y: Double, on monitor: String) -> Bool {
        guard let line = lines(dryRun).last,
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let gx = object["x"] as? Double, let gy = object["y"] as? Double
        else { return false }
        return abs(gx - x) <= 1 && abs(gy - y) <= 1 && object["monitor"] as? String == monitor
    }

    @Test("the daemon maps the touchscreen onto its output, and keeps it there as a monitor is plugged in, moved, changes mode and is unplugged")
    func followsTheOutputs() throws {
        try XServer.with(.xorgInputTest) { server in
            let display = try X11Display(name: server.name)
            // No touchscreen binding: the daemon grabs no touch, the dry run sees every one.
            let daemon = try DaemonProcess(server, config: "[touchscreen]\noutput = \"DUMMY0\"\n", arguments: ["--verbose"])
            let dryRun = try DaemonProcess(server, config: Self.observerConfig, arguments: ["--dry-run", "--json"])
            let touch = try server.touchscreen()
            // One output, the whole screen: the matrix the server starts with is already right.
            #expect(try Self.matrix(display) == .identity, "\(daemon.output)")

            // A monitor plugged in to the right: the screen grows to 3200×1080, the touchscreen stays on DUMMY0.
            try Self.plug(server, "DUMMY1", 1920, 1080, "--right-of", "DUMMY0")
            let onLeft = try Self.expected(display, OutputPlacement(x: 0, y: 0, width: 1280, height: 800))
            #expect(onLeft.values == [0.4, 0, 0, 0, Float(800.0 / 1080), 0, 0, 0, 1])
            #expect(poll(timeout: .seconds(10)) { (try? Self.matrix(display)) == onLeft }, "\(daemon.output)")
            #expect(daemon.output.contains("touchscreen \"\(XServer.touchscreenName)\" mapped onto output DUMMY0 (1280×800+0+0; as [touchscreen] output names it): Coordinate Transformation Matrix 0.4 0 0 0 0.7407407 0 0 0 1"), "\(daemon.output)")
            // The middle of the touchscreen is the middle of DUMMY0, not of the whole screen.
            try touch.tap(at: 640, 400)
            #expect(poll { Self.lines(dryRun).count == 1 }, "\(dryRun.output)")
            #expect(Self.lastAt(dryRun, 640, 400, on: "DUMMY0"), "\(dryRun.output)")

            // DUMMY0 moved to the right of DUMMY1.
            try Self.xrandr(server, "--output", "DUMMY0", "--right-of", "DUMMY1")
            let onRight = try Self.expected(display, OutputPlacement(x: 1920, y: 0, width: 1280, height: 800))
            #expect(poll(timeout: .seconds(10)) { (try? Self.matrix(display)) == onRight }, "\(daemon.output)")
            try touch.tap(at: 640, 400)
            #expect(poll { Self.lines(dryRun).count == 2 }, "\(dryRun.output)")
            #expect(Self.lastAt(dryRun, 2560, 400, on: "DUMMY0"), "\(dryRun.output)")

            // DUMMY0 changes mode.
            try Self.xrandr(server, "--output", "DUMMY0", "--mode", "1024x768", "--right-of", "DUMMY1")
            let smaller = try Self.expected(display, OutputPlacement(x: 1920, y: 0, width: 1024, height: 768))
            #expect(poll(timeout: .seconds(10)) { (try? Self.matrix(display)) == smaller }, "\(daemon.output)")

            // DUMMY1 unplugged, DUMMY0 back at the origin: the screen shrinks to DUMMY0 alone.
            try Self.xrandr(server, "--output", "DUMMY1", "--off", "--output", "DUMMY0", "--mode", "1280x800", "--pos", "0x0")
            try Self.xrandr(server, "--fb", "1280x800")
            #expect(poll(timeout: .seconds(10)) { (try? Self.matrix(display)) == .identity }, "\(daemon.output)")
            try touch.tap(at: 1000, 200)
            #expect(poll { Self.lines(dryRun).count == 3 }, "\(dryRun.output)")
            #expect(Self.lastAt(dryRun, 1000, 200, on: "DUMMY0"), "\(dryRun.output)")
            #expect(daemon.process.isRunning)
        }
    }

    @Test("auto: without sizes to compare and without a laptop panel, the primary output")
    func automaticPrimary() throws {
        try XServer.with(.xorgInputTest) { server in
            let display = try X11Display(name: server.name)
            try Self.plug(server, "DUMMY1", 1920, 1080, "--right-of", "DUMMY0")
            try Self.xrandr(server, "--output", "DUMMY1", "--primary")
            let daemon = try DaemonProcess(server, config: "[touchscreen]\noutput = \"auto\"\n")
            let onDummy1 = try Self.expected(display, OutputPlacement(x: 1280, y: 0, width: 1920, height: 1080))
            #expect(poll(timeout: .seconds(10)) { (try? Self.matrix(display)) == onDummy1 }, "\(daemon.output)")
            #expect(daemon.output.contains("mapped onto output DUMMY1 (1920×1080+1280+0; auto: the primary output)"), "\(daemon.output)")
        }
    }

    @Test("an output that is not there: one warning, and the matrix left as it is; a reload to a real one maps it")
    func missingOutput() throws {
        try XServer.with(.xorgInputTest) { server in
            let display = try X11Display(name: server.name)
            try Self.plug(server, "DUMMY1", 1920, 1080, "--right-of", "DUMMY0")
            let daemon = try DaemonProcess(server, config: "[touchscreen]\noutput = \"HDMI-9\"\n")
            #expect(poll { daemon.output.contains("touchscreen \"\(XServer.touchscreenName)\" is left as it is: there is no output named \"HDMI-9\" (outputs: DUMMY0, DUMMY1, DUMMY2") }, "\(daemon.output)")
            // Another screen change: the same problem is not said again.
            try Self.xrandr(server, "--output", "DUMMY1", "--left-of", "DUMMY0")
            usleep(300_000)
            #expect(daemon.output.components(separatedBy: "no output named").count == 2, "\(daemon.output)")
            #expect(try Self.matrix(display) == .identity)

            try "[touchscreen]\noutput = \"DUMMY1\"\n".write(to: daemon.configFile, atomically: false, encoding: .utf8)
            daemon.signal(SIGHUP)
            let onDummy1 = try Self.expected(display, OutputPlacement(x: 0, y: 0, width: 1920, height: 1080))
            #expect(poll(timeout: .seconds(10)) { (try? Self.matrix(display)) == onDummy1 }, "\(daemon.output)")
        }
    }

    @Test("without [touchscreen] output the daemon changes nothing")
    func notAsked() throws {
        try XServer.with(.xorgInputTest) { server in
            let display = try X11Display(name: server.name)
            let daemon = try DaemonProcess(server, config: Self.observerConfig)
            try Self.plug(server, "DUMMY1", 1920, 1080, "--right-of", "DUMMY0")
            usleep(500_000)
            #expect(try Self.matrix(display) == .identity, "\(daemon.output)")
            #expect(!daemon.output.contains("mapped onto"), "\(daemon.output)")
        }
    }

    @Test("the matrix is the one `xinput map-to-output` sets, for each output wherever it is placed")
    func sameAsXinput() throws {
        try XServer.with(.xorgInputTest) { server in
            let display = try X11Display(name: server.name)
            try Self.plug(server, "DUMMY1", 1920, 1080, "--right-of", "DUMMY0")
            let arrangements: [[String]] = [
                // (The dummy driver has 16 MB of video memory: the screen stays below 3300×1200.)
                [], ["--output", "DUMMY0", "--right-of", "DUMMY1"], ["--output", "DUMMY1", "--pos", "100x40"],
                ["--output", "DUMMY0", "--mode", "1024x768", "--pos", "2100x100"],
            ]
            for arrangement in arrangements {
                if !arrangement.isEmpty { try Self.xrandr(server, arrangement) }
                let outputs = try #require(try display.randrOutputs())
                let size = try display.currentRootSize()
                for name in ["DUMMY0", "DUMMY1"] {
                    let log = FileManager.default.temporaryDirectory.appendingPathComponent("gb-xinput-\(UUID().uuidString).log")
                    defer { try? FileManager.default.removeItem(at: log) }
                    let xinput = try ChildProcess(
                        ["xinput", "map-to-output", XServer.touchscreenName, name], environment: ["DISPLAY": server.name, "PATH": "/usr/bin:/bin"],
                        log: log.path)
                    #expect(xinput.waitForExit(timeout: .seconds(10)) == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
                    let theirs = try #require(try Self.matrix(display))
                    let placement = try #require(outputs.first { $0.name == name }?.placement)
                    let ours = TransformationMatrix.mapping(onto: placement, screenWidth: size.width, screenHeight: size.height)
                    #expect(zip(theirs.values, ours.values).allSatisfy { abs($0 - $1) < 1e-6 }, "\(name) at \(placement.summary): xinput \(theirs), ours \(ours)")
                }
            }
        }
    }

    @Test("doctor: a touchscreen that spans two monitors is a warning with the line to write; mapped, it is on its output")
    func doctor() throws {
        try XServer.with(.xorgInputTest) { server in
            try Self.plug(server, "DUMMY1", 1920, 1080, "--right-of", "DUMMY0")
            let spanning = try DoctorTests.check("touchscreen mapping", in: DoctorTests.run(server, config: Self.observerConfig))
            #expect(spanning.status == .warn, "\(spanning.humanText)")
            #expect(spanning.message == "Test Touchscreen spans 2 monitors (DUMMY0, DUMMY1): touches land away from the finger", "\(spanning.humanText)")
            #expect(spanning.advice == #"add to the config: [touchscreen] output = "DUMMY0" (or output = "auto", which chooses DUMMY0 here: the primary output)"#,
                    "\(spanning.humanText)")
            #expect(spanning.details == ["Test Touchscreen: covers DUMMY0, DUMMY1 (Coordinate Transformation Matrix 1 0 0 0 1 0 0 0 1)"])

            let config = "[touchscreen]\noutput = \"DUMMY0\"\n"
            let before = try DoctorTests.check("touchscreen mapping", in: DoctorTests.run(server, config: config))
            #expect(before.status == .ok, "\(before.humanText)")
            #expect(before.message == "Test Touchscreen covers DUMMY0, DUMMY1 now; gesture-bridge maps it onto DUMMY0 (as [touchscreen] output names it) when it runs")
            let daemon = try DaemonProcess(server, config: config)
            let display = try X11Display(name: server.name)
            #expect(poll { (try? Self.matrix(display)) != .identity }, "\(daemon.output)")
            let after = try DoctorTests.check("touchscreen mapping", in: DoctorTests.run(server, config: config))
            #expect(after.status == .ok && after.message == #"Test Touchscreen is on DUMMY0, as [touchscreen] output = "DUMMY0" asks"#, "\(after.humanText)")
            let wrong = try DoctorTests.check("touchscreen mapping", in: DoctorTests.run(server, config: "[touchscreen]\noutput = \"VGA-1\"\n"))
            #expect(wrong.status == .warn && wrong.message.hasPrefix(#"Test Touchscreen cannot be mapped as [touchscreen] output = "VGA-1" asks: there is no output named "VGA-1""#),
                    "\(wrong.humanText)")
            #expect(wrong.advice == #"write the name of an output that is on (DUMMY0, DUMMY1), or "auto""#, "\(wrong.humanText)")
        }
    }

    @Test("millimetres live: the sizes the outputs report reach the engine and the trace, and replay gives the lines the dry run gave")
    func millimetresLive() throws {
        try XServer.with(.xorgInputTest) { server in
            // DUMMY0 a 13" panel (189 dpi), DUMMY1 a 16" monitor (96 dpi), both 1280×800; then one without a size.
            try Self.xrandr(server, "--output", "DUMMY0", "--set", "WIDTH_MM", "172", "--set", "HEIGHT_MM", "108")
            try Self.plug(server, "DUMMY1", 1280, 800, "--right-of", "DUMMY0")
            try Self.xrandr(server, "--output", "DUMMY1", "--set", "WIDTH_MM", "339", "--set", "HEIGHT_MM", "212")
            // The outputs' own sizes change at the next probe (`xrandr` asks for one), as a
            // monitor's EDID is read when it is plugged in.
            try Self.xrandr(server)
            let config = "[recognizer]\nswipe_min_mm = 20\n\n" + Self.observerConfig
            let touch = try server.touchscreen()
            // The touchscreen spans the 2560×800 screen: device "pixels" (of 1280×800) are 2 root pixels wide.
            func drags() throws {
                try touch.swipe(fingers: 1, from: 200, 400, by: 50, 0)
                try touch.swipe(fingers: 1, from: 840, 400, by: 50, 0)
            }
            let dryRun = try DaemonProcess(server, config: config, arguments: ["--dry-run", "--json"])
            try drags()
            #expect(poll { Self.lines(dryRun).count == 1 }, "\(dryRun.output)")
            usleep(200_000)
            #expect(Self.lines(dryRun).count == 1 && Self.lines(dryRun)[0].contains(#""direction":"right","monitor":"DUMMY1""#), "\(dryRun.output)")
            dryRun.signal(SIGINT)
            #expect(dryRun.waitForExit() == 0)

            let trace = DaemonProcess.makeDirectory().appendingPathComponent("mm.trace")
            let recorder = try DaemonProcess(server, config: config, arguments: ["record", trace.path])
            try drags()
            #expect(poll { ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").components(separatedBy: "touch-end").count == 3 })
            recorder.signal(SIGINT)
            #expect(recorder.waitForExit() == 0, "\(recorder.output)")
            let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            #expect(text.hasPrefix(#"{"t":0,"type":"screen","width":2560,"height":800,"monitors":[{"name":"DUMMY0","x":0,"y":0,"width":1280,"height":800,"width_mm":172,"height_mm":108},{"name":"DUMMY1","x":1280,"y":0,"width":1280,"height":800,"width_mm":339,"height_mm":212}]}"#), "\(text)")
            let replay = try runToCompletion([DaemonProcess.executable, "replay", trace.path, "--json", "--config", dryRun.configFile.path], timeout: .seconds(20))
            func untimed(_ lines: [String]) -> [String] { lines.map { $0.replacing(/^\{"t":[0-9.]+,/, with: "{") } }
            let replayed = replay.output.split(separator: "\n").map(String.init).filter { !$0.contains(#""event":"#) }
            #expect(untimed(replayed) == untimed(Self.lines(dryRun)), "\(replay.output)")

            // An output that reports no size: RandR's monitor still has one (made up from the
            // screen's 96 dpi), which the trace leaves out.
            try Self.xrandr(server, "--output", "DUMMY1", "--set", "WIDTH_MM", "0", "--set", "HEIGHT_MM", "0")
            try Self.xrandr(server)
            let second = DaemonProcess.makeDirectory().appendingPathComponent("unsized.trace")
            let again = try DaemonProcess(server, config: config, arguments: ["record", second.path])
            #expect(poll { ((try? String(contentsOf: second, encoding: .utf8)) ?? "").contains("\n") })
            again.signal(SIGINT)
            #expect(again.waitForExit() == 0)
            let unsized = (try? String(contentsOf: second, encoding: .utf8)) ?? ""
            #expect(unsized.hasPrefix(#"{"t":0,"type":"screen","width":2560,"height":800,"monitors":[{"name":"DUMMY0","x":0,"y":0,"width":1280,"height":800,"width_mm":172,"height_mm":108},{"name":"DUMMY1","x":1280,"y":0,"width":1280,"height":800}]}"#), "\(unsized)")
        }
    }

    /// The dummy driver cannot rotate, so the matrix of a rotated panel is set as the daemon
    /// would compute it, and the server's own handling of it is what is checked: a drag towards
    /// the top of the picture, as the user holds the turned panel, is reported `up`.
    @Test("on a turned panel, the X server turns touches with the matrix: a swipe up as the user sees it is up",
          arguments: OutputRotation.allCases)
    func turnedPanel(_ rotation: OutputRotation) throws {
        try XServer.with(.xorgInputTest) { server in
            let display = try X11Display(name: server.name)
            let size = try display.currentRootSize()
            let placement = OutputPlacement(x: 0, y: 0, width: size.width, height: size.height, rotation: rotation)
            let matrix = TransformationMatrix.mapping(onto: placement, screenWidth: size.width, screenHeight: size.height)
            let device = try #require(try display.listDevices().first { $0.name == XServer.touchscreenName })
            try display.setTransformationMatrix(matrix, of: device.id)
            #expect(try display.transformationMatrix(of: device.id) == matrix)
            let dryRun = try DaemonProcess(server, config: Self.observerConfig, arguments: ["--dry-run", "--json"])
            let touch = try server.touchscreen()
            // The picture's top, on the panel's own axes (the device's 0…1 as 1280×800 "pixels").
            let towardsTop: (Double, Double) = switch rotation {
            case .normal: (0, -300)
            case .left: (-300 * 1.6, 0)
            case .inverted: (0, 300)
            case .right: (300 * 1.6, 0)
            }
            try touch.swipe(fingers: 1, from: 640 - towardsTop.0 / 2, 400 - towardsTop.1 / 2, by: towardsTop.0, towardsTop.1)
            #expect(poll { Self.lines(dryRun).count == 1 }, "\(dryRun.output)")
            #expect(Self.lines(dryRun).first?.contains(#""direction":"up""#) == true, "\(rotation): \(dryRun.output)")
        }
    }
}
