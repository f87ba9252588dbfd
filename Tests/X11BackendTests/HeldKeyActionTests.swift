import BridgeCore
import Foundation
import CX11
import GestureConfig
import Testing
@testable import X11Backend
import GestureEngine

@Suite("held keys through XTest")
struct HeldKeyActionTests {
    private func key(_ name: String) -> KeyCombo.Key { KeyCombo.Key(name: name, keysym: UInt32(keysym(name))) }

    @Test("a held key stays down across key actions and goes up when released")
    func heldAcrossActions() throws {
        try XServer.with { server in
            let keys = try RawKeyObserver(server: server.name)
            let performer = try makePerformer(server)
            let alt = try #require(keys.client.keycode(ofUnshifted: keysym("Alt_L")))
            try performer.pressHeldKey(key("Alt_L"), context: context(.pointer))
            #expect(keys.client.keysDown() == [alt])
            try performer.perform(keyAction("Tab"), context: context(.pointer))
            try performer.perform(keyAction("Shift_L", "Tab"), context: context(.pointer))
            #expect(keys.client.keysDown() == [alt])
            // Pressing it again for another gesture changes nothing.
            try performer.pressHeldKey(key("Alt_L"), context: context(.pointer))
            performer.releaseHeldKey(key("Alt_L"))
            #expect(keys.client.keysDown().isEmpty)
            #expect(poll { keys.pump().count == 8 })
            #expect(keys.pump() == ["down Alt_L", "down Tab", "up Tab", "down Shift_L", "down Tab", "up Tab", "up Shift_L", "up Alt_L"])
            #expect(performer.held.isEmpty)
        }
    }

    @Test("an action that fails keeps the held keys down; what it pressed itself goes up")
    func failingActionKeepsHolds() throws {
        try XServer.with { server in
            let client = try XClient(server.name)
            let performer = try makePerformer(server)
            let alt = try #require(client.keycode(ofUnshifted: keysym("Alt_L")))
            try performer.pressHeldKey(key("Alt_L"), context: context(.pointer))
            let bogus = Action.key(KeyCombo(keys: [key("Tab"), .init(name: "Bogus", keysym: 0)]))
            #expect(throws: ActionError.self) { try performer.perform(bogus, context: context(.pointer)) }
            #expect(client.keysDown() == [alt])
            try performer.perform(keyAction("Tab"), context: context(.pointer))
            #expect(client.keysDown() == [alt])
            performer.releaseHeldKey(key("Alt_L"))
            #expect(client.keysDown().isEmpty)
            #expect(performer.held.isEmpty)
        }
    }

    @Test("releaseEverything lets go of held keys, and a later release does not release twice")
    func releaseEverything() throws {
        try XServer.with { server in
            let keys = try RawKeyObserver(server: server.name)
            let performer = try makePerformer(server)
            try performer.pressHeldKey(key("Control_L"), context: context(.touchscreen))
            try performer.pressHeldKey(key("Super_L"), context: context(.touchscreen))
            #expect(keys.client.keysDown().count == 2)
            performer.releaseEverything()
            #expect(keys.client.keysDown().isEmpty)
            performer.releaseHeldKey(key("Super_L"))
            performer.releaseHeldKey(key("Control_L"))
            #expect(poll { keys.pump().count == 4 })
            usleep(50_000)
            #expect(keys.pump() == ["down Control_L", "down Super_L", "up Super_L", "up Control_L"])
        }
    }

    @Test("a held keysym that is not in the keymap keeps its spare keycode while it is down")
    func heldUnmappedKeysym() throws {
        try XServer.with { server in
            let client = try XClient(server.name)
            let before = client.keyboardMapping()
            let candidates = ["XF86Calculater", "XF86Launch9", "XF86TouchpadToggle", "XF86Game", "XF86Phone"]
            let name = try #require(candidates.first { !before.keysyms.contains(keysym($0)) }, "every candidate keysym is mapped")
            let performer = try makePerformer(server, hold: .milliseconds(1))
            try performer.pressHeldKey(key(name), context: context(.pointer))
            usleep(20_000)
            performer.restoreTemporaryMappings(dueBy: .now)
            #expect(client.keyboardMapping().keysyms.contains(keysym(name)), "the keycode was taken back while held")
            #expect(client.keysDown().count == 1)
            performer.releaseHeldKey(key(name))
            #expect(client.keysDown().isEmpty)
            usleep(20_000)
            performer.restoreTemporaryMappings(dueBy: .now)
            #expect(client.keyboardMapping().keysyms == before.keysyms)
        }
    }
}
