import Benchmark
import GestureEngine
import GestureTestKit

/// The stroke recognizer's cost: one stroke as a hand draws it, matched at the lift against the 16
/// built-in shapes.
///
/// `scalingFactor: .kilo` and 1000 matches per iteration, so the scaled figures (marked `*`) read per
/// match. The scratch is warmed before the measurement: matching itself should allocate nothing.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .mallocBytesCount]
    let recognizer = ShapeMatcher(shapes: StrokeShape.builtIn)
    let all = Array(StrokeShape.builtIn.indices)
    // A circle of about 100 events (a hand at 125 Hz for ~0.8 s) at 1.5× the base size: the first
    // seed whose drawing has 95–105 events.
    let path = (UInt64(1)...).lazy
        .map { StrokeSynth.path(for: StrokeShape.builtIn[3], seed: $0, scale: 1.5, rotation: 8) }
        .first { (95...105).contains($0.count) }!

    Benchmark(
        "StrokeMatch16",
        configuration: .init(
            metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 3, scalingFactor: .kilo,
            maxDuration: .seconds(10), maxIterations: 200
        )
    ) { benchmark in
        var scratch = StrokeScratch()
        _ = recognizer.match(path, among: all, scratch: &scratch)
        var sum = 0.0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sum += recognizer.match(path, among: all, scratch: &scratch)?.score ?? 0
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }
}
