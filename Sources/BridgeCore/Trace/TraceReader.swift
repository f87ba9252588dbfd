public import GestureEngine

/// Reads a trace (docs/interface.md, «Trace format»: JSON Lines, one event per line) as a stream of
/// ``InputEvent``s.
///
/// The reader pulls one line at a time through a fixed buffer, so memory stays flat however
/// long the trace is. Blank lines, a UTF-8 byte order mark at the start, CRLF line ends and a last
/// line without a line feed are all fine; unknown fields are ignored. Everything else that is
/// wrong stops the reader with a ``TraceError`` naming the line: bad JSON (with its column), a
/// line that is not an object, an unknown `type`, a missing or mistyped field, a number that is
/// not finite, a fractional or impossible count, time going backwards, bytes that are not UTF-8.
///
/// Once it has thrown, every further ``next()`` throws the same error: a trace is used whole or
/// not at all. Copies of a reader share its file position (like a file handle).
///
/// ```swift
/// var reader = try TraceReader(path: "swipe.trace")
/// while let event = try reader.next() {
///     engine.handle(event) { output in print(output) }
/// }
/// ```
public struct TraceReader {
    /// The trace's path as given, or the name of an in-memory trace; used in errors.
    public let file: String

    private let source: TraceLineSource
    private var fields = TraceFields()
    private var previousTime: Instant?
    private var failure: TraceError?

    /// Opens the trace at `path`.
    ///
    /// - Throws: a ``TraceError`` without a line number when the file can't be opened, saying
    ///   why (`cannot open: No such file or directory`).
    public init(path: String) throws(TraceError) {
        do {
            source = TraceLineSource(file: try TraceFile.open(readingFrom: path))
        } catch {
            throw TraceError(file: path, line: nil, message: error.message)
        }
        file = path
    }

    /// Reads a trace from an open descriptor, e.g. standard input (`replay -`), in one pass.
    ///
    /// - Parameters:
    ///   - fileDescriptor: the descriptor to read; closed when the reader goes away.
    ///   - name: what errors call the trace.
    public init(fileDescriptor: Int32, name: String) {
        self.init(source: TraceLineSource(file: TraceFile(descriptor: fileDescriptor)), name: name)
    }

    /// Reads a trace held in memory, e.g. in tests.
    ///
    /// - Parameters:
    ///   - text: the trace's text.
    ///   - name: what errors call the trace.
    public init(text: String, name: String = "<memory>") {
        self.init(bytes: Array(text.utf8), name: name)
    }

    /// Reads a trace from raw bytes, which need not be valid UTF-8 (the reader reports it).
    ///
    /// - Parameters:
    ///   - bytes: the trace's bytes.
    ///   - name: what errors call the trace.
    public init(bytes: [UInt8], name: String = "<memory>") {
        self.init(source: TraceLineSource(bytes: bytes), name: name)
    }

    /// Reads through an explicit line source (tests use tiny chunks to exercise chunk edges).
    init(source: TraceLineSource, name: String) {
        self.source = source
        file = name
    }

    /// The number of the last line read (0 before the first).
    public var lineNumber: Int { source.lineNumber }

    /// The next event, or `nil` at the end of the trace.
    ///
    /// - Throws: ``TraceError`` naming the line of the first problem; again on every later call.
    public mutating func next() throws(TraceError) -> InputEvent? {
        if let failure { throw failure }
        do {
            while try source.advance() {
                let parsed = try source.line.withUnsafeBufferPointer { (line) throws(TraceProblem) -> InputEvent? in
                    try self.event(from: line)
                }
                if let parsed { return parsed }
            }
            return nil
        } catch {
            let failure = TraceError(file: file, line: source.lineNumber, message: error.message)
            self.failure = failure
            throw failure
        }
    }

    /// Reads every remaining event. For small traces and tests; streaming callers use ``next()``.
    public mutating func readAll() throws(TraceError) -> [InputEvent] {
        var events: [InputEvent] = []
        while let event = try next() { events.append(event) }
        return events
    }

    // MARK: One line

