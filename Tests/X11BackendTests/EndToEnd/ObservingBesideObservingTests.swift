import Foundation
import Testing

/// `--dry-run`, `record` and `learn` beside a running `--dry-run` (issue 25, item 10): the
/// second cannot select the touchpad gesture events the first selects, and says so.
@Suite("observing runs beside an observing run, end to end", .serialized)
struct ObservingBesideObservingTests {
    @Test("a second --dry-run, record or learn on the display exits 1 and says who is in the way and what to do",
          arguments: [["--dry-run"], ["record", "/dev/null"], ["learn", "zorro"]])
    func secondObserver(_ arguments: [String]) throws {
        try XServer.with { server in
            let first = try DaemonProcess(server, config: pointerSwipeBindings, arguments: ["--dry-run"])
            let second = try DaemonProcess(server, config: pointerSwipeBindings, arguments: arguments, waitForReady: false)
            #expect(second.waitForExit() == 1, "\(second.output)")
            #expect(second.output.contains(
                "cannot watch the input on X display \(server.name): another client already selects the touchpad gesture events this needs "
                    + "(XISelectEvents: BadAccess) — most likely another gesture-bridge --dry-run, record or learn on this display; stop it and try again"),
                "\(second.output)")
            #expect(first.process.isRunning)
        }
    }
}
