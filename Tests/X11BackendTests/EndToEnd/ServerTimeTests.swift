import CX11
import Foundation
import Testing

/// The server's clock as the daemon sees it: every event keeps the time the server gave it
/// (issue 9, item 5), and the 32-bit millisecond counter wrapping after 49.7 days changes
/// nothing (a real Xvfb whose clock is set just before the wrap with libfaketime).
@Suite("server time, end to end")
struct ServerTimeTests {
    /// A right-drag to the right that appends a line to `marker`.
    private static func dragConfig(marker: String) -> String {
        """
        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = "exec sh -c 'echo swipe >> \(marker)'"
        """
    }

    private static func lines(of file: URL, type: String) -> [String] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            .filter { $0.contains(#""type":"\#(type)""#) }
    }

    private static func time(of line: String) -> Double? {
        guard let start = line.range(of: #""t":"#)?.upperBound else { return nil }
        return Double(line[start...].prefix { $0 != "," && $0 != "}" })
    }

    /// The daemon stopped while the focus changes and the pointer moves: when it runs again,
    /// the focus event is read first. Stamped with an estimate of "now", it was ahead of the
    /// motion queued behind it, and `record` refused that motion as time going backwards.
    @Test("a focus change read after a stall keeps its server time: record keeps the motion queued behind it")
    func focusAfterStall() throws {
        try XServer.with { server in
            let dir = DaemonProcess.makeDirectory()
            let trace = dir.appendingPathComponent("stall.trace")
            let marker = dir.appendingPathComponent("marker").path
            let recorder = try DaemonProcess(server, config: Self.dragConfig(marker: marker), arguments: ["record", trace.path])
            let firefox = try EventWindow(server: server.name, wmClass: ("navigator", "Firefox"), takeFocus: false)
            let client = try XClient(server.name)

            try tool(server, "xdotool", "mousemove_relative", "--", "5", "5")
            let first = poll { Self.lines(of: trace, type: "motion").count >= 1 }
            try #require(first, "\(recorder.output)")
            recorder.signal(SIGSTOP)
            client.setActiveWindow(firefox.window)
            for _ in 0..<3 { try tool(server, "xdotool", "mousemove_relative", "--", "5", "5") }
            usleep(1_000_000)
            recorder.signal(SIGCONT)

            let all = poll(timeout: .seconds(3)) { Self.lines(of: trace, type: "motion").count >= 4 && !Self.lines(of: trace, type: "focus").isEmpty }
            let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            #expect(all, "trace:\n\(text)\nlog:\n\(recorder.output)")
            #expect(!recorder.output.contains("time goes backwards"), "\(recorder.output)")
            let times = text.split(separator: "\n").compactMap { Self.time(of: String($0)) }
            #expect(times == times.sorted(), "\(text)")
            // The focus change happened before the three moves, and no second later than them.
            let focusTime = Self.lines(of: trace, type: "focus").first.flatMap(Self.time(of:)) ?? 0
            let lastMove = Self.lines(of: trace, type: "motion").last.flatMap(Self.time(of:)) ?? 0
            #expect(focusTime <= lastMove, "\(text)")
            recorder.signal(SIGTERM)
            #expect(recorder.waitForExit() == 0)
        }
    }

    /// libfaketime makes the server's CLOCK_MONOTONIC start at `seconds` (it fakes the
    /// monotonic clocks along with the real-time one).
    private static func fakeClock(startingAt seconds: Int) throws -> [String: String] {
        let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
        guard FileManager.default.fileExists(atPath: library) else {
            throw HarnessError("\(library) is missing: install the Debian package faketime (scripts/setup-debian does)")
        }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let stamp = String(format: "@%04d-%02d-%02d %02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                           parts.tm_hour, parts.tm_min, parts.tm_sec)
        return ["LD_PRELOAD": library, "FAKETIME": stamp, "TZ": "UTC"]
    }

    /// The X server's 32-bit millisecond clock wraps to 0 a few seconds into the test: drags
    /// before, across and after the wrap all fire, plain clicks all reach the window, nothing is
    /// left held.
    @Test("the server clock wrapping past 2^32 ms: gestures fire and clicks are given back across the wrap")
    func clockWrap() throws {
        // 1000 × (k·2²⁹) s is a multiple of 2³² ms: the counter wraps 10 s after the server starts.
        let start = 3 * (1 << 29) - 10
        try XServer.with(environment: try Self.fakeClock(startingAt: start)) { server in
            let client = try XClient(server.name)
            let before = client.serverTime()
            try #require(before > UInt(UInt32.max) - 12_000, "the server's clock is not near the wrap: \(before)")

            let dir = DaemonProcess.makeDirectory()
            let marker = dir.appendingPathComponent("marker")
            let daemon = try DaemonProcess(server, config: Self.dragConfig(marker: marker.path))
            let window = try EventWindow(server: server.name, x: 700, y: 100, width: 400, height: 300)
            func fired() -> Int { ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n").count }

            var drags = 0, clicks = 0
            var wrapped = false
            var rounds = 0
            while rounds < 40 && !(wrapped && drags >= 3 && rounds >= 6) {
                rounds += 1
                try rightDrag(server, from: 200, 300, by: 240)
                drags += 1
                let dragFired = poll(timeout: .seconds(3)) { fired() == drags }
                #expect(dragFired, "drag \(drags) at server time \(client.serverTime()): \(daemon.output.suffix(2000))")
                try tool(server, "xdotool", "mousemove", "900", "250", "click", "3")
                clicks += 1
                let presses = poll(timeout: .seconds(3)) {
                    window.pump()
                    return window.received.filter { $0.kind == .buttonPress && $0.detail == 3 }.count == clicks
                }
                #expect(presses, "click \(clicks) at server time \(client.serverTime()): \(window.received)")
                #expect(client.buttonsDown() == 0)
                if client.serverTime() < before { wrapped = true }
                usleep(500_000)
            }
            #expect(wrapped, "the server's clock did not wrap (it reads \(client.serverTime()))")
            #expect(daemon.process.isRunning, "\(daemon.output)")
        }
    }
}