    /// The event on one line, or `nil` for a blank line.
    private mutating func event(from rawLine: UnsafeBufferPointer<UInt8>) throws(TraceProblem) -> InputEvent? {
        var line = rawLine
        if source.lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) {
            line = UnsafeBufferPointer(rebasing: line[3...])
        }
        try TraceLineScanner.checkUTF8(line)
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }

        fields.removeAll()
        try TraceLineScanner.scan(line, into: &fields)
        let type = try eventType()
        let time = Instant(milliseconds: try number(.t, for: nil))
        if let problem = TraceProblem.timeOrder(previous: previousTime, time: time) { throw problem }
        let event = InputEvent(time: time, try kind(type))
        previousTime = time
        return event
    }

    /// At most 60 characters of a value a message quotes, `…` after when cut: a line may be a
    /// megabyte long, and its whole text is no help in a message. As a JSON string when
    /// `quoted`.
    static func excerpt(_ text: String, quoted: Bool) -> String {
        let kept = String(text.prefix(60))
        return (quoted ? JSONLiteral.string(kept) : kept) + (kept.count < text.count ? "…" : "")
    }

    private func eventType() throws(TraceProblem) -> TraceEventType {
        guard let value = fields[.type] else { throw TraceProblem("missing required field \"type\"") }
        guard case .string(let name) = value else {
            throw TraceProblem("field \"type\" must be a string, found \(value.kindDescription)")
        }
        guard let type = TraceEventType(rawValue: name) else {
            throw TraceProblem("unknown event type \(Self.excerpt(name, quoted: true))")
        }
        return type
    }

    private func kind(_ type: TraceEventType) throws(TraceProblem) -> InputEvent.Kind {
        switch type {
        case .touchBegin: .touchBegin(id: try integer(.id, for: type), at: try point(for: type), modifiers: try modifiers())
        case .touchUpdate: .touchUpdate(id: try integer(.id, for: type), at: try point(for: type))
        case .touchEnd: .touchEnd(id: try integer(.id, for: type), at: try point(for: type))
        case .touchCancel: .touchCancel(id: try integer(.id, for: type), at: try point(for: type))
        case .buttonPress:
            .buttonPress(button: try integer(.button, for: type), at: try point(for: type), modifiers: try modifiers())
        case .buttonRelease: .buttonRelease(button: try integer(.button, for: type), at: try point(for: type))
        case .motion: .motion(at: try point(for: type))
        case .touchpadSwipeBegin:
            .touchpadSwipeBegin(fingers: try integer(.fingers, for: type), at: try optionalPoint(), modifiers: try modifiers())
        case .touchpadSwipeUpdate:
            .touchpadSwipeUpdate(
                fingers: try integer(.fingers, for: type),
                delta: Point(x: try number(.dx, for: type), y: try number(.dy, for: type))
            )
        case .touchpadSwipeEnd:
            .touchpadSwipeEnd(fingers: try integer(.fingers, for: type), cancelled: try optionalBool(.cancelled) ?? false)
        case .touchpadPinchBegin:
            .touchpadPinchBegin(fingers: try integer(.fingers, for: type), at: try optionalPoint(), modifiers: try modifiers())
        case .touchpadPinchUpdate:
            .touchpadPinchUpdate(
                fingers: try integer(.fingers, for: type),
                delta: Point(x: try optionalNumber(.dx) ?? 0, y: try optionalNumber(.dy) ?? 0),
                scale: try number(.scale, for: type),
                angle: try number(.angle, for: type)
            )
        case .touchpadPinchEnd:
            .touchpadPinchEnd(fingers: try integer(.fingers, for: type), cancelled: try optionalBool(.cancelled) ?? false)
        case .screen:
            .screen(
                width: try integer(.width, for: type), height: try integer(.height, for: type),
                monitors: try fields[.monitors].map { (value) throws(TraceProblem) in try TraceMonitors.monitors(from: value) } ?? [])
        case .focus: .focus(app: try string(.app, for: type), appClass: try optionalString(.appClass))
        }
    }

    // MARK: Fields

    private func missing(_ key: TraceKey, for type: TraceEventType?) -> TraceProblem {
        TraceProblem("missing required field \"\(key.name)\"" + (type.map { " for \($0.rawValue)" } ?? ""))
    }

    private func wrongType(_ key: TraceKey, _ value: TraceFieldValue, expected: String) -> TraceProblem {
        TraceProblem("field \"\(key.name)\" must be \(expected), found \(value.kindDescription)")
    }

    private func number(_ key: TraceKey, for type: TraceEventType?) throws(TraceProblem) -> Double {
        guard let value = try optionalNumber(key) else { throw missing(key, for: type) }
        return value
    }

    private func optionalNumber(_ key: TraceKey) throws(TraceProblem) -> Double? {
        guard let value = fields[key] else { return nil }
        switch value {
        case .number(let number):
            if let problem = key.problem(with: number) { throw problem }
            return number
        case .nonFiniteNumber(let text):
            throw TraceProblem("field \"\(key.name)\" is not a finite number: \(Self.excerpt(String(text), quoted: false))")
        default:
            throw wrongType(key, value, expected: key.isInteger ? "a whole number" : "a number")
        }
    }

    private func integer(_ key: TraceKey, for type: TraceEventType) throws(TraceProblem) -> Int {
        // `problem(with:)` has checked it is whole and within ±2^53, so the conversion is exact.
        Int(try number(key, for: type))
    }

    private func point(for type: TraceEventType) throws(TraceProblem) -> Point {
        Point(x: try number(.x, for: type), y: try number(.y, for: type))
    }

    /// The pointer position on a touchpad begin: both `x` and `y`, or neither.
    private func optionalPoint() throws(TraceProblem) -> Point? {
        switch (try optionalNumber(.x), try optionalNumber(.y)) {
        case (let x?, let y?): return Point(x: x, y: y)
        case (nil, nil): return nil
        case (_?, nil): throw TraceProblem("field \"x\" is given without \"y\"")
        case (nil, _?): throw TraceProblem("field \"y\" is given without \"x\"")
        }
    }

    /// The modifier keys of a gesture's first event (`mods`); none when absent.
    private func modifiers() throws(TraceProblem) -> Modifiers {
        guard let value = fields[.mods] else { return [] }
        return try TraceModifiers.modifiers(from: value)
    }

    private func optionalBool(_ key: TraceKey) throws(TraceProblem) -> Bool? {
        guard let value = fields[key] else { return nil }
        guard case .bool(let flag) = value else { throw wrongType(key, value, expected: "true or false") }
        return flag
    }

    private func optionalString(_ key: TraceKey) throws(TraceProblem) -> String? {
        guard let value = fields[key] else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, value, expected: "a string") }
        return text
    }

    private func string(_ key: TraceKey, for type: TraceEventType) throws(TraceProblem) -> String {
        guard let value = fields[key] else { throw missing(key, for: type) }
        guard case .string(let text) = value else { throw wrongType(key, value, expected: "a string") }
        return text
    }
}
