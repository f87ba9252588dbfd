public import GestureEngine

/// The input the benchmarks feed to the engine, and the one loop that feeds it.
public enum Workload {
    /// Events in the throughput trace: one million, so that a benchmark with
    /// `scalingFactor: .mega` reports its figures per event.
    public static let eventCount = 1_000_000

    /// The seed of the trace: fixed, so every run measures the same input.
    public static let seed: UInt64 = 0x6765_7374_7572_6573

    /// A realistic mixed trace of exactly `count` events (see ``TraceBuilder``): gestures are
    /// appended whole until the next one would not fit, and the rest is pointer hover.
    public static func trace(count: Int = eventCount, seed: UInt64 = seed) -> [InputEvent] {
        annotatedTrace(count: count, seed: seed).events
    }

    /// The trace together with how many of each gesture it holds.
    public static func annotatedTrace(count: Int = eventCount, seed: UInt64 = seed) -> (events: [InputEvent], gestures: [String: Int]) {
        var b = TraceBuilder(seed: seed)
        while b.count < count {
            let before = b.count
            b.addRandomGesture()
            if b.count > count {
                b.truncate(to: before)
                break
            }
        }
        while b.count < count { b.hoverStep() }
        return (b.events, b.gestures)
    }

    /// Feeds `trace` to `engine` the way the daemon does, then lets time run 10 s past the last
    /// event so every pending timer fires. Returns the number of outputs.
    @inline(never)
    public static func feed(_ trace: [InputEvent], to engine: inout Engine) -> Int {
        var outputs = 0
        for event in trace {
            engine.handle(event) { _ in outputs &+= 1 }
        }
        let end = (trace.last?.time ?? Instant(milliseconds: 0)) + Interval(milliseconds: 10_000)
        engine.advance(to: end) { _ in outputs &+= 1 }
        return outputs
    }

    /// The daemon's idle path, `polls` times: nothing is pending, so it asks for the next
    /// deadline (none) and lets time run one 60 Hz frame on. Returns how many deadlines and
    /// outputs there were (0 when the engine is truly idle).
    @inline(never)
    public static func idle(_ engine: inout Engine, from start: Instant, polls: Int) -> Int {
        var seen = 0
        var now = start
        for _ in 0..<polls {
            if engine.nextDeadline != nil { seen &+= 1 }
            now = now + Interval(milliseconds: 16)
            engine.advance(to: now) { _ in seen &+= 1 }
        }
        return seen
    }

    /// An engine with the workload's bindings that has already recognized a few gestures and
    /// settled (no touch down, no timer pending), at the returned instant.
    public static func settledEngine() -> (Engine, Instant) {
        var engine = Engine(Bindings.configuration)
        let warmup = trace(count: 5_000, seed: seed &+ 1)
        _ = feed(warmup, to: &engine)
        return (engine, warmup.last!.time + Interval(milliseconds: 10_000))
    }
}
