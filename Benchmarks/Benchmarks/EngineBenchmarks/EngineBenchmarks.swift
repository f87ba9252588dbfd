import Benchmark
import EngineWorkload
import GestureEngine

/// The engine's cost per input event, and on the daemon's idle path.
///
/// Both benchmarks use `scalingFactor: .mega` and one million units of work per iteration, so
/// the scaled figures (marked `*` in the table) read per event, or per idle poll.
let benchmarks: @Sendable () -> Void = {
    // Wall-clock time and the malloc interposer's counts. Left out on purpose: `.cpuTotal`, whose
    // sampling allocates inside the counted window (16 mallocs per sample on Linux, which would
    // read as the engine's), and `.instructions`, which needs perf events that this VM lacks
    // (docs/performance.md counts instructions with callgrind instead).
    let metrics: [BenchmarkMetric] = [
        .wallClock, .throughput,
        .mallocCountTotal, .mallocBytesCount, .mallocFreeDelta,
    ]

    // Built once, outside every measurement: about six hours of use, idle gaps included.
    let trace = Workload.trace()
    precondition(trace.count == BenchmarkScalingFactor.mega.rawValue, "the figures read per event only if the trace has exactly 1M events")

    // A fresh engine per iteration, created before the measurement starts: what is measured
    // is the steady state of feeding events, not the engine's one-time buffer reservations.
    Benchmark(
        "EngineThroughput",
        configuration: .init(
            metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 2, scalingFactor: .mega,
            maxDuration: .seconds(15), maxIterations: 40
        )
    ) { benchmark in
        var engine = Engine(Bindings.configuration)
        benchmark.startMeasurement()
        let outputs = Workload.feed(trace, to: &engine)
        benchmark.stopMeasurement()
        blackHole(outputs)
    }

    Benchmark(
        "IdleEngine",
        configuration: .init(
            metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 2, scalingFactor: .mega,
            maxDuration: .seconds(10), maxIterations: 40
        )
    ) { benchmark in
        var (engine, start) = Workload.settledEngine()
        benchmark.startMeasurement()
        let seen = Workload.idle(&engine, from: start, polls: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        blackHole(seen)
    }
}
