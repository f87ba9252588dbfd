import CX11
import Foundation
import Logging
import LogTestKit
import Testing
@testable import X11Backend

/// The reset around a touch accepted after its end (``ButtonStateReset``), on Xvfb: the accept
/// always happens exactly once, no pointer grab is ever left behind, no application sees the
/// click it injects, and a failure is said once.
///
/// The touch itself (and what the reset repairs) needs a touchscreen: `TouchEndToEndTests`.
@Suite("resetting button 1 after a late touch accept")
struct ButtonStateResetTests {
    /// Whether another client could grab the pointer now (then releases it again).
    private func pointerIsFree(_ client: XClient) -> Bool {
        let status = XGrabPointer(client.display, client.root, 0, 0, GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
        XUngrabPointer(client.display, UInt(CurrentTime))
        XSync(client.display, 0)
        return status == GrabSuccess
    }

    @Test("the accept runs once inside the grab, the XTest click reaches no window, and the grab is gone after")
    func resetLeavesNothingBehind() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name, width: 400, height: 300)
            let client = try XClient(server.name)
            let (x, y) = window.centre()
            client.warpPointer(to: x, y)
            let recording = RecordingLogHandler.Recording()
            let reset = ButtonStateReset()
            for _ in 0..<3 {
                var accepts = 0
                var freeDuringAccept = true
                reset.acceptAfterEnd(displayName: server.name, logger: RecordingLogHandler.logger(recording)) {
                    accepts += 1
                    freeDuringAccept = pointerIsFree(client)
                }
                #expect(accepts == 1)
                #expect(!freeDuringAccept, "the accept runs while the reset holds the pointer")
                #expect(pointerIsFree(client), "no pointer grab is left behind")
            }
            usleep(50_000)
            window.pump()
            #expect(window.received.isEmpty, "the XTest click reached a window: \(window.received)")
            #expect(client.buttonsDown() == 0)
            #expect(!recording.messages.contains { $0.level >= .warning }, "\(recording.messages)")
            #expect(recording.messages.filter { $0.message.contains("button 1 state reset") }.count == 3)
        }
    }

    @Test("under another client's pointer grab the reset is skipped (at debug), the accept still runs, that grab stays")
    func otherClientsGrabIsLeftAlone() throws {
        try XServer.with { server in
            let other = try XClient(server.name)
            #expect(XGrabPointer(other.display, other.root, 0, UInt32(ButtonPressMask | ButtonReleaseMask),
                                 GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime)) == GrabSuccess)
            XSync(other.display, 0)
            let recording = RecordingLogHandler.Recording()
            var accepts = 0
            ButtonStateReset().acceptAfterEnd(displayName: server.name, logger: RecordingLogHandler.logger(recording)) { accepts += 1 }
            #expect(accepts == 1)
            usleep(50_000)
            var received: [Int32] = []
            other.forEachPendingEvent { received.append($0.type) }
            #expect(received.isEmpty, "no click went to the grabbing client: \(received)")
            let client = try XClient(server.name)
            #expect(!pointerIsFree(client), "the other client's grab is still there")
            #expect(recording.messages.map(\.level) == [.debug], "\(recording.messages)")
        }
    }

    @Test("without a second connection: one warning in all, and every accept still runs")
    func unavailableConnectionWarnsOnce() throws {
        let recording = RecordingLogHandler.Recording()
        let reset = ButtonStateReset()
        var accepts = 0
        for _ in 0..<3 {
            reset.acceptAfterEnd(displayName: ":65000", logger: RecordingLogHandler.logger(recording)) { accepts += 1 }
        }
        #expect(accepts == 3)
        let warnings = recording.messages.filter { $0.level == .warning }
        #expect(warnings.count == 1, "\(recording.messages)")
        #expect(warnings.first?.message.contains("applications may take mouse motion for a drag") == true, "\(warnings)")
    }
}
