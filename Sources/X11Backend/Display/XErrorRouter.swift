internal import CX11
import Synchronization

/// Routes libX11's process-wide error callbacks to the ``X11Display`` that caused them.
///
/// libX11 has one error handler per process and its default prints and calls `exit(1)`. This
/// router installs a handler once that records each protocol error under its `Display*`, so the
/// chokepoint (``X11Display/call(_:sync:_:)``) can turn it into a typed ``X11Error``. It also
/// installs an I/O error handler that returns quietly, so that libX11 goes on to the per-display
/// exit handler that ``X11Display`` sets (libX11's default I/O handler never returns).
enum XErrorRouter {
    /// Errors recorded for each registered display (keyed by the `Display*` address), oldest
    /// first. Bounded so that a display nobody drains cannot grow without limit.
    private static let recorded = Mutex<[UInt: [XProtocolError]]>([:])
    /// At most this many errors are kept per display between two drains.
    private static let capacity = 256
    /// Errors recorded and not taken yet, over every display: ``take(_:)`` looks at the table
    /// only when there are some (the daemon asks at every turn of its loop, and almost always
    /// there are none).
    private static let untaken = Atomic<Int>(0)

    private static let installed: Void = {
        _ = XSetErrorHandler { display, event in
            guard let display, let event else { return 0 }
            XErrorRouter.record(display: display, event: event.pointee)
            return 0
        }
        // Returning from the I/O error handler is what lets the per-display exit handler run
        // (libX11 >= 1.7 calls it next); the exit handler decides what happens then.
        _ = XSetIOErrorHandler { _ in 0 }
    }()

    /// Installs the process-wide handlers (idempotent, thread-safe) and starts recording
    /// errors for `display`.
    static func register(_ display: OpaquePointer) {
        _ = installed
        recorded.withLock { $0[key(display)] = [] }
    }

    /// Stops recording errors for `display` (before it is closed).
    static func unregister(_ display: OpaquePointer) {
        recorded.withLock { table in
            if let left = table.removeValue(forKey: key(display)), !left.isEmpty {
                untaken.subtract(left.count, ordering: .releasing)
            }
        }
    }

    /// Whether any display has errors recorded and not taken yet.
    static var hasUntaken: Bool { untaken.load(ordering: .acquiring) > 0 }

    /// Removes and returns the errors recorded for `display`, oldest first.
    static func take(_ display: OpaquePointer) -> [XProtocolError] {
        guard hasUntaken else { return [] }
        return recorded.withLock { table in
            let k = key(display)
            guard let errors = table[k], !errors.isEmpty else { return [] }
            table[k] = []
            untaken.subtract(errors.count, ordering: .releasing)
            return errors
        }
    }

    private static func key(_ display: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
    }

    private static func record(display: OpaquePointer, event: XErrorEvent) {
        var buffer = [CChar](repeating: 0, count: 256)
        XGetErrorText(display, Int32(event.error_code), &buffer, Int32(buffer.count))
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let error = XProtocolError(
            code: XErrorCode(rawValue: event.error_code),
            requestCode: event.request_code,
            minorCode: event.minor_code,
            resource: UInt(event.resourceid),
            serial: UInt(event.serial),
            text: text
        )
        recorded.withLock { table in
            let k = key(display)
            // Connections that are not X11Display (a test's own client) are not recorded.
            guard table[k] != nil else { return }
            if table[k]!.count >= capacity {
                table[k]!.removeFirst()
            } else {
                untaken.add(1, ordering: .releasing)
            }
            table[k]!.append(error)
        }
    }
}
