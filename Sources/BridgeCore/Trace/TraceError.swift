/// A problem with a trace file: where it is and what is wrong.
///
/// Its description is the documented `TRACE:LINE: message` form (docs/interface.md, «Trace format»), with `TRACE` the path exactly as
/// it was given. A problem that belongs to no line (the file cannot be opened) has no line number
/// and reads `TRACE: message`.
///
/// ```swift
/// do {
///     var reader = try TraceReader(path: "swipe.trace")
///     while let event = try reader.next() { engine.handle(event) { _ in } }
/// } catch {
///     print(error)   // swipe.trace:12: field "x" must be a number, found a string
/// }
/// ```
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The trace's path as given (or the name of an in-memory trace).
    public var file: String
    /// The 1-based line the problem is on; `nil` when it concerns the whole file.
    public var line: Int?
    /// What is wrong, for a person to read.
    public var message: String

    /// Creates a trace error.
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { "\(file):\(line): \(message)" } else { "\(file): \(message)" }
    }
}

/// A problem found inside one line or one event, before the file and line are known.
struct TraceProblem: Error, Hashable, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
