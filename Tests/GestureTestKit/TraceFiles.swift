import BridgeCore
public import GestureEngine

/// Writes `events` as a trace file (docs/interface.md, «Trace format») at `path`, as `record` would: what
/// `gesture-bridge replay` reads. For soak runs and fixtures made from generated input.
///
/// ```swift
/// try writeTrace(Workload.trace(count: 10_000_000), to: "/tmp/soak.trace")
/// ```
///
/// - Throws: the writer's `TraceError` (naming the file and line) when an event cannot be
///   written faithfully or the file cannot be written.
public func writeTrace(_ events: some Sequence<InputEvent>, to path: String) throws {
    let writer = try TraceWriter(path: path)
    defer { writer.close() }
    for event in events { try writer.write(event) }
}
