internal import CX11
import Glibc
import Synchronization

/// An X window id.
public struct WindowID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// X's `None`: no window.
    public static let none = WindowID(rawValue: 0)

    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// The connection to one X display, and the single chokepoint every X call of gesture-bridge
/// goes through.
///
/// Opening it resolves the display name, connects, routes X protocol errors into typed
/// ``X11Error`` values (libX11's default handler would print and exit), installs a connection-lost
/// hook, and negotiates XInput 2 (asks for 2.4, once; anything below 2.2 is an error). Atoms are
/// interned once and cached.
///
/// Every request goes through ``call(_:sync:_:)``: it refuses to touch a lost connection, names
/// the operation, and — with `sync: true`, or for requests that wait for a reply — turns an X
/// error caused by that request into a thrown ``X11Error/request(_:display:)``. Errors of earlier
/// requests that were sent without waiting surface later through ``takeAsynchronousErrors()``.
///
/// ## Event loop (for the daemon and the capture layer)
/// - `poll()` on ``connectionFileDescriptor`` for `POLLIN`.
/// - Before every `poll()`, and after it wakes, drain ``pendingEventCount`` with
///   ``nextEvent()`` (or, as the capture does, ``nextQueuedEvent()`` until the queue is empty,
///   ``readArrived()`` once, and the queue again): any Xlib call that reads a reply (including
///   the performer's `XSync`) can move events from the socket into Xlib's queue, where `poll()`
///   no longer sees them (``hasQueuedEvents``).
/// - XInput 2 events arrive as `GenericEvent` cookies; ``withEventData(_:_:)`` fetches and frees
///   their data (it checks the extension opcode against ``xinputOpcode``).
/// - When the server goes away, libX11 calls the connection-lost hook from inside whatever call
///   noticed it; afterwards ``isConnectionLost`` is true and every call throws
///   ``X11Error/connectionLost(display:)`` without touching Xlib.
///
/// The class is not thread-safe: use it from one thread (the daemon loop).
///
/// ```swift
/// let display = try X11Display()                 // $DISPLAY
/// display.onConnectionLost { error in
///     performer.releaseEverything()
///     log.critical("\(error)")
///     exit(1)
/// }
/// print(display.name, display.xinputVersion)     // ":0 2.4"
/// ```
public final class X11Display {
    /// The display name as opened (`:0`, `localhost:10.0`).
    public let name: String
    /// The XInput version both sides agreed on (the server's, capped at the 2.4 asked for).
    public let xinputVersion: XInputVersion
    /// XInput's major opcode: the `extension` field of its generic events.
    public let xinputOpcode: Int32

    /// The Xlib `Display*`. Only ``call(_:sync:_:)`` and the event helpers hand it out.
    private let handle: OpaquePointer
    /// The default screen's root window.
    public let root: WindowID
    /// The default screen number.
    let screen: Int32

    private let connection: ConnectionState
    private var atoms: [String: Atom] = [:]
    /// The modifier map last read, and ``keyboardMappingChanges`` then (``currentModifierMap()``).
    var cachedModifierMap: (map: ModifierMap, changes: Int)?
    private var operations = OperationLog()
    /// Errors recorded but not yet thrown by a call in progress, nor declared asynchronous.
    private var unclaimed: [XProtocolError] = []
    /// Errors that belong to no call; handed out by ``takeAsynchronousErrors()``.
    private var asynchronousErrors: [XProtocolError] = []
    /// The first serials of the calls in progress, outermost first.
    private var openSpans: [UInt] = []

