import BridgeCore
import CX11
import GestureConfig
import Testing
@testable import X11Backend
import GestureEngine

/// The performer's side of a key typed ahead (``X11ActionPerformer/typeAhead(_:)``): the
/// watcher hears of the keys before they can reach the server, the key action that follows
/// only releases them, and the window gets the combination once.
@Suite("keys typed ahead, the performer")
struct TypeAheadKeyTests {
    private func lines(_ events: [EventWindow.Received]) -> [String] { keyLines(events) }

    @Test("typed ahead: told to the watcher's hook before they are held; the action releases them; the window gets the combo once")
    func typedAheadThenFinished() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let performer = try makePerformer(server)
            var told: [[UInt8]] = []
            var heldWhenTold: [Bool] = []
            performer.willPressKeys = { keys in
                told.append(Array(keys))
                heldWhenTold.append(!performer.held.keys.isEmpty)
            }
            guard case .key(let combo) = keyAction("Control_L", "a") else { return }
            let presses = try #require(performer.presses(of: combo))
            #expect(performer.typeAhead(presses))
            #expect(told == [presses.presses.map(\.rawValue)])
            #expect(heldWhenTold == [false])
            #expect(performer.held.keys == presses.presses)
            // A second key is not typed ahead while the first waits for its action.
            #expect(!performer.typeAhead(presses))
            try performer.perform(.key(combo), context: context(.pointer))
            #expect(lines(window.waitForEvents(4)) == ["press Control_L", "press a", "release a", "release Control_L"])
            #expect(performer.held.isEmpty)
            #expect(performer.typedAhead == nil)
        }
    }

    /// The server writes a key event to its window before it reads the next request (a core
    /// key event is critical output), and the round trip written behind the keys is that
    /// request: when `typeAhead` returns, the window's socket holds the press. A `typeAhead`
    /// that only sent the keys returns before the server has read them.
    @Test("typeAhead returns once the server has handed the key on: the window's socket holds the press")
    func handedOnWhenItReturns() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let performer = try makePerformer(server)
            guard case .key(let combo) = keyAction("F5") else { return }
            let presses = try #require(performer.presses(of: combo))
            window.pump()
            #expect(XEventsQueued(window.client.display, QueuedAfterReading) == 0)
            #expect(performer.typeAhead(presses))
            // Reads what the socket holds now, without waiting for more.
            #expect(XEventsQueued(window.client.display, QueuedAfterReading) > 0)
            #expect(lines(window.waitForEvents(1)) == ["press F5"])
            try performer.perform(.key(combo), context: context(.pointer))
            #expect(lines(window.waitForEvents(2)) == ["press F5", "release F5"])
        }
    }

    @Test("a key typed ahead whose action never comes is released at the end of the turn")
    func unfinishedIsReleased() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let performer = try makePerformer(server)
            guard case .key(let combo) = keyAction("F5") else { return }
            let presses = try #require(performer.presses(of: combo))
            #expect(performer.typeAhead(presses))
            performer.releaseUnfinishedTypeAhead()
            performer.display.flush()
            #expect(lines(window.waitForEvents(2)) == ["press F5", "release F5"])
            #expect(performer.held.isEmpty)
            #expect(window.client.keysDown().isEmpty)
        }
    }

    @Test("nothing is typed ahead while the performer holds a key")
    func refusedWhileHeld() throws {
        try XServer.with { server in
            _ = try EventWindow(server: server.name)
            let performer = try makePerformer(server, hold: .seconds(30))
            guard case .key(let f5) = keyAction("F5") else { return }
            try performer.hold(keysym: keysym("Shift_L"))
            #expect(performer.presses(of: f5) == nil)
            performer.releaseEverything()
            #expect(performer.presses(of: f5) != nil)
        }
    }
}
