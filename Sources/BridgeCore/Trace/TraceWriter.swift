public import GestureEngine

/// Writes ``InputEvent``s as a trace (docs/interface.md, «Trace format»): one compact JSON object per line,
/// keys in a fixed order (`t, type, id, x, y, button, fingers, dx, dy, scale, angle, cancelled,
/// width, height, monitors, app, mods`), numbers in their shortest exact form (`640`, not
/// `640.0`); `mods` only where a modifier was held.
///
/// Every line goes out with one `write` as soon as it is complete, so an interrupted `record`
/// leaves a trace that ends with a whole line. The writer refuses what the reader would refuse
/// (time going backwards, non-finite numbers, fewer than one finger …), so whatever it writes
/// reads back as the same events.
///
/// ```swift
/// let writer = try TraceWriter(path: "swipe.trace")
/// try writer.write(InputEvent(time: Instant(milliseconds: 0), .touchBegin(id: 1, at: Point(x: 10, y: 20))))
/// // {"t":0,"type":"touch-begin","id":1,"x":10,"y":20}
/// ```
public final class TraceWriter {
    /// Where the lines go.
    private enum Output {
        case file(TraceFile, owned: Bool)
        case lines((String) -> Void)
    }

    /// The trace's path as given, or the name of the output; used in errors.
    public let file: String
    /// How many lines have been written.
    public private(set) var lineNumber = 0
    /// Whether a write to the output failed (a closed pipe, a full disk): the trace cannot go
    /// on, unlike after an event refused on its own (time going backwards), which is skipped.
    public private(set) var outputFailed = false

    private var output: Output?
    private var previousTime: Instant?

    /// Creates (or truncates) the trace file at `path`.
    ///
    /// - Throws: a ``TraceError`` without a line number when the file can't be created.
    public init(path: String) throws(TraceError) {
        do {
            output = .file(try TraceFile.open(writingTo: path), owned: true)
        } catch {
            throw TraceError(file: path, line: nil, message: error.message)
        }
        file = path
    }

    /// Writes to an open file descriptor (standard output: 1), which the writer does not close.
    ///
    /// - Parameters:
    ///   - fileDescriptor: the descriptor to write to.
    ///   - name: what errors call the output.
    public init(fileDescriptor: Int32, name: String = "<stdout>") {
        output = .file(TraceFile(descriptor: fileDescriptor), owned: false)
        file = name
    }

    /// Hands each line (with its line feed) to `emit`, e.g. to collect a trace in memory.
    ///
    /// - Parameters:
    ///   - name: what errors call the output.
    ///   - emit: receives each line as it is written.
    public init(name: String = "<memory>", emit: @escaping (String) -> Void) {
        output = .lines(emit)
        file = name
    }

    deinit { close() }

    /// Writes one event as one line.
    ///
    /// - Throws: ``TraceError`` naming the line it would have been, when the event can't be
    ///   written faithfully (nothing is written then) or the write fails.
    public func write(_ event: InputEvent) throws(TraceError) {
        let line: String
        do throws(TraceProblem) {
            if let problem = TraceProblem.timeOrder(previous: previousTime, time: event.time) { throw problem }
            line = try Self.line(for: event) + "\n"
        } catch {
            throw TraceError(file: file, line: lineNumber + 1, message: error.message)
        }
        switch output {
        case .file(let traceFile, _)?:
            do throws(TraceFileError) {
                try traceFile.write(line)
            } catch {
                outputFailed = true
                throw TraceError(file: file, line: lineNumber + 1, message: error.message)
            }
        case .lines(let emit)?:
            emit(line)
        case nil:
            throw TraceError(file: file, line: lineNumber + 1, message: "cannot write: the trace is closed")
        }
        lineNumber += 1
        previousTime = event.time
    }

    /// Closes the output (a file descriptor passed in stays open). Later writes throw.
    public func close() {
        if case .file(let traceFile, owned: true)? = output { traceFile.close() }
        output = nil
    }

    /// One event as a compact JSON object, without a line feed.
    ///
    /// - Throws: ``TraceProblem`` when a value would not read back (non-finite, out of range).
    static func line(for event: InputEvent) throws(TraceProblem) -> String {
        var line = "{"
        var separator = ""
        func add(_ key: TraceKey, _ value: String) {
            line += separator + "\"" + key.name + "\":" + value
            separator = ","
        }
        func add(_ key: TraceKey, _ number: Double) throws(TraceProblem) {
            if let problem = key.problem(with: number) { throw problem }
            add(key, JSONLiteral.number(number))
        }
        func add(_ key: TraceKey, _ integer: Int) throws(TraceProblem) {
            if let problem = key.problem(with: integer) { throw problem }
            add(key, String(integer))
        }
        func add(_ point: Point) throws(TraceProblem) {
            try add(.x, point.x)
            try add(.y, point.y)
        }

        try add(.t, event.time.milliseconds)
        add(.type, JSONLiteral.string(event.kind.typeName.rawValue))
        func add(_ modifiers: Modifiers) {
            if !modifiers.isEmpty { add(.mods, modifiers.jsonArray) }
        }

        switch event.kind {
        case .touchBegin(let id, let at, let modifiers):
            try add(.id, id)
            try add(at)
            add(modifiers)
        case .touchUpdate(let id, let at), .touchEnd(let id, let at), .touchCancel(let id, let at):
            try add(.id, id)
            try add(at)
        case .buttonPress(let button, let at, let modifiers):
            try add(at)
            try add(.button, button)
            add(modifiers)
        case .buttonRelease(let button, let at):
            try add(at)
            try add(.button, button)
        case .motion(let at):
            try add(at)
        case .touchpadSwipeBegin(let fingers, let at, let modifiers), .touchpadPinchBegin(let fingers, let at, let modifiers):
            if let at { try add(at) }
            try add(.fingers, fingers)
            add(modifiers)
        case .touchpadSwipeUpdate(let fingers, let delta):
            try add(.fingers, fingers)
            try add(.dx, delta.x)
            try add(.dy, delta.y)
        case .touchpadPinchUpdate(let fingers, let delta, let scale, let angle):
            try add(.fingers, fingers)
            try add(.dx, delta.x)
            try add(.dy, delta.y)
            try add(.scale, scale)
            try add(.angle, angle)
        case .touchpadSwipeEnd(let fingers, let cancelled), .touchpadPinchEnd(let fingers, let cancelled):
            try add(.fingers, fingers)
            add(.cancelled, cancelled ? "true" : "false")
        case .screen(let width, let height, let monitors):
            try add(.width, width)
            try add(.height, height)
            if !monitors.isEmpty { add(.monitors, try TraceMonitors.json(monitors)) }
        case .focus(let app, let appClass):
            add(.app, JSONLiteral.string(app))
            if let appClass { add(.appClass, JSONLiteral.string(appClass)) }
        }
        return line + "}"
    }
}
