import CX11
import Foundation
import GestureTestKit
import Testing
@testable import X11Backend

@Suite("The display chokepoint")
struct DisplayTests {
    @Test("a display where no server answers is named in one clear sentence")
    func unreachableDisplay() throws {
        let number = try #require((4000..<4100).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
        let error = #expect(throws: X11Error.self) { try X11Display(name: ":\(number)") }
        #expect(error == .cannotOpenDisplay(":\(number)"))
        #expect(error?.description == "Cannot open X display \":\(number)\": no X server answers there (is it running, and is DISPLAY right?).")
    }

    @Test("a display that accepts the connection but never answers is given up after the timeout")
    func silentDisplay() throws {
        let silent = try #require(SilentXSocket())
        let started = ContinuousClock.now
        let error = #expect(throws: X11Error.self) { try X11Display(name: silent.displayName, connectTimeout: .milliseconds(300)) }
        #expect(error == .notAnswering(silent.displayName, timeout: .milliseconds(300)))
        #expect(error?.description.contains("did not answer within 0.3 s") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(10))
        withExtendedLifetime(silent) {}
    }

    @Test("the connect timeout comes from GESTURE_BRIDGE_CONNECT_TIMEOUT, in seconds, when it is sensible")
    func connectTimeoutSetting() {
        #expect(X11Display.connectTimeout(fromEnvironment: nil) == .seconds(10))
        #expect(X11Display.connectTimeout(fromEnvironment: "2.5") == .milliseconds(2500))
        for bad in ["", "0", "-1", "nan", "inf", "soon"] {
            #expect(X11Display.connectTimeout(fromEnvironment: bad) == .seconds(10), "\(bad)")
        }
    }

    @Test("a malformed display name is reported the same way")
    func malformedDisplay() {
        let error = #expect(throws: X11Error.self) { try X11Display(name: "not a display") }
        #expect(error == .cannotOpenDisplay("not a display"))
    }

    @Test("without a name and without DISPLAY, the error says to set DISPLAY")
    func noDisplay() {
        let error = #expect(throws: X11Error.self) { try X11Display.resolveName(explicit: nil, environment: nil) }
        #expect(error == .noDisplayName)
        #expect(error?.description.contains("DISPLAY is not set") == true)
        #expect(throws: X11Error.noDisplayName) { try X11Display.resolveName(explicit: "", environment: "") }
        #expect((try? X11Display.resolveName(explicit: ":3", environment: ":0")) == ":3")
        #expect((try? X11Display.resolveName(explicit: nil, environment: ":0")) == ":0")
    }