    /// Opens the display named `name`, or `$DISPLAY` when `name` is `nil`.
    ///
    /// - Parameters:
    ///   - name: the display; nil for `$DISPLAY`.
    ///   - connectTimeout: how long connecting may take; nil for
    ///     `$GESTURE_BRIDGE_CONNECT_TIMEOUT` or ``defaultConnectTimeout``.
    /// - Throws: ``X11Error/noDisplayName`` without a name and without `$DISPLAY`;
    ///   ``X11Error/cannotOpenDisplay(_:)`` when nothing answers;
    ///   ``X11Error/notAnswering(_:timeout:)`` when something accepts the connection but does
    ///   not answer in time;
    ///   ``X11Error/missingExtension(_:display:)`` or ``X11Error/xinputTooOld(server:required:display:)``
    ///   when XInput 2.2 is not available.
    public init(name: String? = nil, connectTimeout: Duration? = nil) throws(X11Error) {
        let environment = getenv("DISPLAY").map { String(cString: $0) }
        let resolved = try Self.resolveName(explicit: name, environment: environment)
        let timeout = connectTimeout ?? Self.connectTimeout(fromEnvironment: getenv(Self.connectTimeoutVariable).map { String(cString: $0) })
        // As a bit pattern: a pointer made outside the lock's closure could not be sent out of it.
        let opened = UInt(bitPattern: try Self.openConnection(resolved, timeout: timeout))
        let (handle, connection, opcode, version) = try Self.lifecycle.withLock {
            (_) throws(X11Error) -> (OpaquePointer, ConnectionState, Int32, XInputVersion) in
            let handle = OpaquePointer(bitPattern: opened)!
            XErrorRouter.register(handle)
            // From here on a broken connection marks the state instead of exiting the process.
            let connection = ConnectionState(name: String(cString: XDisplayString(handle)))
            XSetIOErrorExitHandler(handle, { _, data in
                guard let data else { return }
                Unmanaged<ConnectionState>.fromOpaque(data).takeUnretainedValue().markLost()
            }, Unmanaged.passUnretained(connection).toOpaque())
            do throws(X11Error) {
                let (opcode, version) = try Self.negotiateXInput(handle, display: connection.name)
                return (handle, connection, opcode, version)
            } catch {
                XErrorRouter.unregister(handle)
                XCloseDisplay(handle)
                throw error
            }
        }
        self.handle = handle
        self.connection = connection
        self.name = connection.name
        self.xinputOpcode = opcode
        self.xinputVersion = version
        self.screen = XDefaultScreen(handle)
        self.root = WindowID(rawValue: UInt(XRootWindow(handle, screen)))
        Self.openConnections.withLock { $0[opened] = XConnectionNumber(handle) }
    }

