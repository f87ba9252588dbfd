import BridgeCore
import CX11
import GestureConfig
import Testing
@testable import X11Backend
import GestureEngine

@Suite("click and scroll actions through XTest")
struct PointerActionTests {
    @Test("click right after a touch gesture arrives at the window under the gesture's position")
    func clickAtTouchPosition() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 400, height: 300)
            window.client.warpPointer(to: 1000, 700)   // far from the window
            let performer = try makePerformer(server)
            try performer.perform(.click(button: 3), context: context(.touchscreen, 300.4, 250.6))
            let events = window.waitForEvents(2)
            try #require(events.count == 2)
            #expect(events[0].kind == .buttonPress && events[0].detail == 3)
            #expect(events[1].kind == .buttonRelease && events[1].detail == 3)
            #expect((events[0].rootX, events[0].rootY) == (300, 251))
            #expect((events[0].x, events[0].y) == (200, 151))
            #expect(window.client.buttonsDown() == 0)
        }
    }

    @Test("click after a pointer gesture clicks where the pointer is")
    func clickWherePointerIs() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 400, height: 300)
            window.client.warpPointer(to: 150, 160)
            let performer = try makePerformer(server)
            try performer.perform(.click(button: 1), context: context(.pointer, 900, 700))
            let events = window.waitForEvents(2)
            try #require(events.count == 2)
            #expect(events[0].kind == .buttonPress && events[0].detail == 1)
            #expect((events[0].rootX, events[0].rootY) == (150, 160))
            let pointer = window.client.pointer()
            #expect((pointer.x, pointer.y) == (150, 160))
        }
    }

    @Test("scroll sends N clicks of buttons 4, 5, 6 and 7", arguments: [
        (ScrollDirection.up, 1, 4), (.down, 3, 5), (.left, 2, 6), (.right, 1, 7),
    ])
    func scroll(direction: ScrollDirection, steps: Int, button: Int) throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name, x: 0, y: 0, width: 600, height: 600)
            window.client.warpPointer(to: 300, 300)
            let performer = try makePerformer(server)
            try performer.perform(.scroll(direction, steps: steps), context: context(.touchpad, 10, 10))
            let events = window.waitForEvents(2 * steps)
            let expected = Array(repeating: [EventWindow.Received.Kind.buttonPress, .buttonRelease], count: steps).flatMap { $0 }
            #expect(events.map(\.kind) == expected)
            #expect(events.allSatisfy { $0.detail == button })
            // Scrolling never moves the pointer, even after a touchpad gesture.
            #expect(events.allSatisfy { ($0.rootX, $0.rootY) == (300, 300) })
        }
    }

    @Test("a button X does not have is refused before anything is pressed")
    func badButton() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name, x: 100, y: 100, width: 400, height: 300)
            window.client.warpPointer(to: 300, 250)
            let performer = try makePerformer(server)
            let error = #expect(throws: ActionError.self) { try performer.perform(.click(button: 300), context: context(.pointer)) }
            #expect(error?.message == "click 300: there is no X button 300 (buttons are 1 to 255)")
            #expect(performer.held.isEmpty)
            try performer.display.sync()
            #expect(window.waitForEvents(1, timeout: .milliseconds(200)).isEmpty)
        }
    }
}
