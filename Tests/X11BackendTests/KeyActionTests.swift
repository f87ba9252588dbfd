import BridgeCore
import CX11
import GestureConfig
import Testing
@testable import X11Backend
import GestureEngine

@Suite("key actions through XTest")
struct KeyActionTests {
    /// What the window saw, as `press Name` / `release Name` lines.
    private func lines(_ events: [EventWindow.Received]) -> [String] { keyLines(events) }

    /// The keycodes whose keysyms differ between two mappings.
    private func changedKeycodes(_ before: (min: Int, perKeycode: Int, keysyms: [UInt]), _ after: (min: Int, perKeycode: Int, keysyms: [UInt])) -> [Int] {
        guard before.perKeycode == after.perKeycode, before.keysyms.count == after.keysyms.count else { return [-1] }
        return stride(from: 0, to: before.keysyms.count, by: before.perKeycode).filter { start in
            before.keysyms[start..<start + before.perKeycode] != after.keysyms[start..<start + after.perKeycode]
        }.map { before.min + $0 / before.perKeycode }
    }

    @Test("ctrl+shift+a reaches the focused window: pressed in order, released in reverse")
    func comboInOrder() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let performer = try makePerformer(server)
            try performer.perform(keyAction("Control_L", "Shift_L", "a"), context: context(.touchscreen))
            let events = window.waitForEvents(6)
            // With Shift down, the `a` key means `A`, as any application reads it.
            #expect(lines(events) == [
                "press Control_L", "press Shift_L", "press A", "release A", "release Shift_L", "release Control_L",
            ])
            let aKey = try #require(window.client.keycode(ofUnshifted: keysym("a")))
            #expect(events[2].detail == Int(aKey))
            #expect(events[2].state & UInt32(ControlMask | ShiftMask) == UInt32(ControlMask | ShiftMask))
            #expect(performer.held.isEmpty)
            #expect(window.client.keysDown().isEmpty)
        }
    }

    @Test("a key that is no keysym is refused before anything is pressed")
    func noSymbol() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let performer = try makePerformer(server)
            let action = Action.key(KeyCombo(keys: [.init(name: "Control_L", keysym: 0xffe3), .init(name: "Bogus", keysym: 0)]))
            let error = #expect(throws: ActionError.self) { try performer.perform(action, context: context(.pointer)) }
            #expect(error?.message == "key Control_L+Bogus: Bogus is not an X keysym")
            try performer.display.sync()
            #expect(window.waitForEvents(1, timeout: .milliseconds(200)).isEmpty)
            #expect(performer.held.isEmpty)
        }
    }

    @Test("a keysym in the shifted column gets Shift pressed around it")
    func shiftedKeysym() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let performer = try makePerformer(server)
            try performer.perform(keyAction("ctrl", "exclam").withModifierNames, context: context(.pointer))
            let events = window.waitForEvents(6)
            #expect(lines(events) == [
                "press Control_L", "press Shift_L", "press exclam", "release exclam", "release Shift_L", "release Control_L",
            ])
        }
    }

    // The server says the keyboard changed whenever the master keyboard's keys come from
    // another device; read lazily, the mapping cost the next gesture a round trip before its
    // key (issue 27). The daemon's loop calls maintain() after each turn's input.
    @Test("a keymap change is read again in maintenance, between gestures, not at the next key action")
    func keymapChangeReadBetweenGestures() throws {
        try XServer.with { server in
            let performer = try makePerformer(server)
            performer.display.followKeyboardMapping()
            try performer.perform(keyAction("a"), context: context(.touchscreen))
            let cached = try #require(performer.cachedKeyboardMapping)
            let spare = try #require(cached.mapping.spareKeycodes().first)
            // Another client puts F13 on a spare keycode.
            let client = try XClient(server.name)
            var keysyms = [UInt](repeating: keysym("F13"), count: cached.mapping.keysymsPerKeycode)
            XChangeKeyboardMapping(client.display, Int32(spare.rawValue), Int32(keysyms.count), &keysyms, 1)
            client.sync()
            // The loop reads the notification with the turn's input.
            try performer.display.sync()
            while performer.display.nextEvent() != nil {}
            #expect(performer.cachedKeyboardMapping?.changes != performer.display.keyboardMappingChanges)
            performer.maintain()
            let fresh = try #require(performer.cachedKeyboardMapping)
            #expect(fresh.changes == performer.display.keyboardMappingChanges)
            #expect(fresh.mapping.locate(keysym("F13"))?.keycode == spare)
        }
    }

    @Test("a keysym that is not in the keymap is delivered on a spare keycode, and the keymap is restored")
    func unmappedKeysym() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let before = window.client.keyboardMapping()
            let candidates = ["XF86Calculater", "XF86Launch9", "XF86TouchpadToggle", "XF86Game", "XF86Phone"]
            let name = try #require(candidates.first { !before.keysyms.contains(keysym($0)) }, "every candidate keysym is mapped")
            let performer = try makePerformer(server, hold: .seconds(30))

            try performer.perform(keyAction(name), context: context(.touchpad))
            let events = window.waitForEvents(2)
            #expect(lines(events) == ["press \(name)", "release \(name)"])
            #expect(window.client.keysDown().isEmpty)

            // Still lent while the hold runs, restored when it is due.
            let deadline = try #require(performer.nextRestoreDeadline)
            performer.restoreTemporaryMappings(dueBy: .now)
            #expect(changedKeycodes(before, window.client.keyboardMapping()) == [events[0].detail])
            performer.restoreTemporaryMappings(dueBy: deadline)
            #expect(performer.nextRestoreDeadline == nil)
            #expect(changedKeycodes(before, window.client.keyboardMapping()) == [])
        }
    }

    @Test("typing the same unmapped keysym again reuses its keycode, and releaseEverything restores it")
    func unmappedKeysymTwice() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let before = window.client.keyboardMapping()
            let name = try #require(["XF86Calculater", "XF86Launch9", "XF86Game"].first { !before.keysyms.contains(keysym($0)) })
            let performer = try makePerformer(server, hold: .seconds(30))
            try performer.perform(keyAction(name), context: context(.touchpad))
            try performer.perform(keyAction("shift", name).withModifierNames, context: context(.touchpad))
            let events = window.waitForEvents(6)
            #expect(lines(events) == ["press \(name)", "release \(name)", "press Shift_L", "press \(name)", "release \(name)", "release Shift_L"])
            #expect(events[0].detail == events[3].detail)
            #expect(performer.temporaryMappings.count == 1)
            performer.releaseEverything()
            #expect(changedKeycodes(before, window.client.keyboardMapping()) == [])
        }
    }

    /// The performer keeps the keyboard mapping between actions (no round trip before a key);
    /// another client's change must still be seen by the next action, with no event loop
    /// draining the queue in between.
    @Test("a key typed after another client changed the keymap uses the new keymap")
    func keymapChangedByAnotherClient() throws {
        try XServer.with { server in
            let window = try EventWindow(server: server.name)
            let client = try XClient(server.name)
            let before = client.keyboardMapping()
            let name = try #require(["XF86Launch9", "XF86Game", "XF86Calculater"].first { !before.keysyms.contains(keysym($0)) })
            let performer = try makePerformer(server, hold: .seconds(30))
            try performer.perform(keyAction("a"), context: context(.pointer))
            // Someone else maps the keysym on the last spare keycode (the performer would lend the first).
            let spare = try #require(Array(stride(from: 0, to: before.keysyms.count, by: before.perKeycode)).last { start in
                before.keysyms[start..<start + before.perKeycode].allSatisfy { $0 == 0 }
            }.map { before.min + $0 / before.perKeycode })
            var theirs: [KeySym] = [keysym(name), keysym(name)]
            XChangeKeyboardMapping(client.display, Int32(spare), 2, &theirs, 1)
            client.sync()

            try performer.perform(keyAction(name), context: context(.pointer))
            let events = window.waitForEvents(4)
            #expect(lines(events) == ["press a", "release a", "press \(name)", "release \(name)"])
            #expect(events.count == 4 && events[2].detail == spare, "typed on their keycode \(spare)")
            #expect(performer.temporaryMappings.isEmpty, "nothing lent: the keysym was on the keyboard")
        }
    }

    /// A run killed while a keysym was lent a spare keycode (SIGKILL, a crash) left it mapped;
    /// the next run finds the loan on the root window and puts the keycode back, unless someone
    /// changed it since.
    @Test("keycodes a previous run lent and never restored are restored by the next run")
    func staleLentKeycodes() throws {
        try XServer.with { server in
            let client = try XClient(server.name)
            let before = client.keyboardMapping()
            let names = ["F35", "F34", "F33", "XF86Calculater", "XF86Launch9", "XF86Game"].filter { !before.keysyms.contains(keysym($0)) }
            try #require(names.count >= 2, "two unmapped candidate keysyms")
            // The run that dies: two loans, never restored.
            let killed = try makePerformer(server, hold: .seconds(300))
            try killed.perform(keyAction(names[0]), context: context(.pointer))
            try killed.perform(keyAction(names[1]), context: context(.pointer))
            let lent = changedKeycodes(before, client.keyboardMapping())
            #expect(lent.count == 2)
            let noted = client.longs("_GESTURE_BRIDGE_LENT_KEYCODES", of: client.root) ?? []
            #expect(Set(stride(from: 0, to: noted.count, by: 2).map { Int(noted[$0]) }) == Set(lent), "\(noted)")
            // Someone else maps another keysym on the second keycode meanwhile: that one is theirs.
            var theirs: [KeySym] = [keysym("XF86Eject"), 0]
            XChangeKeyboardMapping(client.display, Int32(lent.max()!), 2, &theirs, 1)
            client.sync()
            let owned = lent.max()!

            let next = try makePerformer(server)
            next.restoreStaleLentKeycodes()
            #expect(changedKeycodes(before, client.keyboardMapping()) == [owned], "only the keycode someone else changed stays changed")
            #expect(client.longs("_GESTURE_BRIDGE_LENT_KEYCODES", of: client.root) == nil)
            _ = killed
        }
    }

    @Test("a lent keycode is noted on the root window until it is restored")
    func lentKeycodesNoted() throws {
        try XServer.with { server in
            let client = try XClient(server.name)
            let before = client.keyboardMapping()
            let name = try #require(["XF86Calculater", "XF86Launch9", "XF86Game"].first { !before.keysyms.contains(keysym($0)) })
            let performer = try makePerformer(server, hold: .seconds(30))
            try performer.perform(keyAction(name), context: context(.pointer))
            let noted = client.longs("_GESTURE_BRIDGE_LENT_KEYCODES", of: client.root)
            #expect(noted?.count == 2 && noted?.last == keysym(name), "\(String(describing: noted))")
            performer.releaseEverything()
            #expect(client.longs("_GESTURE_BRIDGE_LENT_KEYCODES", of: client.root) == nil)
            #expect(changedKeycodes(before, client.keyboardMapping()) == [])
        }
    }

    @Test("releaseEverything leaves no key or button down")
    func releaseEverything() throws {
        try XServer.with { server in
            let client = try XClient(server.name)
            let performer = try makePerformer(server)
            try performer.hold(keysym: keysym("Control_L"))
            try performer.hold(keysym: keysym("b"))
            try performer.hold(button: 3)
            let control = try #require(client.keycode(ofUnshifted: keysym("Control_L")))
            let b = try #require(client.keycode(ofUnshifted: keysym("b")))
            #expect(poll { client.keysDown() == [control, b] && client.buttonsDown() == UInt32(Button3Mask) })
            #expect(performer.held == HeldInput(keys: [KeyCode(rawValue: control), KeyCode(rawValue: b)], buttons: [3]))

            let released = performer.releaseHeld()
            #expect(released.keys.count == 2 && released.buttons == [3])
            #expect(performer.held.isEmpty)
            #expect(client.keysDown().isEmpty)
            #expect(client.buttonsDown() == 0)
            performer.releaseEverything()   // nothing left: a no-op
            #expect(client.keysDown().isEmpty)
        }
    }
}

extension Action {
    /// Turns the config's modifier words (`ctrl`, `shift`) into their left-hand keysym names,
    /// as the config parser does.
    var withModifierNames: Action {
        guard case .key(let combo) = self else { return self }
        let words = ["ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L", "super": "Super_L", "meta": "Meta_L"]
        return .key(KeyCombo(keys: combo.keys.map { key in
            guard let name = words[key.name] else { return key }
            return KeyCombo.Key(name: name, keysym: UInt32(keysym(name)))
        }))
    }
}
