import Testing
@testable import X11Backend

@Suite("the keyboard mapping")
struct KeyboardMappingTests {
    /// Keycodes 8…12, two columns: `a A`, `1 exclam`, nothing, `Shift_L`, nothing.
    private let mapping = KeyboardMapping(minKeycode: 8, keysymsPerKeycode: 2, keysyms: [
        0x61, 0x41,
        0x31, 0x21,
        0, 0,
        0xffe1, 0,
        0, 0,
    ])

    @Test("an unshifted keysym needs no Shift, a shifted one does, an absent one is not found")
    func locate() {
        #expect(mapping.locate(0x61)! == (KeyCode(rawValue: 8), false))
        #expect(mapping.locate(0x21)! == (KeyCode(rawValue: 9), true))
        #expect(mapping.locate(0xffe1)! == (KeyCode(rawValue: 11), false))
        #expect(mapping.locate(0x1008ff1d) == nil)
        #expect(mapping.locate(0) == nil)
    }

    @Test("spare keycodes are the empty ones, highest first")
    func spares() {
        #expect(mapping.spareKeycodes() == [KeyCode(rawValue: 12), KeyCode(rawValue: 10)])
        #expect(mapping.keycodes == 8...12)
        #expect(Array(mapping.keysyms(of: KeyCode(rawValue: 9))) == [0x31, 0x21])
        #expect(mapping.keysyms(of: KeyCode(rawValue: 200)).isEmpty)
    }

    @Test("only the first two columns count: a keysym reachable only through AltGr is treated as unmapped")
    func otherGroups() {
        let wide = KeyboardMapping(minKeycode: 8, keysymsPerKeycode: 4, keysyms: [0x61, 0x41, 0x3b1, 0x391])
        #expect(wide.locate(0x3b1) == nil)
    }

    @Test("a keysym on several keycodes is found where a scan would find it: the lowest keycode in column 0, else the lowest in column 1")
    func precedence() {
        // 8: `b a`, 9: `a A`, 10: `c b`, 11: `a c`
        let twice = KeyboardMapping(minKeycode: 8, keysymsPerKeycode: 2, keysyms: [0x62, 0x61, 0x61, 0x41, 0x63, 0x62, 0x61, 0x63])
        #expect(twice.locate(0x61)! == (KeyCode(rawValue: 9), false))
        #expect(twice.locate(0x62)! == (KeyCode(rawValue: 8), false))
        #expect(twice.locate(0x63)! == (KeyCode(rawValue: 10), false))
        #expect(twice.locate(0x41)! == (KeyCode(rawValue: 9), true))
    }

    @Test("a keycode given other keysyms is found by them, and no longer by its old ones")
    func replaced() {
        var changed = mapping
        changed.replace(KeyCode(rawValue: 12), with: [0x1008ff1d, 0x1008ff1d])
        #expect(changed.locate(0x1008ff1d)! == (KeyCode(rawValue: 12), false))
        changed.replace(KeyCode(rawValue: 8), with: [0, 0])
        #expect(changed.locate(0x61) == nil)
        #expect(changed.spareKeycodes() == [KeyCode(rawValue: 10), KeyCode(rawValue: 8)])
        #expect(changed != mapping)
    }
}
