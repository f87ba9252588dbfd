public import GestureEngine

/// The input port: where a run's ``InputEvent``s come from. Live, the X capture (each call
/// hands over what the server sent since the last); in `replay`, a ``TraceReader`` (one call
/// reads the trace to its end). The app feeds both through the same path to the observers and
/// the pipeline.
///
/// A source hands events to a closure rather than returning them: the live capture converts
/// X events one by one, in place, and nothing is collected per turn.
///
/// ```swift
/// var reader = try TraceReader(path: "drag.trace.jsonl")
/// while try reader.read(into: { pipeline.handle($0) }) {}
/// ```
public protocol InputSource {
    /// What reading can fail with (`Never` for the live capture).
    associatedtype Failure: Error
    /// Hands every event that is ready now to `sink`, in order, each stamped with its time and
    /// never earlier than the one before. Returns false once no more input will come (a trace
    /// read to its end); a live source never ends this way.
    mutating func read(into sink: (InputEvent) -> Void) throws(Failure) -> Bool
}

extension TraceReader: InputSource {
    /// Reads the trace to its end: a trace is there to be read at once.
    public mutating func read(into sink: (InputEvent) -> Void) throws(TraceError) -> Bool {
        while let event = try next() { sink(event) }
        return false
    }
}
