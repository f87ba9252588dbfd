import BridgeCore
import GestureConfig
import GestureEngine
import Testing

/// A binding for Firefox by its WM_CLASS class; the focused window's instance is `navigator`.
private let firefoxConfig = try! Config.parse("""
    [[bind]]
    gesture = "swipe"
    direction = "right"
    app = "Firefox"
    action = "key alt+Right"
    """, file: "test.toml")

private let boundHere = "no binding matches (bound here: swipe right at 1:1)"

@Suite struct ExplanationTests {
    @Test func anAppBindingMatchingOnlyTheClassIsBoundHere() {
        let report = GestureReport(
            time: Instant(milliseconds: 100), gesture: .swipe, phase: .recognized, fingers: 1, device: .touchscreen,
            position: Point(x: 200, y: 400), direction: .left, app: "navigator", appClass: "Firefox")
        #expect(Explanation.note(for: report, binding: nil, config: firefoxConfig) == boundHere)
    }

    @Test func theExplanationMatchesAppsLikeTheEngine() throws {
        var lines: [String] = []
        let printer = ReportPrinter(format: .human, config: { firefoxConfig }, write: { lines.append($0) })
        let pipeline = Pipeline(config: firefoxConfig, performer: nil, arbiter: nil, observe: printer.print)
        var reader = TraceReader(text: """
            {"t":0,"type":"focus","app":"navigator","class":"Firefox"}
            {"t":0,"type":"touch-begin","id":1,"x":400,"y":400}
            {"t":25,"type":"touch-update","id":1,"x":350,"y":400}
            {"t":50,"type":"touch-update","id":1,"x":300,"y":400}
            {"t":75,"type":"touch-update","id":1,"x":250,"y":400}
            {"t":100,"type":"touch-end","id":1,"x":200,"y":400}
            """)
        while let e = try reader.next() { pipeline.handle(e) }
        pipeline.advance(to: Instant(milliseconds: 10_000))
        // The swipe's line, then the touch going back to the application (no binding took it).
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasSuffix(boundHere) == true, "\(lines)")
        #expect(lines.last?.hasSuffix("touch 1: passed on to the application") == true, "\(lines)")
    }
}
