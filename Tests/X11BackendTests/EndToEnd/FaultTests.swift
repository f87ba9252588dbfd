import CX11
import Foundation
import GestureTestKit
import Testing

// Faults a desktop does to a daemon that runs for weeks (issue 9), each on a real server with the
// real binary: the daemon stopped and continued, the window manager killed and restarted, the
// config broken in every way while running, a storm of SIGHUPs, a touchscreen switched off
// mid-gesture.

/// A scratch directory of the test's own (the files `exec` probes write).
private func scratchDirectory() -> URL {
    let dir = URL(fileURLWithPath: TestScratch.path("gb-fault"))
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// An `exec` action that appends `word` as a line to `file` (through `sh -c`, named explicitly:
/// `exec` itself never uses a shell).
private func appendAction(_ word: String, to file: URL) -> String {
    "exec sh -c 'echo \(word) >> \(file.path)'"
}

/// Right-drags right and left that append `right` / `left` to `file`.
private func pointerSwipes(appendingTo file: URL) -> String {
    """
    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "right"
    action = "\(appendAction("right", to: file))"

    [[bind]]
    gesture = "swipe"
    device = "pointer"
    direction = "left"
    action = "\(appendAction("left", to: file))"
    """
}

/// The lines `exec` probes appended to `file` so far.
private func firings(_ file: URL) -> [String] {
    ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
}

/// The daemon's log lines a person sees (every level but `debug`).
private func visibleLines(_ output: String) -> [Substring] {
    output.split(separator: "\n").filter { line in
        let words = line.split(separator: " ", maxSplits: 2)
        return words.count > 1 && words[1] != "debug"
    }
}

// MARK: - SIGSTOP / SIGCONT (issue 9, item 9)

/// The daemon stopped (`kill -STOP`) while the trigger button is held, and continued: a stopped
/// daemon cannot decide, so the pointer waits; once it runs again, every press reaches the
/// window or the gesture, and no button stays down — also after it exits.
@Suite("the daemon stopped and continued, end to end", .serialized)
struct StoppedDaemonTests {
    @Test("stopped while the right button is held and released: the press and release reach the window, nothing stays down",
          arguments: [500, 3000])
    func stoppedDuringAHeldPress(milliseconds: Int) throws {
        try PointerGiveBackTests.withSession { s in
            let (x, y) = s.centre
            s.mouse.move(to: x, y)
            // xdotool mousedown 3; kill -STOP PID; sleep; xdotool mouseup 3; kill -CONT PID
            s.mouse.press()
            s.daemon.signal(SIGSTOP)
            sleep(.milliseconds(milliseconds))
            s.mouse.release()
            s.daemon.signal(SIGCONT)
            let events = s.givenBack()
            let buttons = PointerGiveBackTests.buttons(events)
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "\(events) \(s.daemon.output)")
            let pressedWhereItHappened = buttons.first.map { ($0.rootX, $0.rootY) == (x, y) } == true
            #expect(pressedWhereItHappened, "\(buttons)")
            let up = poll(timeout: .seconds(3)) { s.client.buttonsDown() == 0 }
            #expect(up, "buttons still down: 0x\(String(s.client.buttonsDown(), radix: 16))")
            s.boundDragFires("after a stop of \(milliseconds) ms")
            s.daemon.signal(SIGTERM)
            #expect(s.daemon.waitForExit() == 0, "\(s.daemon.output)")
            #expect(s.client.buttonsDown() == 0, "buttons down after exit: 0x\(String(s.client.buttonsDown(), radix: 16))")
        }
    }

    @Test("stopped during a claimed drag: the gesture fires once, the window sees none of it, nothing stays down")
    func stoppedDuringAClaimedDrag() throws {
        try PointerGiveBackTests.withSession { s in
            let (x, y) = s.centre
            s.mouse.move(to: x - 150, y)
            s.mouse.press()
            s.mouse.drag(by: 300, 0)
            let switched = poll { s.client.currentDesktop() == 1 }
            #expect(switched, "\(s.daemon.output)")
            s.daemon.signal(SIGSTOP)
            // The rest of the drag, and the release, while it cannot read them.
            s.mouse.drag(by: -200, 0, steps: 4, pause: .milliseconds(20))
            sleep(.milliseconds(500))
            s.mouse.release()
            s.daemon.signal(SIGCONT)
            let up = poll(timeout: .seconds(3)) { s.client.buttonsDown() == 0 }
            #expect(up, "buttons still down: 0x\(String(s.client.buttonsDown(), radix: 16))")
            sleep(.milliseconds(200))
            #expect(s.client.currentDesktop() == 1, "the drag fired more than once: \(s.daemon.output)")
            let buttons = PointerGiveBackTests.buttons(s.window.waitForEvents(0, timeout: .zero))
            #expect(buttons.isEmpty, "the claimed drag reached the window: \(buttons)")
            s.window.reset()
            s.boundDragFires("after a stop during a claimed drag")
        }
    }

    /// The long press's first action decides when the daemon lets the frozen pointer go: an
    /// `exec` thaws it at once, a `key` only once the events read with it are handled (keys go
    /// out before the thaw). Either way, and however long the daemon then takes (a busy machine
    /// delays the `exec`s), the second click's raw release, read before its press comes through
    /// the grab, must be kept for that press.
    @Test("a release and a whole click made while it is stopped: the long press ends, the click reaches the window",
          arguments: ["exec", "key"])
    func clickBehindAStoppedDaemon(firstAction: String) throws {
        let dir = scratchDirectory()
        let fired = dir.appendingPathComponent("fired")
        let keys = firstAction == "key"
        let began = keys ? "key ctrl+shift+F12" : appendAction("begin", to: fired)
        let ended = keys ? "key ctrl+shift+F11" : appendAction("end", to: fired)
        let config = """
            [recognizer]
            long_press_ms = 200

            [[bind]]
            gesture = "long-press"
            device = "pointer"
            action = "\(began)"

            [[bind]]
            gesture = "long-press"
            device = "pointer"
            on = "end"
            action = "\(ended)"
            """
        try PointerGiveBackTests.withSession(config: config) { s in
            let (x, y) = s.centre
            s.mouse.move(to: x, y)
            s.mouse.press()
            sleep(.milliseconds(50))
            s.daemon.signal(SIGSTOP)
            // The first press becomes a long press; the second press waits behind it in the
            // server, while its raw release reaches the daemon's socket first.
            sleep(.milliseconds(500))
            s.mouse.release()
            sleep(.milliseconds(50))
            s.mouse.press()
            s.mouse.release()
            s.daemon.signal(SIGCONT)
            let events = s.givenBack()
            let buttons = PointerGiveBackTests.buttons(events)
            #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease], "the click did not reach the window: \(events) \(s.daemon.output)")
            let endedOnce = poll(timeout: .seconds(3)) { s.daemon.output.contains("long-press ended") }
            #expect(endedOnce, "\(s.daemon.output)")
            if !keys {
                let appended = poll(timeout: .seconds(3)) { firings(fired).contains("end") }
                #expect(appended, "\(firings(fired)) \(s.daemon.output)")
            }
            sleep(.milliseconds(500))
            // Once each (the two programs start a moment apart and may append in either order).
            for phase in ["long-press began", "long-press ended"] {
                let count = s.daemon.output.components(separatedBy: phase).count - 1
                #expect(count == 1, "\(phase): \(count) times: \(s.daemon.output)")
            }
            #expect(firings(fired).sorted() == (keys ? [] : ["begin", "end"]), "\(s.daemon.output)")
            #expect(s.client.buttonsDown() == 0)
        }
    }
}

