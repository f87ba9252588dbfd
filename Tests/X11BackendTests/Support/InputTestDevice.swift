import Foundation

/// A client of one xf86-input-inputtest device: real touch and touchpad input for a headless
/// Xorg, through the driver's socket (`Option "SocketPath"`).
///
/// The wire format is the driver's binary protocol (xorg-server's
/// `include/xf86-input-inputtest-protocol.h`, protocol 1.1): every message is a C struct in the
/// machine's byte order that starts with a header `{ uint32 length; uint32 type; }` whose length
/// is the whole struct's. The client sends `ClientVersion` and reads `ServerVersion`, then sends
/// events; `WaitForSync` is answered with `SyncFinished` once the server has processed every
/// event sent before it (``sync()``).
///
/// Traps (``XServer`` handles both): the driver accepts **one** connection per device for the
/// server's lifetime, and after that connection closes the server spins at 100% CPU. So the
/// connection is opened once, kept, and closed only after the server has been stopped: only
/// ``XServer`` creates and closes these.
///
/// ```swift
/// let touch = try server.touchscreen()
/// try touch.touch(.begin, id: 1, x: 400, y: 300)
/// try touch.touch(.end, id: 1, x: 400, y: 300)
/// try touch.sync()
/// ```
final class InputTestDevice {
    /// Touch event types (`touch_type`): the XI 2.2 event codes.
    enum TouchPhase: UInt32 {
        case begin = 18  // XI_TouchBegin
        case update = 19  // XI_TouchUpdate
        case end = 20  // XI_TouchEnd
    }

    /// Gesture phases; the wire carries the XI 2.4 event codes.
    enum GesturePhase {
        case begin, update, end

        var swipeType: UInt16 { [.begin: 30, .update: 31, .end: 32][self]! }  // XI_GestureSwipe*
        var pinchType: UInt16 { [.begin: 27, .update: 28, .end: 29][self]! }  // XI_GesturePinch*
    }

    /// Protocol message types (`enum xf86ITEventType`).
    private enum EventType: UInt32 {
        case clientVersion = 0, waitForSync, motion, proximity, button, key, touch, gesturePinch, gestureSwipe
    }

    /// Response types (`enum xf86ITResponseType`).
    private enum ResponseType: UInt32 { case serverVersion = 0, syncFinished }

    static let protocolMajor: UInt16 = 1
    static let protocolMinor: UInt16 = 1
    /// `XF86IT_MAX_VALUATORS`: the wire always carries this many valuators.
    private static let maxValuators = 64
    /// Size of `xf86ITValuatorData`: has_unaccelerated (4), mask (8), padding to 8 (4), then
    /// 64 valuators and 64 unaccelerated valuators as doubles.
    private static let valuatorDataSize = 16 + 2 * maxValuators * 8
    /// The driver's absolute axes span 0…`TOUCH_AXIS_MAX` (0xffff); the server maps that
    /// range onto the screen (0 → 0, 65535 → the width or height).
    static let axisMax = 65535.0

    let socketPath: String
    /// The screen the device's absolute range is mapped onto, for pixel positions.
    let screenWidth: Int, screenHeight: Int
    private(set) var serverVersion: (major: UInt16, minor: UInt16) = (0, 0)
    private var fd: Int32 = -1
    /// Longest wait for an answer from the driver.
    private let timeout: Duration

