import CX11
import Testing
@testable import X11Backend

@Suite("the injection ledger")
struct InjectionLedgerTests {
    private let start = ContinuousClock.now

    @Test("each injected event is recognised once, by kind and detail")
    func matchesOnce() {
        let ledger = InjectionLedger()
        ledger.record(.buttonPress, detail: 3, at: start)
        ledger.record(.buttonRelease, detail: 3, at: start)
        #expect(!ledger.isOwnInjection(.buttonPress, detail: 1, at: start))       // another button: someone else's
        #expect(!ledger.isOwnInjection(.buttonRelease, detail: 4, at: start))
        #expect(ledger.isOwnInjection(.buttonPress, detail: 3, at: start))
        #expect(!ledger.isOwnInjection(.buttonPress, detail: 3, at: start))       // xdotool's identical click
        #expect(ledger.isOwnInjection(.buttonRelease, detail: 3, at: start))
        #expect(ledger.outstanding.isEmpty)
    }

    @Test("repeated injections are matched oldest first, motion by kind alone")
    func repeatedAndMotion() {
        let ledger = InjectionLedger()
        ledger.record(.motion, detail: 0, at: start)
        for _ in 0..<3 { ledger.record(.buttonPress, detail: 5, at: start) }
        #expect(ledger.isOwnInjection(.motion, detail: 42, at: start))
        #expect((0..<3).allSatisfy { _ in ledger.isOwnInjection(.buttonPress, detail: 5, at: start) })
        #expect(!ledger.isOwnInjection(.buttonPress, detail: 5, at: start))
    }

    @Test("entries expire after the lifetime")
    func expiry() {
        let ledger = InjectionLedger(lifetime: .milliseconds(500))
        ledger.record(.keyPress, detail: 38, at: start)
        ledger.record(.keyPress, detail: 39, at: start + .milliseconds(400))
        #expect(!ledger.isOwnInjection(.keyPress, detail: 38, at: start + .milliseconds(600)))
        #expect(ledger.outstanding.map(\.detail) == [39])
        #expect(ledger.isOwnInjection(.keyPress, detail: 39, at: start + .milliseconds(800)))
    }
}

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
}

@Suite("the injection ledger against real XTest events")
struct InjectionLedgerXTestTests {
    /// Raw button events (`XI_RawButtonPress`/`Release`) from every device, as a capture layer
    /// would select them, read through the display chokepoint.
    private final class RawButtonObserver {
        let display: X11Display
        private(set) var events: [(kind: InjectionLedger.EventKind, button: Int, deviceID: Int, sourceID: Int)] = []

        init(_ name: String) throws {
            display = try X11Display(name: name)
            let root = display.root
            try display.call("XISelectEvents(raw buttons)", sync: true) { handle in
                var bits = [UInt8](repeating: 0, count: Int(XI_LASTEVENT) / 8 + 1)
                for event in [XI_RawButtonPress, XI_RawButtonRelease] { bits[Int(event) / 8] |= 1 << (UInt8(event) % 8) }
                bits.withUnsafeMutableBufferPointer { buffer in
                    var mask = XIEventMask(deviceid: XIAllDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
                    _ = XISelectEvents(handle, root.rawValue, &mask, 1)
                }
            }
        }

        func pump() {
            while var event = display.nextEvent() {
                _ = try? display.withEventData(&event) { (cookie) throws(X11Error) in
                    let type = cookie.pointee.evtype
                    guard type == XI_RawButtonPress || type == XI_RawButtonRelease, let data = cookie.pointee.data else { return }
                    let raw = data.assumingMemoryBound(to: XIRawEvent.self).pointee
                    events.append((type == XI_RawButtonPress ? .buttonPress : .buttonRelease, Int(raw.detail), Int(raw.deviceid), Int(raw.sourceid)))
                }
            }
        }
    }

    @Test("the performer's own click is recognised, an xdotool click of the same button is not")
    func ownVersusXdotool() throws {
        try XServer.with { server in
            let observer = try RawButtonObserver(server.name)
            let xtestPointer = try #require(observer.display.listDevices().first { $0.isXTest && $0.use == .slavePointer })
            let performer = try makePerformer(server)

            try performer.perform(.click(button: 3), context: context(.pointer))
            let xdotool = try ChildProcess(["xdotool", "click", "3"], environment: ["DISPLAY": server.name, "PATH": "/usr/bin:/bin"], log: "/dev/null")
            #expect(poll { !xdotool.isRunning })
            #expect(poll {
                observer.pump()
                return observer.events.count >= 8
            })
            // Raw events selected for XIAllDevices come twice, from the slave and from its master:
            // one stream is asked about, the slave's (deviceid == sourceid).
            try #require(observer.events.count == 8)
            let slaveStream = observer.events.filter { $0.deviceID == $0.sourceID }
            try #require(slaveStream.count == 4)
            // Both clicks come from the same XTEST device: only the ledger tells them apart.
            #expect(slaveStream.allSatisfy { $0.sourceID == xtestPointer.id && $0.button == 3 })
            let own = slaveStream.map { performer.ledger.isOwnInjection($0.kind, detail: $0.button) }
            #expect(own == [true, true, false, false])
        }
    }
}
