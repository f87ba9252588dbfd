import GestureEngine
import Testing

@testable import BridgeCore

private func report(
    _ t: Double, _ gesture: GestureKind, _ phase: Phase, fingers: Int = 1, _ device: DeviceKind = .touchscreen,
    at position: Point = Point(x: 640, y: 360), taps: Int? = nil, direction: Direction? = nil, edge: Edge? = nil,
    translation: Point? = nil, velocity: Point? = nil, scale: Double? = nil, angle: Double? = nil
) -> GestureReport {
    GestureReport(
        time: Instant(milliseconds: t), gesture: gesture, phase: phase, fingers: fingers, device: device,
        position: position, taps: taps, direction: direction, edge: edge, translation: translation,
        velocity: velocity, scale: scale, angle: angle
    )
}

/// A report, the action or note to go with it, and the exact text expected.
private struct Formatted: Sendable, CustomTestStringConvertible {
    let report: GestureReport
    let extra: String?
    let expected: String
    init(_ report: GestureReport, _ extra: String?, _ expected: String) {
        self.report = report
        self.extra = extra
        self.expected = expected
    }
    init(_ report: GestureReport, _ expected: String) {
        self.init(report, nil, expected)
    }
    var testDescription: String { expected }
}

private let jsonLines: [Formatted] = [
    Formatted(report(1000, .tap, .recognized, taps: 1), "key super",
              #"{"t":1000,"gesture":"tap","phase":"recognized","fingers":1,"device":"touchscreen","x":640,"y":360,"taps":1,"action":"key super"}"#),
    Formatted(report(1234.5, .swipe, .recognized, fingers: 3, .touchpad, direction: .left), "key ctrl+alt+Left",
              #"{"t":1234.5,"gesture":"swipe","phase":"recognized","fingers":3,"device":"touchpad","x":640,"y":360,"direction":"left","action":"key ctrl+alt+Left"}"#),
    Formatted(report(50, .swipe, .recognized, at: Point(x: 5.0004, y: -0.0001), direction: .downRight, edge: .left),
              #"{"t":50,"gesture":"swipe","phase":"recognized","fingers":1,"device":"touchscreen","x":5,"y":0,"direction":"down-right","edge":"left"}"#),
    Formatted(report(7, .pan, .changed, fingers: 2, at: Point(x: 100.12345, y: 200.5), edge: .top,
                     translation: Point(x: -12.3456, y: 0.0005), velocity: Point(x: 1500, y: -0.25)),
              #"{"t":7,"gesture":"pan","phase":"changed","fingers":2,"device":"touchscreen","x":100.123,"y":200.5,"edge":"top","dx":-12.346,"dy":0.001,"vx":1500,"vy":-0.25}"#),
    Formatted(report(8, .pinch, .ended, fingers: 2, .touchpad, direction: .in, scale: 0.66666), "key ctrl+minus",
              #"{"t":8,"gesture":"pinch","phase":"ended","fingers":2,"device":"touchpad","x":640,"y":360,"direction":"in","scale":0.667,"action":"key ctrl+minus"}"#),
    Formatted(report(9, .rotate, .began, fingers: 2, angle: -15.0004),
              #"{"t":9,"gesture":"rotate","phase":"began","fingers":2,"device":"touchscreen","x":640,"y":360,"angle":-15}"#),
    Formatted(report(10, .longPress, .cancelled, .pointer, at: Point(x: 1, y: 2)),
              #"{"t":10,"gesture":"long-press","phase":"cancelled","fingers":1,"device":"pointer","x":1,"y":2}"#),
    Formatted(report(11, .tap, .recognized, taps: 2), #"exec notify-send "a \ b" é"#,
              #"{"t":11,"gesture":"tap","phase":"recognized","fingers":1,"device":"touchscreen","x":640,"y":360,"taps":2,"action":"exec notify-send \"a \\ b\" é"}"#),
    Formatted(report(12, .tap, .recognized, at: Point(x: .nan, y: 0), taps: 1), "\u{1}\n",
              #"{"t":12,"gesture":"tap","phase":"recognized","fingers":1,"device":"touchscreen","x":null,"y":0,"taps":1,"action":"\u0001\n"}"#),
]

/// A stroke's report: the centre of its path's bounding box, its shape and score.
private func strokeReport(_ device: DeviceKind, score: Double) -> GestureReport {
    GestureReport(time: Instant(milliseconds: 13), gesture: .stroke, phase: .recognized, fingers: 1, device: device,
                  position: Point(x: 400.25, y: 300), shape: "circle", score: score)
}

private let strokeJSONLines: [Formatted] = [
    Formatted(strokeReport(.pointer, score: 0.91249), "key F5",
              #"{"t":13,"gesture":"stroke","phase":"recognized","fingers":1,"device":"pointer","x":400.25,"y":300,"shape":"circle","score":0.912,"action":"key F5"}"#),
    Formatted(strokeReport(.touchscreen, score: 0.9), nil,
              #"{"t":13,"gesture":"stroke","phase":"recognized","fingers":1,"device":"touchscreen","x":400.25,"y":300,"shape":"circle","score":0.9}"#),
]

private let humanLines: [Formatted] = [
    Formatted(strokeReport(.pointer, score: 0.9876), "→ key F5 (config.toml:2)",
              "13 ms  stroke recognized  on the mouse at (400.25, 300)  shape circle  score 0.988  → key F5 (config.toml:2)"),
    Formatted(report(1234.5, .swipe, .recognized, fingers: 3, .touchpad, direction: .left), "→ key ctrl+alt+Left (config.toml:12)",
              "1234.5 ms  swipe recognized  3 fingers on the touchpad at (640, 360)  direction left  → key ctrl+alt+Left (config.toml:12)"),
    Formatted(report(1000, .tap, .recognized, taps: 1), "no binding: tap with 1 finger",
              "1000 ms  tap recognized  1 finger on the touchscreen at (640, 360)  1 tap  no binding: tap with 1 finger"),
    Formatted(report(1000, .tap, .recognized, taps: 3),
              "1000 ms  tap recognized  1 finger on the touchscreen at (640, 360)  3 taps"),
    Formatted(report(7, .pan, .changed, fingers: 2, at: Point(x: 100.12345, y: 200.5), edge: .top,
                     translation: Point(x: -12.3456, y: 0), velocity: Point(x: 1500, y: -0.25)),
              "7 ms  pan changed  2 fingers on the touchscreen at (100.123, 200.5)  from the top edge  moved (-12.346, 0) px  velocity (1500, -0.25) px/s"),
    Formatted(report(8, .pinch, .ended, fingers: 2, .touchpad, direction: .out, scale: 1.5), "",
              "8 ms  pinch ended  2 fingers on the touchpad at (640, 360)  direction out  scale 1.5"),
    Formatted(report(9, .rotate, .changed, fingers: 2, angle: -22.5),
              "9 ms  rotate changed  2 fingers on the touchscreen at (640, 360)  angle -22.5°"),
    Formatted(report(10, .longPress, .began, .pointer, at: Point(x: 1, y: 2)), "→ click right (config.toml:3)",
              "10 ms  long-press began  on the mouse at (1, 2)  → click right (config.toml:3)"),
]

@Suite("Report formatter")
struct ReportFormatterTests {
    @Test("JSON lines carry exactly the documented fields", arguments: jsonLines + strokeJSONLines)
    fileprivate func json(_ line: Formatted) {
        #expect(ReportFormatter.json(line.report, action: line.extra) == line.expected)
    }

    @Test("human lines read well", arguments: humanLines)
    fileprivate func human(_ line: Formatted) {
        #expect(ReportFormatter.human(line.report, note: line.extra) == line.expected)
    }

    @Test("input passed on is a line of its own: when, the device, and the button or the touch", arguments: [
        (OwnershipDecision.pointer(button: 3, .release), 1250.5, #"{"t":1250.5,"event":"passed-on","device":"pointer","button":3}"#,
         "1250.5 ms  mouse button 3: not a gesture, passed on to the application"),
        (.touch(id: 17, .release), 9, #"{"t":9,"event":"passed-on","device":"touchscreen","id":17}"#,
         "9 ms  touch 17: not a gesture, passed on to the application"),
        (.touchpad(.release), 10, #"{"t":10,"event":"passed-on","device":"touchpad"}"#,
         "10 ms  touchpad gesture: no binding wants it, passed on to the application"),
    ])
    func passedOn(decision: OwnershipDecision, t: Double, json: String, human: String) {
        #expect(ReportFormatter.json(passedOn: decision, at: Instant(milliseconds: t)) == json)
        #expect(ReportFormatter.human(passedOn: decision, at: Instant(milliseconds: t), afterItsGesture: false) == human)
        // After the gesture it made, whose line says why: only what happened.
        let after = ReportFormatter.human(passedOn: decision, at: Instant(milliseconds: t), afterItsGesture: true)
        #expect(after.hasSuffix(": passed on to the application") && !after.contains("not a gesture"), "\(after)")
    }

    @Test("a phase no binding wanted has a no-binding line: the phase named, and why")
    func noBinding() {
        let swipe = report(1234, .swipe, .recognized, .pointer, direction: .up)
        #expect(ReportFormatter.json(noBinding: swipe, reason: #"no binding matches (bound here: swipe right at 5:1, on = "end")"#)
                == #"{"t":1234,"event":"no-binding","gesture":"swipe","phase":"recognized","fingers":1,"device":"pointer","reason":"no binding matches (bound here: swipe right at 5:1, on = \"end\")"}"#)
    }

    @Test("a pointer gesture is made on the mouse, not with a finger", arguments: [
        (DeviceKind.pointer, 1, "on the mouse", "on the mouse"), (.touchscreen, 1, "1 finger on the touchscreen", "with 1 finger on the touchscreen"),
        (.touchpad, 3, "3 fingers on the touchpad", "with 3 fingers on the touchpad"),
    ])
    func hands(device: DeviceKind, fingers: Int, alone: String, afterTheName: String) {
        let phase = report(1, .swipe, .recognized, fingers: fingers, device)
        #expect(ReportFormatter.hands(phase) == alone)
        #expect(ReportFormatter.hands(phase, with: true) == afterTheName)
    }

    @Test(
        "report numbers: 3 decimals, no trailing zeros, never -0",
        arguments: [
            (640.0, "640"), (0.5, "0.5"), (-12.345, "-12.345"), (-12.3454, "-12.345"), (-12.3456, "-12.346"),
            (1.23456, "1.235"), (0.0005, "0.001"), (-0.0005, "-0.001"), (0.0004, "0"), (-0.0004, "0"), (-0.0, "0"),
            (0.1 + 0.2, "0.3"), (100.05, "100.05"), (2.0 / 3, "0.667"), (-1e-9, "0"), (123456789.1234, "123456789.123"),
            (1e20, "1e+20"), (Double.infinity, "null"), (Double.nan, "null"),
        ]
    )
    func roundedNumbers(_ value: Double, _ expected: String) {
        #expect(JSONLiteral.number(value, decimals: 3) == expected)
    }

    @Test(
        "trace numbers: shortest exact form, whole numbers without a point",
        arguments: [
            (640.0, "640"), (-3.0, "-3"), (0.1, "0.1"), (-0.0, "0"), (1e-7, "1e-07"), (1.0 / 3, "0.3333333333333333"),
            (9_007_199_254_740_992, "9007199254740992"), (1e16, "1e+16"), (.leastNonzeroMagnitude, "5e-324"),
        ]
    )
    func exactNumbers(_ value: Double, _ expected: String) {
        #expect(JSONLiteral.number(value) == expected)
        #expect(Double(expected) == value)
    }

    @Test(
        "strings are JSON-escaped",
        arguments: [
            ("plain", #""plain""#), ("a\"b", #""a\"b""#), ("back\\slash", #""back\\slash""#),
            ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#), ("\u{0}\u{1F}", #""\u0000\u001F""#), ("é😀\u{7F}/", "\"é😀\u{7F}/\""),
        ]
    )
    func escapedStrings(_ text: String, _ expected: String) {
        #expect(JSONLiteral.string(text) == expected)
    }
}
