import CX11
import Foundation
import GestureTestKit
import Testing

/// A hand of more fingers than any binding, with real XI 2.2 touches on headless Xorg: once the
/// extra finger spoils the gesture and the touches go back to the application, every finger
/// that lands while the hand is down goes with them — the server ends a touch for us the moment
/// we give it back, so only the raw touch end tells when the finger really lifted.
@Suite("a hand of fingers, end to end on headless Xorg", .serialized,
       .enabled(if: XServer.isRoot, "headless Xorg with inputtest devices needs root"))
struct HandEndToEndTests {
    /// Nothing is bound for more than three fingers.
    static let config = """
        [[bind]]
        gesture = "long-press"
        device = "touchscreen"
        action = "click right"

        [[bind]]
        gesture = "tap"
        fingers = 3
        action = "key shift"
        """

    @Test("five resting fingers fire no one-finger long press; after they lift, one finger does")
    func fiveRestingFingersFireNothing() throws {
        try XServer.with(.xorgInputTest, windowManager: true) { server in
            let client = try XClient(server.name)
            let window = try EventWindow(server: server.name, width: 700, height: 500)
            let daemon = try DaemonProcess(server, config: Self.config, arguments: ["--verbose"])
            let touch = try server.touchscreen()
            let (x, y) = window.centre()
            for id in UInt32(1)...5 {
                try touch.touch(.begin, id: id, x: Double(x - 100) + Double(id) * 40, y: Double(y))
                try touch.sync()
                usleep(5_000)
            }
            // Well past long_press_ms with all five down.
            usleep(1_500_000)
            window.pump()
            #expect(!window.received.contains { $0.detail == 3 }, "a right click fired: \(window.received)\n\(daemon.output)")
            for id in UInt32(1)...5 {
                try touch.touch(.end, id: id, x: Double(x - 100) + Double(id) * 40, y: Double(y))
            }
            try touch.sync()
            usleep(300_000)
            window.pump()
            #expect(!window.received.contains { $0.detail == 3 }, "\(window.received)\n\(daemon.output)")
            #expect(poll(timeout: .seconds(2)) { client.buttonsDown() == 0 }, "button mask \(client.buttonsDown())")

            // The hand is over: one finger held is the bound long press again.
            try touch.touch(.begin, id: 6, x: Double(x), y: Double(y))
            try touch.sync()
            let rightClicked = poll(timeout: .seconds(10)) {
                window.pump()
                return window.received.filter { $0.detail == 3 }.count >= 2
            }
            try touch.touch(.end, id: 6, x: Double(x), y: Double(y))
            try touch.sync()
            #expect(rightClicked, "\(window.received)\n\(daemon.output)")
        }
    }
}
