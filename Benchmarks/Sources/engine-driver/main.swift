import EngineWorkload
import Glibc
import GestureEngine
import GestureTestKit

/// A small driver for the engine workload, outside the benchmark harness: for profilers
/// (`valgrind --tool=callgrind`, `perf`) and to see what the trace holds.
///
///     engine-driver stats        what the trace holds and what the engine made of it
///     engine-driver replay [N]   feed the trace to a fresh engine N times (default 1)
///     engine-driver idle [N]     N idle polls (nextDeadline + advance) on a settled engine
///     engine-driver time [N]     N timed replays: median and best ns per event (a quick A/B check;
///                                the benchmark harness is the reference)
///     engine-driver write-trace N PATH
///                                writes the workload's trace of N events (default 1M) as a trace
///                                file, for `gesture-bridge replay` soak runs (docs/reliability.md)
let arguments = CommandLine.arguments.dropFirst()
let command = arguments.first ?? "stats"
let n = arguments.dropFirst().first.flatMap { Int($0) }

switch command {
case "replay":
    let trace = Workload.trace()
    var total = 0
    for _ in 0..<(n ?? 1) {
        var engine = Engine(Bindings.configuration)
        total &+= Workload.feed(trace, to: &engine)
    }
    print("\(trace.count) events × \(n ?? 1): \(total) outputs")

case "idle":
    var (engine, start) = Workload.settledEngine()
    let polls = n ?? 1_000_000
    print("\(polls) idle polls: \(Workload.idle(&engine, from: start, polls: polls)) deadlines or outputs")

case "time":
    let trace = Workload.trace()
    let clock = ContinuousClock()
    var perEvent: [Double] = []
    for _ in 0..<(n ?? 15) {
        var engine = Engine(Bindings.configuration)
        let elapsed = clock.measure { _ = Workload.feed(trace, to: &engine) }
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        perEvent.append(nanoseconds / Double(trace.count))
    }
    perEvent.sort()
    print("ns/event over \(perEvent.count) replays: median \(Int(perEvent[perEvent.count / 2].rounded())), best \(Int(perEvent[0].rounded()))")

case "stats":
    let (trace, gestures) = Workload.annotatedTrace()
    print("trace: \(trace.count) events over \(Int(trace.last!.time.milliseconds / 1000)) s of input, \(Bindings.triggers.count) bindings")
    var kinds: [String: Int] = [:]
    for e in trace { kinds[String(describing: e.kind).prefix { $0 != "(" }.description, default: 0] += 1 }
    print("\nevents by kind:")
    for (k, v) in kinds.sorted(by: { $0.value > $1.value }) { print("  \(k): \(v)") }
    var focus: [String: Int] = [:]
    for e in trace {
        if case .focus(let app, let appClass) = e.kind { focus["\(app).\(appClass ?? "") (\(app.utf8.count), \(appClass?.utf8.count ?? 0))", default: 0] += 1 }
    }
    print("\nfocus events by application (instance.class, UTF-8 bytes of each):")
    for (k, v) in focus.sorted(by: { $0.key < $1.key }) { print("  \(k): \(v)") }
    print("\ngestures performed:")
    for (k, v) in gestures.sorted(by: { $0.key < $1.key }) { print("  \(k): \(v)") }

    var engine = Engine(Bindings.configuration)
    var reports: [String: Int] = [:]
    var firings = Array(repeating: 0, count: Bindings.triggers.count)
    var ownership: [String: Int] = [:]
    // `if case` rather than a switch: the output enum may grow diagnostic cases this tool ignores.
    func record(_ out: EngineOutput) {
        if case .gesture(let r) = out {
            reports["\(r.device.rawValue) \(r.gesture.rawValue) \(r.phase.rawValue)", default: 0] += 1
            if let f = r.firing { firings[f] += 1 }
        } else if case .touch(_, let o) = out {
            ownership["touch \(o.rawValue)", default: 0] += 1
        } else if case .pointer(_, let o) = out {
            ownership["pointer \(o.rawValue)", default: 0] += 1
        } else if case .touchpad(let o) = out {
            ownership["touchpad \(o.rawValue)", default: 0] += 1
        }
    }
    for e in trace { engine.handle(e, emit: record) }
    engine.advance(to: trace.last!.time + Interval(milliseconds: 10_000), emit: record)
    print("\nengine reports:")
    for (k, v) in reports.sorted(by: { $0.key < $1.key }) { print("  \(k): \(v)") }
    print("\nownership decisions:")
    for (k, v) in ownership.sorted(by: { $0.key < $1.key }) { print("  \(k): \(v)") }
    print("\nfirings per binding:")
    for (i, t) in Bindings.triggers.enumerated() {
        var s = "\(t.gesture.rawValue) \(t.fingers)f"
        if t.taps > 1 { s += " ×\(t.taps)" }
        if let d = t.direction { s += " \(d.rawValue)" }
        if let e = t.edge { s += " edge=\(e.rawValue)" }
        if let d = t.device { s += " device=\(d.rawValue)" }
        if let a = t.app { s += " app=\(a)" }
        if t.on == .end { s += " on=end" }
        if let r = t.repeatEvery { s += " repeat_every=\(r)" }
        print("  [\(i)] \(s): \(firings[i])")
    }

case "write-trace":
    guard let path = arguments.dropFirst(2).first else {
        print("usage: engine-driver write-trace N PATH")
        exit(64)
    }
    let count = n ?? Workload.eventCount
    do {
        try writeTrace(Workload.trace(count: count), to: path)
        print("wrote \(count) events to \(path)")
    } catch {
        print("\(error)")
        exit(1)
    }

default:
    print("usage: engine-driver stats | replay [N] | idle [N] | time [N] | write-trace N PATH")
}
