import GestureEngine
import Glibc

/// One drawing by a person: which shape, who drew it, how fast they were asked to, and where
/// the pen or mouse was and when.
public struct HumanStroke: Sendable {
    /// The shape's documented name (`left-square-bracket`), or the drawing's own name for a
    /// shape that is not built in (`question-mark`).
    public var shape: String
    /// Who drew it: the folder of their drawings (`s02`, `user04`).
    public var person: String
    /// `slow`, `medium` or `fast` as the person was asked, or `-` when not recorded.
    public var speed: String
    /// The file it was read from.
    public var file: String
    /// The points as drawn, in the drawing's pixels; `time` in seconds from the first point.
    public var samples: [StrokeSynth.Sample]

    public init(shape: String, person: String, speed: String, file: String, samples: [StrokeSynth.Sample]) {
        self.shape = shape
        self.person = person
        self.speed = speed
        self.file = file
        self.samples = samples
    }

    /// Whether the shape is one of the built-in ones.
    public var isBuiltIn: Bool { StrokeShape.builtIn.contains { $0.name == shape } }
}

/// Reading people's drawings in the XML of the unistroke logs published with the $1 recognizer
/// (Wobbrock, Wilson & Li, UIST 2007): one file per drawing, `<Gesture Name="arrow01" …>` with
/// `<Point X="…" Y="…" T="…"/>` in pixels and milliseconds.
///
/// Only for measuring (`stroke-accuracy human` in Benchmarks/) and for making test traces: the
/// drawings themselves are not part of the project.
public enum HumanStrokes {
    /// The study's folder names for the speeds.
    static let speeds = ["slow", "medium", "fast"]

    /// Every drawing under `directory` (recursively), sorted by file: a drawing's person is the
    /// folder above its speed folder (`s02/fast/arrow01.xml`), or its own folder
    /// (`user04/arrow1.xml`). Files that are not such drawings are skipped.
    public static func load(_ directory: String) -> [HumanStroke] {
        var strokes: [HumanStroke] = []
        walk(directory) { path in
            guard path.hasSuffix(".xml"), let bytes = FuzzCorpus.contents(of: path) else { return }
            let folders = path.split(separator: "/").dropLast().map(String.init)
            guard let folder = folders.last else { return }
            let speed = speeds.contains(folder) ? folder : "-"
            let person = speeds.contains(folder) ? folders.dropLast().last ?? folder : folder
            if let stroke = parse(String(decoding: bytes, as: UTF8.self), person: person, speed: speed, file: path) {
                strokes.append(stroke)
            }
        }
        return strokes.sorted { $0.file < $1.file }
    }

    /// One drawing from its XML; nil without a name or with fewer than 2 points.
    public static func parse(_ xml: String, person: String, speed: String, file: String) -> HumanStroke? {
        guard let gesture = element("Gesture", in: xml[...]), let rawName = attribute("Name", in: gesture) else { return nil }
        var samples: [StrokeSynth.Sample] = []
        var rest = xml[...]
        var start: Double?
        while let range = rest.firstRange(of: "<Point ") {
            rest = rest[range.upperBound...]
            guard let end = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<end]
            guard let x = attribute("X", in: tag).flatMap(Double.init), let y = attribute("Y", in: tag).flatMap(Double.init),
                  let t = attribute("T", in: tag).flatMap(Double.init) else { return nil }
            let origin = start ?? t
            start = origin
            samples.append(StrokeSynth.Sample(point: Point(x: x, y: y), time: (t - origin) / 1000))
        }
        guard samples.count >= 2 else { return nil }
        return HumanStroke(shape: shapeName(rawName), person: person, speed: speed, file: file, samples: samples)
    }

    /// The documented name of a drawing's gesture name (`left_sq_bracket07`, `pig tail01`).
    public static func shapeName(_ raw: String) -> String {
        var name = String(raw.reversed().drop { $0.isNumber }.reversed()).lowercased()
        name = String(name.map { $0 == "_" || $0 == " " ? "-" : $0 })
        let aliases = ["delete-mark": "delete", "left-sq-bracket": "left-square-bracket", "right-sq-bracket": "right-square-bracket",
                       "pig-tail": "pigtail", "zigzag": "zig-zag"]
        return aliases[name] ?? name
    }

    private static func element(_ name: String, in text: Substring) -> Substring? {
        guard let range = text.firstRange(of: "<" + name + " ") else { return nil }
        let rest = text[range.upperBound...]
        return rest[..<(rest.firstIndex(of: ">") ?? rest.endIndex)]
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let range = tag.firstRange(of: " " + name + "=\"") ?? (tag.hasPrefix(name + "=\"") ? tag.firstRange(of: name + "=\"") : nil) else {
            return nil
        }
        let rest = tag[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// Calls `body` with the path of every regular file under `directory`.
    private static func walk(_ directory: String, _ body: (String) -> Void) {
        guard let dir = opendir(directory) else { return }
        var entries: [(name: String, isDirectory: Bool)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            entries.append((name, entry.pointee.d_type == UInt8(DT_DIR)))
        }
        closedir(dir)
        for entry in entries.sorted(by: { $0.name < $1.name }) {
            let path = directory + "/" + entry.name
            if entry.isDirectory { walk(path, body) } else { body(path) }
        }
    }
}