    /// Connects (retrying until the socket accepts, within `timeout`) and exchanges versions.
    init(socketPath: String, screenWidth: Int, screenHeight: Int, timeout: Duration = .seconds(5)) throws {
        self.socketPath = socketPath
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.timeout = timeout
        var lastError = "no attempt"
        let connected = poll(timeout: timeout) {
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard s >= 0 else { lastError = String(cString: strerror(errno)); return false }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(socketPath.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                lastError = "socket path too long"
                close(s)
                return true
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if status == 0 {
                fd = s
                return true
            }
            lastError = String(cString: strerror(errno))
            close(s)
            usleep(20_000)
            return false
        }
        guard connected, fd >= 0 else { throw HarnessError("inputtest: cannot connect to \(socketPath): \(lastError)") }

        var hello = Self.message(.clientVersion, size: 12)
        hello.put(UInt16(Self.protocolMajor), at: 8)
        hello.put(UInt16(Self.protocolMinor), at: 10)
        try send(hello)
        let answer = try receive(12)
        let type = answer.get(UInt32.self, at: 4)
        guard answer.get(UInt32.self, at: 0) == 12, type == ResponseType.serverVersion.rawValue else {
            throw HarnessError("inputtest \(socketPath): expected a server version, got type \(type)")
        }
        serverVersion = (answer.get(UInt16.self, at: 8), answer.get(UInt16.self, at: 10))
        // The driver disconnects a client newer than itself (and would then spin).
        guard serverVersion.major == Self.protocolMajor, serverVersion.minor >= Self.protocolMinor else {
            throw HarnessError("inputtest \(socketPath): the driver speaks protocol \(serverVersion.major).\(serverVersion.minor), this client needs \(Self.protocolMajor).\(Self.protocolMinor)")
        }
    }

    deinit { closeConnection() }

    /// Closes the connection. Only after the server has stopped (``XServer/stop()``): a server
    /// that loses its client spins.
    func closeConnection() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    // MARK: - Events

    /// A touch event at root pixel (`x`, `y`), mapped onto the device range (valuators 0 and 1;
    /// `pressure`, when given, is valuator 4 in 0…2047). `id` is the driver's touch slot id;
    /// reuse is fine once a touch has ended.
    func touch(_ phase: TouchPhase, id: UInt32, x: Double, y: Double, pressure: Double? = nil) throws {
        var m = Self.message(.touch, size: 16 + Self.valuatorDataSize)
        m.put(id, at: 8)
        m.put(phase.rawValue, at: 12)
        var valuators: [Int: Double] = [0: axis(x, screenWidth), 1: axis(y, screenHeight)]
        if let pressure { valuators[4] = pressure }
        Self.putValuators(valuators, into: &m, at: 16)
        try send(m)
    }

    /// A relative motion of a pointer device by (`dx`, `dy`) pixels.
    func move(dx: Double, dy: Double) throws {
        var m = Self.message(.motion, size: 16 + Self.valuatorDataSize)
        m.put(UInt32(0), at: 8)  // is_absolute
        Self.putValuators([0: dx, 1: dy], into: &m, at: 16)
        try send(m)
    }

    /// A button press or release of a pointer device, where the pointer is.
    func button(_ button: Int32, pressed: Bool) throws {
        var m = Self.message(.button, size: 24 + Self.valuatorDataSize)
        m.put(Int32(0), at: 8)  // is_absolute
        m.put(button, at: 12)
        m.put(UInt32(pressed ? 1 : 0), at: 16)
        Self.putValuators([:], into: &m, at: 24)
        try send(m)
    }

    /// A key press or release of a keyboard device (an X keycode, 8…255).
    func key(_ keycode: Int32, pressed: Bool) throws {
        var m = Self.message(.key, size: 16)
        m.put(keycode, at: 8)
        m.put(UInt32(pressed ? 1 : 0), at: 12)
        try send(m)
    }

    /// An XI 2.4 touchpad swipe event (PointerGesture devices): `fingers` touches, motion by
    /// (`dx`, `dy`) pixels since the previous event; `cancelled` on an end.
    func swipe(_ phase: GesturePhase, fingers: Int, dx: Double = 0, dy: Double = 0, cancelled: Bool = false) throws {
        var m = Self.message(.gestureSwipe, size: 48)
        m.put(phase.swipeType, at: 8)
        m.put(UInt16(fingers), at: 10)
        m.put(UInt32(cancelled ? 1 : 0), at: 12)  // XIGestureSwipeEventCancelled
        for (offset, value) in [(16, dx), (24, dy), (32, dx), (40, dy)] { m.put(value, at: offset) }
        try send(m)
    }

    /// An XI 2.4 touchpad pinch event: `scale` relative to the start, `angle` degrees since
    /// the previous event.
    func pinch(_ phase: GesturePhase, fingers: Int, dx: Double = 0, dy: Double = 0, scale: Double = 1, angle: Double = 0,
               cancelled: Bool = false) throws {
        var m = Self.message(.gesturePinch, size: 64)
        m.put(phase.pinchType, at: 8)
        m.put(UInt16(fingers), at: 10)
        m.put(UInt32(cancelled ? 1 : 0), at: 12)  // XIGesturePinchEventCancelled
        for (offset, value) in [(16, dx), (24, dy), (32, dx), (40, dy), (48, scale), (56, angle)] { m.put(value, at: offset) }
        try send(m)
    }

    /// Waits until the server has processed every event sent so far (`WaitForSync` →
    /// `SyncFinished`). Delivery to clients is not part of it: a client still reads its queue.
    func sync() throws {
        try send(Self.message(.waitForSync, size: 8))
        let answer = try receive(8)
        let type = answer.get(UInt32.self, at: 4)
        guard type == ResponseType.syncFinished.rawValue else {
            throw HarnessError("inputtest \(socketPath): expected SyncFinished, got type \(type)")
        }
    }

    // MARK: - Wire

    private func axis(_ pixels: Double, _ size: Int) -> Double {
        min(max(pixels / Double(size) * (Self.axisMax + 1), 0), Self.axisMax)
    }

    private static func message(_ type: EventType, size: Int) -> [UInt8] {
        var m = [UInt8](repeating: 0, count: size)
        m.put(UInt32(size), at: 0)
        m.put(type.rawValue, at: 4)
        return m
    }

    /// `xf86ITValuatorData` at `offset`: no unaccelerated values, the mask, then the values.
    private static func putValuators(_ values: [Int: Double], into m: inout [UInt8], at offset: Int) {
        for (axis, value) in values {
            m[offset + 4 + axis / 8] |= UInt8(1 << (axis % 8))
            m.put(value, at: offset + 16 + axis * 8)
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        guard fd >= 0 else { throw HarnessError("inputtest \(socketPath): not connected") }
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a server that died must fail the test, not kill it with SIGPIPE.
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw HarnessError("inputtest \(socketPath): write failed: \(String(cString: strerror(errno)))")
            }
            sent += n
        }
    }

    private func receive(_ count: Int) throws -> [UInt8] {
        guard fd >= 0 else { throw HarnessError("inputtest \(socketPath): not connected") }
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        let deadline = ContinuousClock.now + timeout
        while got < count {
            let left = deadline - .now
            guard left > .zero else { throw HarnessError("inputtest \(socketPath): no answer within \(timeout)") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, left / .milliseconds(1)))
            let ready = Glibc.poll(&p, 1, ms)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw HarnessError("inputtest \(socketPath): the driver closed the connection (\(n < 0 ? String(cString: strerror(errno)) : "EOF"))")
            }
            got += n
        }
        return buffer
    }
}

private extension Array where Element == UInt8 {
    mutating func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        Swift.withUnsafeBytes(of: value) { raw in
            for (k, byte) in raw.enumerated() { self[offset + k] = byte }
        }
    }

    mutating func put(_ value: Double, at offset: Int) {
        put(value.bitPattern, at: offset)
    }

    func get<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value = T.zero
        Swift.withUnsafeMutableBytes(of: &value) { raw in
            for k in 0..<raw.count { raw[k] = self[offset + k] }
        }
        return value
    }
}