    deinit {
        // Before the descriptor is closed: a give-up never shuts down a number reused since.
        _ = Self.openConnections.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))) }
        XErrorRouter.unregister(handle)
        // Safe on a lost connection too: libX11 >= 1.7 only frees memory then.
        Self.lifecycle.withLock { _ in _ = XCloseDisplay(handle) }
    }

    /// Serializes opening (with the first XInput call) and closing displays across threads.
    ///
    /// libXi keeps one process-wide record of the displays it knows and frees it, without a
    /// lock, when its last display closes (`XInputClose`); a display opened on another thread
    /// at that moment crashes in `XextAddDisplay`. One thread (the daemon) never races, but
    /// parallel tests do.
    private static let lifecycle = Mutex(())

    /// The socket of every open display, by its `Display*` (for ``giveUpEveryConnection()``).
    private static let openConnections = Mutex<[UInt: Int32]>([:])
    private static let givenUp = Atomic<Bool>(false)

    /// Shuts down the socket of every display the process has open, from any thread: an Xlib
    /// call waiting for a server that does not answer (a stopped or wedged server) returns at
    /// once, the connection lost (``isConnectionLost``), and no later call waits. For a stop
    /// that must not wait for the server: the server drops the client's grabs when it reads
    /// the end of the connection, and what the client held through XTest is the watcher's to
    /// release (``HeldKeyWatch``).
    ///
    /// No Xlib call is made here (Xlib is not thread-safe): `shutdown(2)` only, which the
    /// thread blocked in Xlib sees as the end of the connection.
    public static func giveUpEveryConnection() {
        givenUp.store(true, ordering: .sequentiallyConsistent)
        openConnections.withLock { connections in
            for descriptor in connections.values { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Whether ``giveUpEveryConnection()`` ran: a connection lost since was given up, not lost.
    public static var connectionsGivenUp: Bool { givenUp.load(ordering: .sequentiallyConsistent) }

    /// Closes a display that ``openConnection(_:timeout:)`` opened after its caller gave up.
    static func closeAbandoned(_ handle: OpaquePointer) {
        lifecycle.withLock { _ in _ = XCloseDisplay(handle) }
    }

    /// The display to open: an explicit non-empty name wins, then `$DISPLAY`.
    static func resolveName(explicit: String?, environment: String?) throws(X11Error) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let environment, !environment.isEmpty { return environment }
        throw .noDisplayName
    }

    private static func negotiateXInput(_ handle: OpaquePointer, display: String) throws(X11Error) -> (Int32, XInputVersion) {
        var opcode: Int32 = 0, firstEvent: Int32 = 0, firstError: Int32 = 0
        guard XQueryExtension(handle, "XInputExtension", &opcode, &firstEvent, &firstError) != 0 else {
            throw .missingExtension("XInputExtension", display: display)
        }
        // Asked once: a second XIQueryVersion with a lower version on the same connection is BadValue.
        var major = Int32(XInputVersion.requested.major), minor = Int32(XInputVersion.requested.minor)
        let status = XIQueryVersion(handle, &major, &minor)
        let version = XInputVersion(major: Int(major), minor: Int(minor))
        guard status == Success, version >= .minimum else {
            throw .xinputTooOld(server: version, required: .minimum, display: display)
        }
        return (opcode, version)
    }

    // MARK: - Connection

    /// The connection's socket, for `poll()`.
    public var connectionFileDescriptor: Int32 { XConnectionNumber(handle) }

    /// True once libX11 reported the connection broken; no X call is made after that.
    public var isConnectionLost: Bool { connection.lost }

    /// Sets the hook libX11 runs (through `XSetIOErrorExitHandler`) when the connection breaks.
    ///
    /// The hook runs inside the Xlib call that noticed the loss. It may release what the daemon
    /// holds that is not on this connection, log, and `exit(1)`; the error it gets names the
    /// display. If it returns, the display stays usable as an object: ``isConnectionLost`` is
    /// true and every later call throws ``X11Error/connectionLost(display:)``.
    public func onConnectionLost(_ hook: @escaping (X11Error) -> Void) {
        connection.hook = hook
    }

    /// Sends buffered requests to the server without waiting; does nothing when no request was
    /// made since the last flush.
    ///
    /// Xlib's `XFlush` also reads the socket for events (`_XEventsQueued`: two `recvmsg` that
    /// find nothing, on a turn that has just read everything). The loop flushes at the end of
    /// every turn, most of which (the motions of a drag) make no request. Every request made,
    /// through Xlib or an extension of it, takes the next request number, so an unchanged
    /// number means an empty buffer.
    public func flush() {
        guard !connection.lost else { return }
        let next = UInt(XNextRequest(handle))
        guard next != nextRequestAtFlush else { return }
        XFlush(handle)
        nextRequestAtFlush = next
    }

    /// ``flush()``'s request number when it last sent: 0 before the first.
    private var nextRequestAtFlush: UInt = 0

    /// Presses `keycodes` through XTest and sends them at once, after `noting` ran (the
    /// requests are in Xlib's buffer then, not on their way: what is written down there, the
    /// server cannot have seen yet), with a round trip behind them in the same write; returns
    /// when the server has answered it, and so has handed the keys on. Returns false, having
    /// done nothing, once the connection is lost.
    ///
    /// The shortest way to a key, for one typed ahead (``X11ActionPerformer/typeAhead(_:)``):
    /// no ``call(_:sync:_:)`` is opened. An error, which a keycode of the keyboard's own mapping
    /// does not cause, is still named, by a fixed name noted once the requests left: errors
    /// are named when this thread collects them, and noting it first was 2–3 µs before the
    /// key, cold (docs/performance.md, «Keys typed ahead of the pipeline»).
    ///
    /// The wait takes the daemon off the core as soon as the keys are written. The server,
    /// woken by them on this core, runs at once and is alone there when it hands the key on,
    /// so the kernel puts the application it wakes on that core too; a daemon still running
    /// (or yielding, and so still runnable) sent the application to the other core, whose
    /// wake-up took 30–45 µs more (docs/performance.md, «After the key: off the core until the
    /// server has handed it on»). Events read while waiting stay in Xlib's queue
    /// (``hasQueuedEvents``).
    func pressKeys(_ keycodes: [KeyCode], noting: () -> Void) -> Bool {
        guard !connection.lost else { return false }
        let first = UInt(XNextRequest(handle))
        for keycode in keycodes { XTestFakeKeyEvent(handle, UInt32(keycode.rawValue), 1, 0) }
        noting()
        // GetInputFocus, written with the presses, then its reply awaited.
        XSync(handle, 0)
        nextRequestAtFlush = UInt(XNextRequest(handle))
        operations.remember({ "a key typed ahead of its gesture's action" }, firstSerial: first)
        return true
    }

    /// Waits until the server has processed every request sent so far.
    ///
    /// - Throws: the first X error not yet reported of any request sent so far, or
    ///   ``X11Error/connectionLost(display:)``.
    public func sync() throws(X11Error) {
        try call("XSync", sync: true) { _ in }
        if let first = takeAsynchronousErrors().first { throw .request(first, display: name) }
    }

    /// X errors of requests that were sent without waiting and belong to no call in progress,
    /// oldest first; the list is emptied.
    ///
    /// The daemon logs these after each loop iteration.
    public func takeAsynchronousErrors() -> [XProtocolError] {
        // Asked at every turn of the daemon's loop: nothing to collect, nothing to hand over.
        guard XErrorRouter.hasUntaken || !unclaimed.isEmpty || !asynchronousErrors.isEmpty else { return [] }
        collectErrors()
        if openSpans.isEmpty {
            asynchronousErrors += unclaimed
            unclaimed.removeAll()
        }
        defer { asynchronousErrors.removeAll() }
        return asynchronousErrors
    }

    /// The root window's size in pixels, for edge gestures, as Xlib knows it (Xlib updates it
    /// only when a RandR-aware client processes the screen change; the capture layer tracks
    /// `ConfigureNotify` on the root for that).
    public var rootSize: (width: Int, height: Int) {
        (Int(XDisplayWidth(handle, screen)), Int(XDisplayHeight(handle, screen)))
    }

    // MARK: - The chokepoint

    /// Runs one X operation against the display and turns its failure into a typed error.
    ///
    /// Calls nest: an action can run as one outer call (`sync: true`) made of inner calls, and
    /// an error of an inner request sent without waiting is then reported by the outer call.
    ///
    /// - Parameters:
    ///   - operation: The name X errors are reported under (`XIGrabButton`, `key ctrl+a`);
    ///     built only when an error needs it (formatting a name on every call would sit between
    ///     a gesture and its injection).
    ///   - sync: `true` to `XSync` after `body`, so that an error of a request without a reply
    ///     is detected now. Requests that wait for a reply report their error either way.
    ///   - body: The Xlib calls, given the `Display*`.
    /// - Throws: ``X11Error/request(_:display:)`` with the first error caused by a request sent
    ///   during `body`; ``X11Error/connectionLost(display:)``; whatever `body` throws.
    @discardableResult
    func call<Result>(
        _ operation: @autoclosure @escaping () -> String, sync: Bool = false,
        _ body: (OpaquePointer) throws(X11Error) -> Result
    ) throws(X11Error) -> Result {
        guard !connection.lost else { throw .connectionLost(display: name) }
        let firstSerial = UInt(XNextRequest(handle))
        operations.remember(operation, firstSerial: firstSerial)
        openSpans.append(firstSerial)
        defer { openSpans.removeLast() }
        let result = try body(handle)
        if sync, !connection.lost { XSync(handle, 0) }
        guard !connection.lost else { throw .connectionLost(display: name) }
        collectErrors()
        // Errors of this call's requests: the first is thrown, the rest only logged.
        let own = unclaimed.filter { $0.serial >= firstSerial }
        unclaimed.removeAll { $0.serial >= firstSerial }
        asynchronousErrors += own.dropFirst()
        // Errors older than every call in progress belong to nobody waiting: asynchronous.
        let outermost = openSpans.first ?? firstSerial
        asynchronousErrors += unclaimed.filter { $0.serial < outermost }
        unclaimed.removeAll { $0.serial < outermost }
        if asynchronousErrors.count > 64 { asynchronousErrors.removeFirst(asynchronousErrors.count - 64) }
        if let error = own.first { throw .request(error, display: name) }
        return result
    }

    /// Sends requests as part of the ``call(_:sync:_:)`` in progress, which reports their
    /// errors under its own name: for requests on the way to an injection, where even naming
    /// a call of their own is time the user waits.
    func withinCall(_ body: (OpaquePointer) -> Void) throws(X11Error) {
        precondition(!openSpans.isEmpty, "withinCall outside a call")
        guard !connection.lost else { throw .connectionLost(display: name) }
        body(handle)
    }

    /// Moves the errors the router recorded into ``unclaimed``, naming their operation.
    private func collectErrors() {
        for var error in XErrorRouter.take(handle) {
            error.operation = operations.operation(for: error.serial)
            unclaimed.append(error)
        }
    }

    // MARK: - Atoms

    /// The atom for `name`, interned on first use and cached.
    func atom(_ name: AtomName) throws(X11Error) -> Atom {
        if let cached = atoms[name.rawValue] { return cached }
        let atom = try call("XInternAtom(\(name.rawValue))") { XInternAtom($0, name.rawValue, 0) }
        guard atom != 0 else { throw .failed("XInternAtom(\(name.rawValue)) returned None", display: self.name) }
        atoms[name.rawValue] = atom
        return atom
    }

    /// The name of `atom` (`XGetAtomName`), or `nil` for an unknown atom.
    func atomName(_ atom: Atom) throws(X11Error) -> String? {
        guard atom != 0 else { return nil }
        let pointer = try call("XGetAtomName") { XGetAtomName($0, atom) }
        guard let pointer else { return nil }
        defer { XFree(pointer) }
        return String(cString: pointer)
    }

    // MARK: - Events

    /// Whether events wait in Xlib's queue: read from the socket already (by a round trip's
    /// wait for its reply), so that `poll` on the socket cannot see them. Reads nothing.
    public var hasQueuedEvents: Bool {
        !connection.lost && XEventsQueued(handle, QueuedAlready) > 0
    }

    /// How many events are waiting, in Xlib's queue or on the socket (`XPending`: flushes
    /// output, reads without blocking). 0 on a lost connection.
    public var pendingEventCount: Int {
        guard !connection.lost else { return 0 }
        return Int(XPending(handle))
    }

    /// The next queued event, or `nil` when none is waiting; never blocks. Reads the socket
    /// whenever Xlib's queue is empty, so the `nil` that ends a loop over it costs two reads
    /// that find nothing.
    func nextEvent() -> XEvent? {
        guard !connection.lost, XPending(handle) > 0 else { return nil }
        return takeQueuedEvent()
    }

    /// Reads what the server has sent so far into Xlib's queue, without waiting: a read that
    /// finds it and one that finds nothing more (the floor's two). Xlib reads only when its
    /// queue is empty: take what is queued first (``nextQueuedEvent()``). How the capture
    /// drains a turn; ``nextEvent()``'s loop read the socket twice more to end
    /// (docs/performance.md, «Quiet turns: one read»).
    func readArrived() {
        guard !connection.lost else { return }
        _ = XEventsQueued(handle, QueuedAfterReading)
    }

    /// The next event already in Xlib's queue, or `nil`; reads nothing. What arrives on the
    /// socket meanwhile waits for the loop's `poll`, which sees it.
    func nextQueuedEvent() -> XEvent? {
        guard hasQueuedEvents else { return nil }
        return takeQueuedEvent()
    }

    private func takeQueuedEvent() -> XEvent {
        var event = XEvent()
        XNextEvent(handle, &event)
        if Self.isKeyboardMappingChange(event, xkbEventBase: xkbEventBase) { keyboardMappingChanges &+= 1 }
        return event
    }

    /// Asks to be told of keyboard mapping changes: XKB's map and new-keyboard notifications
    /// (a `setxkbmap` sends the latter). A plain Xlib connection is sent no `MappingNotify` for
    /// another client's change (measured on Xvfb 21.1); once it selects these, it gets them and
    /// the core `MappingNotify` too.
    func followKeyboardMapping() {
        _ = try? call("XkbSelectEvents") { (handle) -> Void in
            var opcode: Int32 = 0, eventBase: Int32 = 0, errorBase: Int32 = 0
            var major = Int32(XkbMajorVersion), minor = Int32(XkbMinorVersion)
            guard XkbQueryExtension(handle, &opcode, &eventBase, &errorBase, &major, &minor) != 0 else { return }
            let mask = UInt32(XkbMapNotifyMask | XkbNewKeyboardNotifyMask)
            if XkbSelectEvents(handle, UInt32(XkbUseCoreKbd), mask, mask) != 0 { xkbEventBase = eventBase }
        }
    }

    /// XKB's first event type, once ``followKeyboardMapping()`` selected its notifications.
    private var xkbEventBase: Int32?

    /// Whether `event` says the keyboard mapping changed.
    private static func isKeyboardMappingChange(_ event: XEvent, xkbEventBase: Int32?) -> Bool {
        (event.type == MappingNotify && event.xmapping.request == MappingKeyboard) || (xkbEventBase.map { event.type == $0 } ?? false)
    }

    /// How many keyboard mapping notifications ``nextEvent()`` and ``nextQueuedEvent()`` have
    /// handed out: a keyboard mapping read when this was `n` is current while it still is `n`
    /// and ``keyboardMappingChangeIsQueued`` is false.
    private(set) var keyboardMappingChanges = 0

    /// Whether a keyboard mapping notification waits in Xlib's queue, not yet handed out by
    /// ``nextEvent()`` or ``nextQueuedEvent()``; removes nothing.
    ///
    /// The socket is not read: a key action runs in the loop's turn that has just read
    /// everything that had arrived (``readArrived()``), and what arrives after that read is on
    /// its way as much as what the server has not sent yet. A `poll` of the socket here was a
    /// system call between a gesture's motion and its key (docs/performance.md, «Latency by
    /// drag shape»).
    var keyboardMappingChangeIsQueued: Bool {
        guard !connection.lost else { return false }
        // Usually nothing is queued: the requests buffered so far (a claim) stay buffered, to
        // go out with the action's.
        if XEventsQueued(handle, QueuedAlready) == 0 { return false }
        // [XKB's event base or -1, found]: what the predicate, a C function, can be given.
        var state: [Int32] = [xkbEventBase ?? -1, 0]
        var unused = XEvent()
        state.withUnsafeMutableBufferPointer { buffer in
            // The predicate sees every queued event and takes none.
            _ = XCheckIfEvent(handle, &unused, { _, event, argument in
                guard let event, let argument else { return 0 }
                let state = UnsafeMutableRawPointer(argument).assumingMemoryBound(to: Int32.self)
                if X11Display.isKeyboardMappingChange(event.pointee, xkbEventBase: state[0] >= 0 ? state[0] : nil) { state[1] = 1 }
                return 0
            }, UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self))
        }
        return state[1] != 0
    }

    /// Runs `body` with the data of an XInput 2 generic event, then frees it.
    ///
    /// - Returns: `nil` when `event` is not an XInput generic event or its data is gone.
    func withEventData<Result>(
        _ event: inout XEvent, _ body: (UnsafeMutablePointer<XGenericEventCookie>) throws(X11Error) -> Result
    ) throws(X11Error) -> Result? {
        guard !connection.lost, event.type == GenericEvent, event.xcookie.extension == xinputOpcode else { return nil }
        return try withUnsafeMutablePointer(to: &event.xcookie) { (cookie) throws(X11Error) -> Result? in
            guard XGetEventData(handle, cookie) != 0 else { return nil }
            defer { XFreeEventData(handle, cookie) }
            return try body(cookie)
        }
    }
}