    @Test("XInput is negotiated once, at the 2.4 asked for, on Xvfb")
    func xinputVersion() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            #expect(display.name == server.name)
            #expect(display.xinputVersion == XInputVersion(major: 2, minor: 4))
            #expect(display.xinputOpcode > 0)
            #expect(display.rootSize == (width: 1280, height: 800))
            #expect(display.connectionFileDescriptor >= 0)
        }
    }

    @Test("an X error becomes a typed error naming the request and the resource")
    func protocolErrorIsTyped() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            let bogus = WindowID(rawValue: 0x1fff_fff0)
            let error = #expect(throws: X11Error.self) { try display.property(.netActiveWindow, of: bogus) }
            let protocolError = try #require(error?.protocolError)
            #expect(protocolError.code == .badWindow)
            #expect(protocolError.resource == bogus.rawValue)
            #expect(protocolError.operation == "XGetWindowProperty(_NET_ACTIVE_WINDOW)")
            #expect(error?.description.hasPrefix("X error on \(server.name): BadWindow") == true)
            // The connection is still usable afterwards.
            #expect(try display.windowProperty(.netActiveWindow, of: display.root) == nil)
        }
    }

    @Test("a flush sends what was asked since the last one; one with nothing asked since sends nothing, and the next request still goes")
    func flushSendsWhatWasAsked() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            let watcher = try X11Display(name: server.name)
            let name = AtomName("GB_FLUSH_TEST")
            let atom = try display.atom(name)
            let cardinal = try display.atom(.cardinal)
            let root = display.root.rawValue
            func ask(_ value: Int) throws {
                try display.call("XChangeProperty(GB_FLUSH_TEST)") { handle in
                    var item = CLong(value)
                    withUnsafeMutableBytes(of: &item) { bytes in
                        _ = XChangeProperty(handle, root, atom, cardinal, 32, PropModeReplace, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
                    }
                }
            }
            func watcherSees(_ value: UInt, within limit: Duration = .seconds(5)) -> Bool {
                let deadline = ContinuousClock.now + limit
                repeat {
                    if (try? watcher.cardinal(name, of: watcher.root)) == value { return true }
                    Thread.sleep(forTimeInterval: 0.01)
                } while ContinuousClock.now < deadline
                return false
            }
            try ask(1)
            display.flush()
            #expect(watcherSees(1))
            // Nothing asked since: these send nothing (and read nothing).
            display.flush()
            display.flush()
            try ask(2)
            // Not flushed yet, the request waits in Xlib's buffer.
            #expect(!watcherSees(2, within: .milliseconds(300)))
            display.flush()
            #expect(watcherSees(2))
        }
    }

    @Test("nextQueuedEvent reads nothing: an event on the socket waits for readArrived, which reads it once")
    func queuedEventsOnly() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            let other = try X11Display(name: server.name)
            let root = display.root.rawValue
            try display.call("XSelectInput(root, PropertyChangeMask)", sync: true) { _ = XSelectInput($0, root, PropertyChangeMask) }
            try other.setCardinals(AtomName("GB_QUEUED_TEST"), of: other.root, to: [7])
            // The server has written the PropertyNotify to the socket; nothing read it yet.
            var socket = pollfd(fd: display.connectionFileDescriptor, events: Int16(POLLIN), revents: 0)
            #expect(poll(&socket, 1, 5000) == 1)
            #expect(display.nextQueuedEvent() == nil)
            #expect(!display.hasQueuedEvents)
            display.readArrived()
            #expect(display.nextQueuedEvent()?.type == PropertyNotify)
            #expect(display.nextQueuedEvent() == nil)
        }
    }

    @Test("an error of a request sent without waiting surfaces later, still named")
    func asynchronousError() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            try display.call("XMapWindow(bogus)") { XMapWindow($0, 0x1fff_fff0) }
            let error = #expect(throws: X11Error.self) { try display.sync() }
            #expect(error?.protocolError?.code == .badWindow)
            #expect(error?.protocolError?.operation == "XMapWindow(bogus)")
            #expect(display.takeAsynchronousErrors().isEmpty)
        }
    }

    @Test("an error that arrives while nothing waits is handed over once, as often as errors come")
    func asynchronousErrorsTaken() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            #expect(display.takeAsynchronousErrors().isEmpty)
            for _ in 0..<2 {
                // As the daemon meets them: sent and flushed, read with the next events (or by
                // the flush itself, which also reads when the answer is quick).
                try display.call("XMapWindow(bogus)") { XMapWindow($0, 0x1fff_fff0) }
                display.flush()
                var taken: [XProtocolError] = []
                for _ in 0..<500 where taken.isEmpty {
                    var socket = pollfd(fd: display.connectionFileDescriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&socket, 1, 10)
                    display.readArrived()
                    taken = display.takeAsynchronousErrors()
                }
                #expect(taken.map(\.code) == [.badWindow])
                #expect(display.takeAsynchronousErrors().isEmpty)
            }
        }
    }

    @Test("an error inside a checked span fails that span, not the next call")
    func nestedSpan() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            let error = #expect(throws: X11Error.self) {
                try display.call("outer action", sync: true) { (_) throws(X11Error) in
                    try display.call("XMapWindow(bogus)") { XMapWindow($0, 0x1fff_fff0) }
                    _ = try display.atom(.netCurrentDesktop)   // a reply-waiting call in between
                }
            }
            #expect(error?.protocolError?.operation == "XMapWindow(bogus)")
            try display.sync()
        }
    }

    @Test("losing the server runs the hook once, and later calls say the connection is lost")
    func connectionLost() throws {
        try XServer.with { server in
            let display = try X11Display(name: server.name)
            var reported: [X11Error] = []
            display.onConnectionLost { reported.append($0) }
            server.kill()
            let error = #expect(throws: X11Error.self) { try display.sync() }
            #expect(error == .connectionLost(display: server.name))
            #expect(reported == [.connectionLost(display: server.name)])
            #expect(display.isConnectionLost)
            #expect(display.pendingEventCount == 0)
            #expect(throws: X11Error.connectionLost(display: server.name)) { try display.atom(.netActiveWindow) }
            #expect(reported.count == 1)
            #expect(error?.description == "Lost the connection to X display \(server.name).")
        }
    }
}
