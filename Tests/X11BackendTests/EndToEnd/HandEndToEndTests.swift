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
        try TouchSession.with(config: Self.config, width: 700, height: 500) { s in
            let (x, y) = s.centre
            for id in UInt32(1)...5 {
                try s.touch.touch(.begin, id: id, x: Double(x - 100) + Double(id) * 40, y: Double(y))
                try s.touch.sync()
                usleep(5_000)
            }
            // Well past long_press_ms with all five down.
            usleep(1_500_000)
            s.window.pump()
            #expect(!s.window.received.contains { $0.detail == 3 }, "a right click fired: \(s.window.received)\n\(s.daemon.output)")
            for id in UInt32(1)...5 {
                try s.touch.touch(.end, id: id, x: Double(x - 100) + Double(id) * 40, y: Double(y))
            }
            try s.touch.sync()
            usleep(300_000)
            s.window.pump()
            #expect(!s.window.received.contains { $0.detail == 3 }, "\(s.window.received)\n\(s.daemon.output)")
            #expect(poll(timeout: .seconds(2)) { s.client.buttonsDown() == 0 }, "button mask \(s.client.buttonsDown())")

            // The hand is over: one finger held is the bound long press again.
            try s.touch.touch(.begin, id: 6, x: Double(x), y: Double(y))
            try s.touch.sync()
            let rightClicked = poll(timeout: .seconds(10)) {
                s.window.pump()
                return s.window.received.filter { $0.detail == 3 }.count >= 2
            }
            try s.touch.touch(.end, id: 6, x: Double(x), y: Double(y))
            try s.touch.sync()
            #expect(rightClicked, "\(s.window.received)\n\(s.daemon.output)")
        }
    }
}