/// Whether the connection broke, and the hook to run when it does. A class, because libX11's
/// exit handler reaches it through an unretained pointer.
private final class ConnectionState {
    let name: String
    var lost = false
    var hook: ((X11Error) -> Void)?

    init(name: String) { self.name = name }

    func markLost() {
        guard !lost else { return }
        lost = true
        hook?(.connectionLost(display: name))
    }
}

/// The operations of recent requests by first serial, so that an error reported later (for a
/// request sent without waiting) can still be named. A ring of the last ``capacity``; names
/// are built only when asked for.
private struct OperationLog {
    typealias Entry = (serial: UInt, operation: () -> String)
    private var entries: [Entry] = []
    /// Where the next entry goes once the ring is full (the oldest entry).
    private var next = 0
    private let capacity = 64

    mutating func remember(_ operation: @escaping () -> String, firstSerial: UInt) {
        if entries.count < capacity {
            entries.append((firstSerial, operation))
        } else {
            entries[next] = (firstSerial, operation)
            next = (next + 1) % capacity
        }
    }

    /// The operation of the call remembered last among those that began at or before `serial`
    /// (an inner call shares its outer call's first serial and names the error more closely).
    func operation(for serial: UInt) -> String? {
        // Oldest first: from `next` to the end, then from the start.
        let chronological = Array(entries[next...]) + entries[..<next]
        return chronological.last { $0.serial <= serial }?.operation()
    }
}
