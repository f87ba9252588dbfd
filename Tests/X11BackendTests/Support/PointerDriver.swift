import CX11
import Foundation

/// A mouse driven through XTest on the test's own connection, as a hand would move it:
/// every step is flushed, with a short pause where a test wants real velocities.
///
/// Motion during a press is relative (`XTestFakeRelativeMotionEvent`), as a mouse's is: the
/// daemon follows a press through raw relative motion, and an absolute XTest motion carries
/// screen coordinates that it cannot tell from deltas.
final class PointerDriver {
    let client: XClient

    init(_ server: XServer) throws {
        client = try XClient(server.name)
    }

    /// Puts the pointer at root (`x`, `y`) (absolute: only between presses).
    func move(to x: Int, _ y: Int) {
        XTestFakeMotionEvent(client.display, -1, Int32(x), Int32(y), 0)
        XSync(client.display, 0)
    }

    /// Moves the pointer by (`dx`, `dy`) in `steps` equal steps, `pause` apart.
    func drag(by dx: Int, _ dy: Int, steps: Int = 6, pause: Duration = .milliseconds(15)) {
        for k in 0..<steps {
            let sx = dx * (k + 1) / steps - dx * k / steps
            let sy = dy * (k + 1) / steps - dy * k / steps
            XTestFakeRelativeMotionEvent(client.display, Int32(sx), Int32(sy), 0)
            XSync(client.display, 0)
            sleep(pause)
        }
    }

    func press(_ button: UInt32 = 3) {
        XTestFakeButtonEvent(client.display, button, 1, 0)
        XSync(client.display, 0)
    }

    func release(_ button: UInt32 = 3) {
        XTestFakeButtonEvent(client.display, button, 0, 0)
        XSync(client.display, 0)
    }

    /// Press, hold for `duration` without moving, release.
    func hold(_ duration: Duration, button: UInt32 = 3) {
        press(button)
        sleep(duration)
        release(button)
    }

    /// A fast drag with the button held, from (`x`, `y`) by (`dx`, `dy`).
    func fastDrag(from x: Int, _ y: Int, by dx: Int, _ dy: Int, button: UInt32 = 3) {
        move(to: x, y)
        press(button)
        drag(by: dx, dy)
        release(button)
    }
}

/// Sleeps the calling thread (tests that drive input in real time).
func sleep(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(UInt32(max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)))
}
