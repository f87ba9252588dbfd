import BridgeCore
import GestureConfig
import GestureEngine
import GestureTestKit
import Testing

/// The paths undecided gestures draw (``PipelineEvent/path(_:)``), on the traces recorded from
/// real input (Tests/Fixtures/traces, replayed as `replay` does): asking for them changes
/// nothing else, each begins where a finger or the trigger button went down, and each is gone
/// in the very call that decides its gesture, gives its input back or ends it.
@Suite struct PipelinePathTests {
    static let traces = ["touch", "touchpad", "pointer", "strokes"]

    /// One replayed event (or the final run-on of time) and what the pipeline observed for it.
    struct Call {
        var event: InputEvent?
        var observed: [PipelineEvent]
    }

    /// Replays the fixture trace `name` with its config, as `replay` does (time runs on 10 s
    /// past the last event).
    static func replay(_ name: String, paths: Bool) throws -> [Call] {
        let directory = SourceTree.path("Tests/Fixtures/traces")
        // A trace's own config (`NAME.config.toml`) or the common one, as the golden traces.
        let config = try Config.load(contentsOf: "\(directory)/\(name == "strokes" ? "strokes." : "")config.toml")
        var reader = try TraceReader(path: "\(directory)/\(name).trace.jsonl")
        var observed: [PipelineEvent] = []
        let pipeline = Pipeline(config: config, performer: nil, arbiter: nil) { observed.append($0) }
        pipeline.tracesPaths = paths
        var calls: [Call] = []
        var last: Instant? = nil
        while let event = try reader.next() {
            pipeline.handle(event)
            calls.append(Call(event: event, observed: observed))
            observed.removeAll()
            last = event.time
        }
        if let last { pipeline.advance(to: last + Interval(milliseconds: 10_000)) }
        calls.append(Call(event: nil, observed: observed))
        return calls
    }

    static func steps(_ calls: [Call]) -> [PathEvent] {
        calls.flatMap { $0.observed.compactMap { if case .path(let p) = $0 { p } else { nil } } }
    }

    @Test(arguments: traces)
    func askingForPathsChangesNothingElse(name: String) throws {
        func withoutPaths(_ calls: [Call]) -> [[String]] {
            calls.map { $0.observed.compactMap { if case .path = $0 { nil } else { String(describing: $0) } } }
        }
        let traced = try Self.replay(name, paths: true)
        #expect(withoutPaths(traced) == withoutPaths(try Self.replay(name, paths: false)))
        #expect(Self.steps(try Self.replay(name, paths: false)).isEmpty)
        // Every recorded gesture but the touchpad's drew a path.
        #expect(Self.steps(traced).isEmpty == (name == "touchpad"))
    }

    @Test(arguments: traces)
    func eachPathBeginsWhereAFingerOrTheButtonWentDownAndEndsWhereItsGestureIsDecided(name: String) throws {
        var problems: [String] = []
        var open: [DeviceKind: PathEvent] = [:]
        for (k, call) in try Self.replay(name, paths: true).enumerated() {
            var decided: Set<DeviceKind> = []
            for event in call.observed {
                switch event {
                case .path(let p):
                    switch (p.kind, open[p.device]) {
                    case (.begin, nil):
                        // The first finger down or the press: the path starts under it.
                        switch call.event?.kind {
                        case .touchBegin(_, let at, _)? where p.device == .touchscreen && at == p.point: break
                        case .buttonPress(_, let at, _)? where p.device == .pointer && at == p.point: break
                        default: problems.append("line \(k + 1): \(p) is not where \(String(describing: call.event)) went down")
                        }
                        open[p.device] = p
                    case (.point, _?):
                        open[p.device] = p
                    case (.end, let drawn?):
                        if drawn.point != p.point { problems.append("line \(k + 1): \(p) ends elsewhere than its last point \(drawn.point)") }
                        open[p.device] = nil
                    default:
                        problems.append("line \(k + 1): \(p) out of order")
                    }
                case .phase(let report, _, _), .skipped(let report, _, _):
                    let panRuns = report.gesture == .pan && (report.phase == .began || report.phase == .changed)
                    if report.gesture != .tap && !panRuns { decided.insert(report.device) }
                case .passedOn(.pointer, _), .claimed(.pointer, _):
                    decided.insert(.pointer)
                default:
                    break
                }
            }
            for device in decided where open[device] != nil && !(device == .pointer && panRunning(call)) {
                problems.append("line \(k + 1): the \(device.rawValue) path outlived the decision of its gesture")
            }
        }
        #expect(open.isEmpty, "paths never ended: \(open.values)")
        #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "\n"))")
    }

    /// Whether a pointer pan began in `call` (its claim does not end the path: a pan's goes on).
    private func panRunning(_ call: Call) -> Bool {
        call.observed.contains { if case .phase(let r, _, _) = $0 { r.device == .pointer && r.gesture == .pan && r.phase == .began } else { false } }
    }

    @Test func aStrokeDrawnWithTheMouseIsOnePathFromPressToReleaseEndingWithItsPhase() throws {
        let calls = try Self.replay("strokes", paths: true)
        let pointer = Self.steps(calls).filter { $0.device == .pointer }
        let presses = calls.compactMap { call -> Point? in if case .buttonPress(3, let at, _)? = call.event?.kind { at } else { nil } }
        #expect(pointer.filter { $0.kind == .begin }.map(\.point) == presses)
        // The path's end, the claim and the stroke's phase come in that order, at the release.
        for call in calls where call.observed.contains(where: { if case .phase(let r, _, _) = $0 { r.device == .pointer && r.gesture == .stroke } else { false } }) {
            let order = call.observed.compactMap { event -> String? in
                switch event {
                case .path(let p): "path \(p.kind.rawValue)"
                case .claimed: "claimed"
                case .phase(let r, _, _): r.gesture.rawValue
                default: nil
                }
            }
            #expect(order.suffix(3) == ["path end", "claimed", "stroke"])
            #expect({ if case .buttonRelease? = call.event?.kind { true } else { false } }())
        }
    }
}
