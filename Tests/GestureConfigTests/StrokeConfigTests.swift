import GestureEngine
import Testing

@testable import GestureConfig

private let circle = "[[bind]]\ngesture = \"stroke\"\nshape = \"circle\"\naction = \"key ctrl+r\"\n"

/// A stroke binding with the given lines after its `gesture` line (line 2).
private func strokeBind(_ lines: String...) -> String {
    "[[bind]]\ngesture = \"stroke\"\n" + lines.map { $0 + "\n" }.joined()
}

private let badStrokeConfigs: [BadConfig] = [
    BadConfig("stroke without a shape", strokeBind(#"action = "key a""#), at: "1:1", "missing 'shape' in a stroke binding"),
    BadConfig("unknown shape", strokeBind(#"shape = "cirle""#, #"action = "key a""#), at: "3:9",
              "unknown shape 'cirle'; did you mean 'circle'?"),
    BadConfig("empty shape", strokeBind(#"shape = """#, #"action = "key a""#), at: "3:9", "'shape' must not be empty"),
    BadConfig("shape on a swipe", "[[bind]]\ngesture = \"swipe\"\nshape = \"circle\"\naction = \"key a\"\n", at: "3:1",
              "'shape' does not apply to swipe"),
    BadConfig("two-finger stroke", strokeBind(#"shape = "v""#, "fingers = 2", #"action = "key a""#), at: "4:11",
              "a stroke is drawn with 1 finger (or the pointer), not 2"),
    BadConfig("touchpad stroke", strokeBind(#"shape = "v""#, #"device = "touchpad""#, #"action = "key a""#), at: "4:10",
              "a touchpad draws no stroke"),
    BadConfig("direction on a stroke", strokeBind(#"shape = "v""#, #"direction = "left""#, #"action = "key a""#), at: "4:1",
              "'direction' does not apply to stroke"),
    BadConfig("taps on a stroke", strokeBind(#"shape = "v""#, "taps = 2", #"action = "key a""#), at: "4:1",
              "'taps' does not apply to stroke"),
    BadConfig("edge on a stroke", strokeBind(#"shape = "v""#, #"edge = "left""#, #"action = "key a""#), at: "4:1",
              "'edge' does not apply to stroke"),
    BadConfig("on on a stroke", strokeBind(#"shape = "v""#, #"on = "end""#, #"action = "key a""#), at: "4:1",
              "'on' does not apply to stroke"),
    BadConfig("repeat_every on a stroke", strokeBind(#"shape = "v""#, "repeat_every = 5", #"action = "key a""#), at: "4:1",
              "'repeat_every' does not apply to stroke"),
    BadConfig("hold on a stroke", strokeBind(#"shape = "v""#, #"hold = "alt""#, #"action = "key a""#), at: "4:1",
              "'hold' does not apply to stroke"),
    BadConfig("duplicate stroke binding", circle + circle, at: "5:1", "duplicate binding: same as the one at 1:1"),
    BadConfig("stroke and pan on the same device", circle + "[[bind]]\ngesture = \"pan\"\naction = \"key b\"\n", at: "5:1",
              "this pan competes with the stroke at 1:1 for 1-finger gestures on the touchscreen and pointer"),
    BadConfig("a pan for any device and a pointer stroke",
              "[[bind]]\ngesture = \"pan\"\naction = \"key b\"\n" + strokeBind(#"shape = "v""#, #"device = "pointer""#, #"action = "key a""#),
              at: "4:1", "this stroke competes with the pan at 1:1 for 1-finger gestures on the pointer"),
    BadConfig("stroke_min_score above 1", "[recognizer]\nstroke_min_score = 1.5\n", at: "2:20",
              "'stroke_min_score' must be at most 1, not 1.5"),
    BadConfig("stroke_min_px of 0", "[recognizer.pointer]\nstroke_min_px = 0\n", at: "2:17", "'stroke_min_px' must be more than 0"),
    BadConfig("[shape] as a table", "[shape]\nname = \"l\"\n", at: "1:2", "write [[shape]], not [shape]"),
    BadConfig("shape without a name", "[[shape]]\npoints = [[0, 0], [0, 10]]\n", at: "1:1", "missing 'name' in [[shape]]"),
    BadConfig("shape without points", "[[shape]]\nname = \"l\"\n", at: "1:1", "missing 'points' in [[shape]]"),
    BadConfig("shape with an empty name", "[[shape]]\nname = \"\"\npoints = [[0, 0], [0, 10]]\n", at: "2:8",
              "a shape's 'name' must not be empty"),
    BadConfig("unknown shape key", "[[shape]]\nname = \"l\"\npoint = [[0, 0], [0, 10]]\n", at: "3:1",
              "unknown key 'point' in [[shape]]; did you mean 'points'?"),
    BadConfig("a point with three numbers", "[[shape]]\nname = \"l\"\npoints = [[0, 0], [0, 10, 3]]\n", at: "3:19",
              "each point is a pair of numbers [x, y], not 3 numbers"),
    BadConfig("a point that is a number", "[[shape]]\nname = \"l\"\npoints = [[0, 0], 7]\n", at: "3:19",
              "each point is a pair of numbers [x, y], not an integer"),
    BadConfig("a coordinate that is a string", "[[shape]]\nname = \"l\"\npoints = [[0, 0], [\"a\", 1]]\n", at: "3:20",
              "a point's coordinates are numbers, not a string"),
    BadConfig("a coordinate that is not finite", "[[shape]]\nname = \"l\"\npoints = [[0, 0], [1, inf]]\n", at: "3:23",
              "a point's coordinates must be finite"),
    BadConfig("one distinct point", "[[shape]]\nname = \"l\"\npoints = [[3, 4], [3, 4]]\n", at: "3:10",
              "a shape needs at least 2 different points, not only 3, 4"),
    BadConfig("points and templates", "[[shape]]\nname = \"l\"\npoints = [[0, 0], [0, 10]]\ntemplates = [[[0, 0], [0, 10]]]\n",
              at: "4:1", "a [[shape]] has 'points' (one way of drawing it) or 'templates' (several), not both"),
    BadConfig("templates that are not an array", "[[shape]]\nname = \"l\"\ntemplates = 3\n", at: "3:13",
              "'templates' must be an array of point lists ([[[x, y], ...], ...]), not an integer"),
    BadConfig("no templates", "[[shape]]\nname = \"l\"\ntemplates = []\n", at: "3:13", "a shape has 1 to 16 templates, not 0"),
    BadConfig("17 templates", "[[shape]]\nname = \"l\"\ntemplates = [" + Array(repeating: "[[0, 0], [0, 10]]", count: 17).joined(separator: ", ") + "]\n",
              at: "3:13", "a shape has 1 to 16 templates, not 17"),
    BadConfig("a template that is a point", "[[shape]]\nname = \"l\"\ntemplates = [[[0, 0], [0, 10]], [5, 6]]\n", at: "3:33",
              "each template is a list of [x, y] pairs, not one point: templates = [[[x, y], ...], ...]"),
    BadConfig("a template that is not a list", "[[shape]]\nname = \"l\"\ntemplates = [[[0, 0], [0, 10]], \"L\"]\n", at: "3:33",
              "each template must be an array of [x, y] pairs, not a string"),
    BadConfig("a bad coordinate in the second template", "[[shape]]\nname = \"l\"\ntemplates = [[[0, 0], [0, 10]], [[0, 0], [1, \"y\"]]]\n",
              at: "3:46", "a point's coordinates are numbers, not a string"),
    BadConfig("a template of one distinct point", "[[shape]]\nname = \"l\"\ntemplates = [[[0, 0], [0, 10]], [[2, 2], [2, 2]]]\n",
              at: "3:33", "a shape needs at least 2 different points, not only 2, 2"),
    BadConfig("a template of too many points", "[[shape]]\nname = \"l\"\ntemplates = [["
                  + (0...1000).map { "[\($0), 0]" }.joined(separator: ", ") + "]]\n",
              at: "3:14", "a template has at most 1000 points, not 1001"),
    BadConfig("two shapes with one name", "[[shape]]\nname = \"l\"\npoints = [[0, 0], [0, 10]]\n"
                  + "[[shape]]\nname = \"l\"\npoints = [[0, 0], [10, 0]]\n", at: "5:8",
              "duplicate shape 'l': already defined at 2:8"),
]

@Suite("Stroke config")
struct StrokeConfigTests {
    @Test("A bad stroke config is reported at the exact line and column", arguments: badStrokeConfigs)
    func reportsOneProblemAtItsPosition(_ bad: BadConfig) throws {
        try bad.expectOneProblemAtItsPosition()
    }

    @Test("A stroke binding names its shape; the thresholds default to the documented ones")
    func strokeBinding() throws {
        let config = try Config.parse(circle, file: "c.toml")
        let trigger = try #require(config.bindings.first?.trigger)
        #expect(trigger == Trigger(gesture: .stroke, shape: "circle"))
        #expect(config.settings.strokeMinScore == 0.80 && config.settings.strokeMinPx == 60)
        #expect(config.engineConfiguration.shapes == StrokeShape.builtIn)
    }

    @Test("Thresholds are read from [recognizer] and the device tables")
    func thresholds() throws {
        let config = try Config.parse(
            "[recognizer]\nstroke_min_score = 0.9\nstroke_min_px = 100\n[recognizer.pointer]\nstroke_min_px = 40\n" + circle,
            file: "c.toml")
        #expect(config.settings.strokeMinScore == 0.9 && config.settings.strokeMinPx == 100)
        let pointer = config.engineConfiguration.settings(for: .pointer)
        #expect(pointer.strokeMinScore == 0.9 && pointer.strokeMinPx == 40)
    }

    @Test("A [[shape]] after the bindings that use it is found; it may replace a built-in one")
    func configShapes() throws {
        let toml = strokeBind(#"shape = "L""#, #"action = "window close""#) + circle
            + "[[shape]]\nname = \"L\"\npoints = [[0, 0], [0, 100], [60, 100]]\n"
            + "[[shape]]\nname = \"circle\"\npoints = [[0, 0], [10.5, 20], [-3, 4]]\n"
        let config = try Config.parse(toml, file: "c.toml")
        #expect(config.shapes.map(\.name) == ["L", "circle"])
        let shapes = config.engineConfiguration.shapes
        #expect(shapes.count == StrokeShape.builtIn.count + 1)
        #expect(shapes.last == StrokeShape(name: "L", points: [Point(x: 0, y: 0), Point(x: 0, y: 100), Point(x: 60, y: 100)]))
        let replaced = try #require(shapes.first { $0.name == "circle" })
        #expect(replaced.points == [Point(x: 0, y: 0), Point(x: 10.5, y: 20), Point(x: -3, y: 4)])
    }

    @Test("A [[shape]] may have several templates, each a way of drawing it; one 'points' is one template")
    func shapeTemplates() throws {
        let toml = strokeBind(#"shape = "L""#, #"action = "window close""#)
            + "[[shape]]\nname = \"L\"\ntemplates = [\n  [[0, 0], [0, 100], [60, 100]],\n  [[0, 0], [5, 90], [70.5, 95]],\n]\n"
        let config = try Config.parse(toml, file: "c.toml")
        let shape = try #require(config.shapes.first)
        #expect(shape.templates == [
            [Point(x: 0, y: 0), Point(x: 0, y: 100), Point(x: 60, y: 100)],
            [Point(x: 0, y: 0), Point(x: 5, y: 90), Point(x: 70.5, y: 95)],
        ])
        #expect(shape.points == shape.templates[0])
        #expect(shape.tolerance == StrokeShape.defaultTolerance)
        let single = try Config.parse(strokeBind(#"shape = "L""#, #"action = "key a""#)
                                          + "[[shape]]\nname = \"L\"\npoints = [[0, 0], [0, 100], [60, 100]]\n", file: "c.toml")
        #expect(single.shapes.first?.templates == [[Point(x: 0, y: 0), Point(x: 0, y: 100), Point(x: 60, y: 100)]])
    }

    @Test("A stroke and a pan for different devices or apps do not compete")
    func separatedStrokeAndPan() throws {
        let toml = strokeBind(#"shape = "v""#, #"device = "pointer""#, #"action = "key a""#)
            + "[[bind]]\ngesture = \"pan\"\ndevice = \"touchscreen\"\napp = \"firefox\"\naction = \"key b\"\n"
            + strokeBind(#"shape = "x""#, #"app = "gimp""#, #"action = "key c""#)
            + "[[bind]]\ngesture = \"pan\"\nfingers = 3\naction = \"key d\"\n"
            + "[[bind]]\ngesture = \"pan\"\nfingers = 2\naction = \"key e\"\n"
        let config = try Config.parse(toml, file: "c.toml")
        #expect(config.bindings.count == 5)
    }

    @Test("A [[shape]] that no stroke binding names is valid but noted as having no effect")
    func unusedShapeNote() throws {
        let config = try Config.parse(circle + "[[shape]]\nname = \"L\"\npoints = [[0, 0], [0, 100]]\n", file: "c.toml")
        #expect(config.shapes.count == 1)
        #expect(config.notes.map(\.description) == [
            #"c.toml:6:8: [[shape]] 'L' has no effect: no stroke binding names it (add one with gesture = "stroke" and shape = "L")"#,
        ])
    }

    @Test("A [recognizer.touchpad] stroke threshold is valid but noted as having no effect")
    func touchpadStrokeThresholdNote() throws {
        let config = try Config.parse("[recognizer.touchpad]\nstroke_min_px = 80\n" + circle, file: "c.toml")
        #expect(config.notes.map(\.description) == [
            "c.toml:2:1: 'stroke_min_px' in [recognizer.touchpad] has no effect: a touchpad makes swipes, pans, pinches and "
                + "rotates, with the finger count the X server reports, and no edge gestures or strokes",
        ])
    }
}

@Suite("Stroke example in the default config")
struct DefaultConfigStrokeTests {
    @Test("The default config binds no stroke, and its commented stroke example is valid once uncommented")
    func commentedExample() throws {
        let defaults = try Config.parse(DefaultConfig.text, file: DefaultConfig.fileName)
        #expect(!defaults.bindings.contains { $0.trigger.gesture == .stroke })
        let lines = DefaultConfig.text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("# Strokes:") })
        var uncommented: [String] = []
        for line in lines[start...] {
            if line.isEmpty { break }
            let text = line.dropFirst(2)
            if text.hasPrefix("[[bind]]") || text.contains(" = ") { uncommented.append(String(text)) }
        }
        let example = try Config.parse(DefaultConfig.text + "\n" + uncommented.joined(separator: "\n") + "\n", file: "c.toml")
        let strokes = example.bindings.filter { $0.trigger.gesture == .stroke }.map { $0.trigger.shape }
        #expect(strokes == ["circle", "check"])
    }
}
