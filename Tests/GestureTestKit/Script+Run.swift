public import GestureEngine

/// Runs `script` through a fresh engine with `triggers` bound and lets time run 10 s past the
/// last event, so every pending timer fires. Returns everything the engine emitted, in order.
///
/// ```swift
/// var s = Script()
/// s.tap(at: 100, 100, time: 0)
/// #expect(lines(run([tap()], s)) == ["tap recognized taps=1 f1 touchscreen →0"])
/// ```
public func run(
    _ triggers: [Trigger], _ script: Script, settings: RecognizerSettings = RecognizerSettings(), pointerButton: Int = 3,
    claimOnSecondFinger: Bool = false
) -> [EngineOutput] {
    var engine = Engine(EngineConfiguration(
        settings: settings, pointerButton: pointerButton, triggers: triggers, claimOnSecondFinger: claimOnSecondFinger))
    var out: [EngineOutput] = []
    for e in script.events { engine.handle(e) { out.append($0) } }
    let last = script.events.last?.time.milliseconds ?? 0
    engine.advance(to: Instant(milliseconds: last + 10_000)) { out.append($0) }
    return out
}

/// The gesture reports of a run, in order.
public func reports(_ outputs: [EngineOutput]) -> [GestureReport] {
    outputs.compactMap { if case .gesture(let r) = $0 { r } else { nil } }
}

/// A compact line per report of a run (see ``describe(_:)``).
public func lines(_ outputs: [EngineOutput]) -> [String] {
    reports(outputs).map(describe)
}

/// One report as a compact line: `gesture phase [direction] [shape] [taps=N] fN device [edge=E] [mods=M] [→index]`,
/// where `→index` is the binding it fires, e.g. `swipe recognized left f3 touchscreen mods=ctrl →0`.
public func describe(_ r: GestureReport) -> String {
    var s = "\(r.gesture.rawValue) \(r.phase.rawValue)"
    if let d = r.direction { s += " \(d.rawValue)" }
    if let shape = r.shape { s += " \(shape)" }
    if let taps = r.taps { s += " taps=\(taps)" }
    s += " f\(r.fingers) \(r.device.rawValue)"
    if let e = r.edge { s += " edge=\(e.rawValue)" }
    if !r.modifiers.isEmpty { s += " mods=\(r.modifiers)" }
    if let f = r.firing { s += " →\(f)" }
    return s
}

/// Only the lines (see ``describe(_:)``) of reports that fire a binding.
public func firings(_ outputs: [EngineOutput]) -> [String] {
    reports(outputs).filter { $0.firing != nil }.map(describe)
}

/// The ownership decisions of a run per touch id, in order.
public func touchDecisions(_ outputs: [EngineOutput]) -> [Int: [Ownership]] {
    var d: [Int: [Ownership]] = [:]
    for o in outputs { if case .touch(let id, let own) = o { d[id, default: []].append(own) } }
    return d
}