// MARK: - The window manager, the config, signals, devices

/// Faults from the desktop around the daemon: each must leave it working, say what happened
/// once, and recover by itself.
@Suite("faults on real servers, end to end", .serialized)
struct FaultTests {
    @Test("the window manager killed and restarted: workspace actions fail with one reason, the rest works, then they work again")
    func windowManagerKilledAndRestarted() throws {
        let dir = scratchDirectory()
        let fired = dir.appendingPathComponent("fired")
        let config = pointerSwipeBindings + """


            [[bind]]
            gesture = "swipe"
            device = "pointer"
            direction = "up"
            action = "\(appendAction("up", to: fired))"
            """
        try XServer.with(windowManager: true) { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 800, height: 500)
            let daemon = try DaemonProcess(server, config: config, arguments: ["--verbose"])
            let client = try XClient(server.name)
            let mouse = try PointerDriver(server)
            var (x, y) = window.centre()
            mouse.fastDrag(from: x - 150, y, by: 300, 0)
            let first = poll { client.currentDesktop() == 1 }
            #expect(first, "\(daemon.output)")

            try server.killOpenbox()
            let failureLine = "action failed: workspace next: no EWMH window manager is running"
            mouse.fastDrag(from: x - 150, y, by: 300, 0)
            let failed = poll { daemon.output.contains(failureLine) }
            #expect(failed, "\(daemon.output)")
            mouse.fastDrag(from: x - 150, y, by: 300, 0)
            let failedAgain = poll { daemon.output.contains("action failed again: workspace next") }
            #expect(failedAgain, "\(daemon.output)")
            let reasons = visibleLines(daemon.output).filter { $0.contains("workspace next") && $0.contains("failed") }
            #expect(reasons.count == 1, "one line for the failure, not one per firing: \(reasons)")
            #expect(reasons.first?.contains("start one") == true, "the line says what to do: \(reasons)")

            // Everything else goes on: other actions, and a plain right click reaches the window.
            mouse.fastDrag(from: x, y + 100, by: 0, -200)
            let up = poll { firings(fired) == ["up"] }
            #expect(up, "\(firings(fired)) \(daemon.output)")
            (x, y) = window.centre()
            window.reset()
            mouse.move(to: x, y)
            mouse.press()
            mouse.release()
            let clicked = poll { PointerGiveBackTests.buttons(window.waitForEvents(0, timeout: .zero)).count >= 2 }
            #expect(clicked, "\(window.received) \(daemon.output)")

            try server.restartOpenbox()
            let before = client.currentDesktop() ?? 0
            (x, y) = window.centre()
            mouse.fastDrag(from: x - 150, y, by: 300, 0)
            let again = poll { client.currentDesktop() == (before + 1) % XServer.desktopCount }
            #expect(again, "\(daemon.output)")
            let recovered = visibleLines(daemon.output).filter { $0.contains("workspace next works again") }
            #expect(recovered.count == 1, "\(daemon.output)")
            #expect(!daemon.output.contains("X error"), "\(daemon.output)")
        }
    }

    /// How the daemon is started for the config faults. As root, reading a file needs no
    /// permission (CAP_DAC_OVERRIDE), so `chmod 000` would prove nothing: the daemon then runs
    /// without that capability (`setpriv`), as a user's daemon runs, and the unreadable config
    /// is really unreadable to it.
    private static var unprivilegedLauncher: [String] {
        XServer.isRoot ? ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"] : []
    }

    @Test("the config deleted, emptied, cut short, unreadable, garbage, a link to /dev/zero: the last good one stays, one line each")
    func brokenConfigWhileRunning() throws {
        let dir = scratchDirectory()
        let fired = dir.appendingPathComponent("fired")
        let good = pointerSwipes(appendingTo: fired)
        try XServer.with { server in
            let home = DaemonProcess.makeDirectory()
            let configFile = home.appendingPathComponent("config.toml")
            try good.write(to: configFile, atomically: false, encoding: .utf8)
            let daemon = try DaemonProcess(
                server, directory: home, configFile: configFile, arguments: ["--config", configFile.path, "--verbose"],
                launcher: Self.unprivilegedLauncher)
            let mouse = try PointerDriver(server)
            let path = configFile.path
            var probes = 0

            /// Applies `fault`, waits for the daemon's answer (a line containing `expected`),
            /// checks that it is the only line a person sees about it and that the right drag still
            /// fires, then puts the good config back (seen as unchanged: nothing is reloaded).
            func check(_ name: String, expected: String, _ fault: () throws -> Void, restore: () throws -> Void) throws {
                let seen = visibleLines(daemon.output).count
                try fault()
                let answered = poll(timeout: .seconds(5)) { daemon.output.contains(expected) }
                #expect(answered, "\(name): no line containing “\(expected)”: \(daemon.output.suffix(3000))")
                usleep(300_000)  // anything more it would say
                let said = visibleLines(daemon.output).dropFirst(seen).filter { $0.contains("config") }
                #expect(said.count == 1, "\(name): \(said.count) lines: \(said)")
                #expect(said.first?.contains("previous config stays active") == true, "\(name): \(said)")
                // The good config is still the one in force.
                mouse.fastDrag(from: 300, 300, by: 300, 0)
                probes += 1
                let works = poll(timeout: .seconds(5)) { firings(fired).count == probes }
                #expect(works, "\(name): the gesture no longer fires: \(firings(fired)) \(daemon.output.suffix(2000))")
                let unchanged = daemon.output.components(separatedBy: "config unchanged").count
                try restore()
                let restored = poll(timeout: .seconds(5)) { daemon.output.components(separatedBy: "config unchanged").count > unchanged }
                #expect(restored, "\(name): the good config put back was not seen as unchanged: \(daemon.output.suffix(2000))")
            }
            func putBack() throws { try good.write(to: configFile, atomically: false, encoding: .utf8) }

            try check("deleted", expected: "is gone", { #expect(unlink(path) == 0) }, restore: putBack)
            try check("emptied", expected: "is empty", { #expect(truncate(path, 0) == 0) }, restore: putBack)
            // Cut inside the last action's string: an unterminated string, not a smaller config.
            try check("cut short", expected: "config not reloaded (the config file changed): \(path):", {
                #expect(truncate(path, off_t(good.utf8.count - 8)) == 0)
            }, restore: putBack)
            try check("unreadable", expected: "permission denied", { #expect(chmod(path, 0) == 0) }, restore: {
                #expect(chmod(path, 0o644) == 0)
            })
            try check("garbage", expected: "not valid UTF-8", {
                let bytes = (0..<512).map { UInt8(truncatingIfNeeded: ($0 * 7919 + 13) ^ 0xA5) } + [0xff, 0xfe]
                try Data(bytes).write(to: configFile)
            }, restore: putBack)
            try check("a link to /dev/zero", expected: "not a regular file", {
                let link = home.appendingPathComponent(".config.toml.link").path
                #expect(symlink("/dev/zero", link) == 0)
                #expect(rename(link, path) == 0)
            }, restore: {
                let fresh = home.appendingPathComponent(".config.toml.new")
                try good.write(to: fresh, atomically: false, encoding: .utf8)
                #expect(rename(fresh.path, path) == 0)
            })

            // And it still follows the file: a real change is applied.
            try (good + "\n[[bind]]\ngesture = \"swipe\"\ndevice = \"pointer\"\ndirection = \"up\"\naction = \"\(appendAction("up", to: fired))\"\n")
                .write(to: configFile, atomically: false, encoding: .utf8)
            let reloaded = poll(timeout: .seconds(5)) { daemon.output.contains("bindings=3") && daemon.output.contains("config reloaded") }
            #expect(reloaded, "\(daemon.output.suffix(2000))")
            #expect(!daemon.output.contains("critical"), "\(daemon.output.suffix(2000))")
        }
    }

    @Test("1,000 SIGHUPs in a second: it stays responsive, keeps its config, and grows neither descriptors nor memory")
    func sighupStorm() throws {
        let dir = scratchDirectory()
        let fired = dir.appendingPathComponent("fired")
        let config = pointerSwipes(appendingTo: fired) + """

            [[bind]]
            gesture = "long-press"
            device = "pointer"
            action = "\(appendAction("long", to: fired))"
            """
        try XServer.with { server in
            let daemon = try DaemonProcess(server, config: config)
            let mouse = try PointerDriver(server)
            let pid = daemon.process.pid
            var probes = 0
            func gestureFires(_ note: String) {
                mouse.fastDrag(from: 300, 300, by: 300, 0)
                probes += 1
                let fires = poll(timeout: .seconds(3)) { firings(fired).count == probes }
                #expect(fires, "\(note): \(firings(fired)) \(daemon.output.suffix(1500))")
            }
            func storm(_ count: Int) {
                // 1,000 in about a second: bursts of ten, a millisecond apart.
                for k in 0..<count {
                    kill(pid, SIGHUP)
                    if k % 10 == 9 { usleep(10_000) }
                }
            }
            // Warm up (allocator pools, lazily made tables), then measure a storm of 1,000.
            storm(200)
            gestureFires("after the warm-up storm")
            let before = ProcessFootprint(pid: pid)
            let started = ContinuousClock.now
            storm(1000)
            let stormTime = ContinuousClock.now - started
            gestureFires("right after 1,000 SIGHUPs")
            let after = ProcessFootprint(pid: pid)
            #expect(stormTime < .seconds(3), "the storm took \(stormTime)")
            #expect(after.descriptors == before.descriptors, "descriptors \(before.descriptors) → \(after.descriptors)")
            #expect(after.residentKiB - before.residentKiB < 1024, "resident memory \(before.residentKiB) KiB → \(after.residentKiB) KiB")
            let reloads = daemon.output.split(separator: "\n").filter { $0.contains("config reloaded (SIGHUP)") }
            #expect(!reloads.isEmpty)
            let allGood = reloads.allSatisfy { $0.contains("bindings=3") }
            #expect(allGood, "\(reloads.suffix(3))")
            #expect(!daemon.output.contains("not reloaded"), "\(daemon.output.suffix(2000))")
            gestureFires("once more")
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output.suffix(1000))")
        }
    }
}

/// What a process holds: open descriptors and resident memory, from `/proc`.
struct ProcessFootprint {
    var descriptors: Int
    var residentKiB: Int

    init(pid: pid_t) {
        descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        residentKiB = Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}

// MARK: - A touchscreen switched off mid-gesture

/// A touchscreen disabled (`xinput disable`, what unplugging does on the server) while fingers
/// are on it: the server ends its touches as if lifted, then says the device went. The gesture is
/// cancelled — no tap fires, a long press does not end as if lifted — nothing stays held, and the
/// device is used again once it is back. Real touches on headless Xorg (`inputtest`).
@Suite("a touchscreen switched off mid-gesture, end to end on headless Xorg", .serialized,
       .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
struct TouchDeviceRemovalTests {
    @Test("a touch in progress when its screen is disabled is cancelled; nothing is held; the screen works once enabled")
    func touchscreenDisabledMidGesture() throws {
        let dir = scratchDirectory()
        let fired = dir.appendingPathComponent("fired")
        let config = """
            [[bind]]
            gesture = "tap"
            fingers = 1
            action = "\(appendAction("tap", to: fired))"

            [[bind]]
            gesture = "long-press"
            device = "touchscreen"
            action = "\(appendAction("long-press", to: fired))"

            [[bind]]
            gesture = "long-press"
            device = "touchscreen"
            on = "end"
            action = "\(appendAction("long-press-end", to: fired))"
            """
        try TouchSession.with(config: config, width: 700, height: 500) { s in
            let (x, y) = (Double(s.centre.0), Double(s.centre.1))
            var touch = s.touch
            let mouse = try PointerDriver(s.server)
            func switchTouchscreen(_ on: Bool) throws {
                let changes = s.daemon.output.components(separatedBy: "input devices changed").count
                try tool(s.server, "xinput", on ? "enable" : "disable", XServer.touchscreenName)
                let seen = poll { s.daemon.output.components(separatedBy: "input devices changed").count > changes }
                #expect(seen, "the daemon did not see the touchscreen \(on ? "enabled" : "disabled"): \(s.daemon.output.suffix(2000))")
                if on { touch = try s.server.reconnectTouchscreen() }
            }
            func nothingHeld(_ note: String) {
                let free = poll(timeout: .seconds(2)) { s.client.buttonsDown() == 0 }
                #expect(free, "\(note): buttons down 0x\(String(s.client.buttonsDown(), radix: 16))")
                // A frozen or grabbed pointer would not follow.
                mouse.move(to: 200, 200)
                let moved = poll(timeout: .seconds(2)) { s.client.pointer().x == 200 && s.client.pointer().y == 200 }
                #expect(moved, "\(note): the pointer does not move")
            }
            func tapFires(_ note: String) throws {
                let taps = firings(fired).filter { $0 == "tap" }.count
                try touch.touch(.begin, id: 7, x: x, y: y)
                try touch.sync()
                usleep(30_000)
                try touch.touch(.end, id: 7, x: x, y: y)
                try touch.sync()
                let tapped = poll(timeout: .seconds(3)) { firings(fired).filter { $0 == "tap" }.count == taps + 1 }
                #expect(tapped, "\(note): \(firings(fired)) \(s.daemon.output.suffix(2000))")
            }

            try tapFires("before anything")

            // A finger that would be a tap when the screen goes.
            try touch.touch(.begin, id: 1, x: x, y: y)
            try touch.sync()
            usleep(40_000)
            try switchTouchscreen(false)
            sleep(.milliseconds(500))
            #expect(firings(fired) == ["tap"], "a tap fired for a screen switched off: \(firings(fired))")
            nothingHeld("after a touch cut off")
            try switchTouchscreen(true)
            try tapFires("with the screen back")

            // A long press running (claimed) when the screen goes: cancelled, its end binding silent.
            try touch.touch(.begin, id: 2, x: x, y: y)
            try touch.sync()
            let began = poll(timeout: .seconds(3)) { firings(fired).contains("long-press") }
            #expect(began, "\(firings(fired)) \(s.daemon.output.suffix(2000))")
            try switchTouchscreen(false)
            let cancelled = poll(timeout: .seconds(3)) { s.daemon.output.contains("long-press cancelled") }
            #expect(cancelled, "\(s.daemon.output.suffix(2000))")
            sleep(.milliseconds(300))
            #expect(!firings(fired).contains("long-press-end"), "the long press ended as if lifted: \(firings(fired))")
            nothingHeld("after a long press cut off")
            try switchTouchscreen(true)
            try tapFires("with the screen back again")
        }
    }
}
