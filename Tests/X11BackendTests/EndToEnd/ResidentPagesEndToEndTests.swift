import Foundation
import Testing

/// The daemon lets go of its start-up pages once input pauses (``ResidentPages``, issue 13):
/// the real binary on Xvfb, then a gesture after it still works.
@Suite("start-up pages let go of, end to end")
struct ResidentPagesEndToEndTests {
    static let config = """
        [[bind]]
        gesture = "swipe"
        device = "pointer"
        direction = "right"
        action = "key F12"
        """

    @Test("after a pause in input the idle daemon holds fewer pages, and the next gesture still fires")
    func trimsWhenIdleAndKeepsWorking() throws {
        try XServer.with(windowManager: false) { server in
            let keys = try RawKeyObserver(server: server.name)
            let daemon = try DaemonProcess(server, config: Self.config, arguments: ["--verbose"])
            let mouse = try PointerDriver(server)
            let before = try #require(SoakTests.residentKiB(of: daemon.process.pid))
            #expect(poll(timeout: .seconds(10)) { daemon.output.contains("kB of pages the loop does not use") }, "\(daemon.output)")
            let after = try #require(SoakTests.residentKiB(of: daemon.process.pid))
            #expect(after < before, "resident \(before) KiB → \(after) KiB")

            mouse.fastDrag(from: 300, 300, by: 300, 0)
            #expect(poll { keys.pump().contains("down F12") }, "\(keys.pump()) \(daemon.output.suffix(2000))")
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output.suffix(2000))")
        }
    }
}
