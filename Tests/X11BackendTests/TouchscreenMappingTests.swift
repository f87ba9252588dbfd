import GestureConfig
import GestureEngine
import Glibc
import Testing

@testable import X11Backend

/// The Coordinate Transformation Matrix for an output, and which output `[touchscreen] output`
/// means (``TransformationMatrix``, ``TouchscreenMapping``).
@Suite("touchscreen mapping")
struct TouchscreenMappingTests {
    static let reflections: [(x: Bool, y: Bool)] = [(false, false), (true, false), (false, true), (true, true)]

    /// Where RandR shows the panel point (`u`, `v`) (0…1 on the panel as built), in root
    /// pixels: the panel's pixel turned counter-clockwise by the rotation's angle (the mode's
    /// rectangle moved back to the origin), then mirrored on the screen's axes, then placed.
    /// Computed with sines and cosines, apart from the matrix's table.
    static func randrShows(_ u: Double, _ v: Double, on p: OutputPlacement) -> (x: Double, y: Double) {
        let quarter = Double(OutputRotation.allCases.firstIndex(of: p.rotation)!)
        let turned = p.rotation == .left || p.rotation == .right
        let (modeWidth, modeHeight) = turned ? (Double(p.height), Double(p.width)) : (Double(p.width), Double(p.height))
        let angle = quarter * Double.pi / 2
        func rotate(_ x: Double, _ y: Double) -> (Double, Double) { (x * cos(angle) - y * sin(angle), x * sin(angle) + y * cos(angle)) }
        let corners = [(0.0, 0.0), (modeWidth, 0), (0, modeHeight), (modeWidth, modeHeight)].map(rotate)
        var (fx, fy) = rotate(u * modeWidth, v * modeHeight)
        fx -= corners.map(\.0).min()!
        fy -= corners.map(\.1).min()!
        if p.reflectX { fx = Double(p.width) - fx }
        if p.reflectY { fy = Double(p.height) - fy }
        return (Double(p.x) + fx, Double(p.y) + fy)
    }

    @Test("every point of the panel lands where RandR shows it, for every rotation and reflection", arguments: OutputRotation.allCases)
    func landsWhereShown(_ rotation: OutputRotation) {
        let turned = rotation == .left || rotation == .right
        for reflection in Self.reflections {
            let p = OutputPlacement(
                x: 1920, y: 120, width: turned ? 1080 : 1920, height: turned ? 1920 : 1080, rotation: rotation,
                reflectX: reflection.x, reflectY: reflection.y)
            let m = TransformationMatrix.mapping(onto: p, screenWidth: 3840, screenHeight: 2160)
            for u in stride(from: 0.0, through: 1, by: 0.25) {
                for v in stride(from: 0.0, through: 1, by: 0.25) {
                    let got = m.apply(u: u, v: v, screenWidth: 3840, screenHeight: 2160)
                    let want = Self.randrShows(u, v, on: p)
                    #expect(abs(got.x - want.x) < 0.01 && abs(got.y - want.y) < 0.01,
                            "\(p.summary) (\(u), \(v)): \(got) instead of \(want)")
                }
            }
            let area = m.coverage(screenWidth: 3840, screenHeight: 2160)
            #expect(abs(area.x - 1920) < 0.01 && abs(area.y - 120) < 0.01 && abs(area.width - Double(p.width)) < 0.01
                && abs(area.height - Double(p.height)) < 0.01)
        }
    }

    @Test("an output that is the whole screen, as built, is the identity; a half is a scale and an offset")
    func simplePlacements() {
        #expect(TransformationMatrix.mapping(onto: OutputPlacement(x: 0, y: 0, width: 1280, height: 800), screenWidth: 1280, screenHeight: 800) == .identity)
        let right = TransformationMatrix.mapping(onto: OutputPlacement(x: 1920, y: 0, width: 1920, height: 1080), screenWidth: 3840, screenHeight: 1080)
        #expect(right.values == [0.5, 0, 0.5, 0, 1, 0, 0, 0, 1])
        #expect(right.description == "0.5 0 0.5 0 1 0 0 0 1")
        let left = TransformationMatrix.mapping(onto: OutputPlacement(x: 0, y: 0, width: 800, height: 1280, rotation: .left), screenWidth: 800, screenHeight: 1280)
        #expect(left.description == "0 -1 1 1 0 0 0 0 1")
    }

    static func output(_ name: String, _ x: Int, width: Int = 1920, height: Int = 1080, mm: (Int, Int) = (0, 0), primary: Bool = false, on: Bool = true) -> RandROutput {
        RandROutput(name: name, placement: on ? OutputPlacement(x: x, y: 0, width: width, height: height) : nil,
                    widthMm: mm.0, heightMm: mm.1, primary: primary)
    }

    func chosen(_ request: TouchscreenOutput, _ outputs: [RandROutput], size: (width: Double, height: Double)? = nil) -> String {
        switch TouchscreenMapping.choose(request, among: outputs, deviceSizeMm: size) {
        case .success(let choice): "\(choice.output.name): \(choice.reason)"
        case .failure(let problem): "\(problem)"
        }
    }

    @Test("a named output: found when it shows something; absent or off, a problem that says so")
    func named() {
        let outputs = [Self.output("eDP-1", 0), Self.output("HDMI-1", 1920), Self.output("DP-1", 0, on: false)]
        #expect(chosen(.named("HDMI-1"), outputs) == "HDMI-1: as [touchscreen] output names it")
        #expect(chosen(.named("hdmi-1"), outputs) == #"there is no output named "hdmi-1" (outputs: eDP-1, HDMI-1, DP-1)"#)
        #expect(chosen(.named("DP-1"), outputs) == "the output DP-1 is off (it shows nothing)")
    }

    @Test("auto: the output the touchscreen's size matches (either way round), then the laptop's panel, then the primary, then the first")
    func automatic() {
        let panel = Self.output("eDP-1", 0, mm: (344, 194))
        let external = Self.output("HDMI-1", 1920, mm: (527, 296), primary: true)
        let touchMonitor = Self.output("DP-2", 3840, mm: (476, 268))
        let all = [panel, external, touchMonitor]
        #expect(chosen(.automatic, all, size: (475, 270)) == "DP-2: auto: its size is the touchscreen's")
        #expect(chosen(.automatic, all, size: (195, 343)) == "eDP-1: auto: its size is the touchscreen's")
        #expect(chosen(.automatic, all, size: (100, 60)) == "eDP-1: auto: the laptop's panel")
        #expect(chosen(.automatic, all) == "eDP-1: auto: the laptop's panel")
        #expect(chosen(.automatic, [Self.output("LVDS1", 0), external]) == "LVDS1: auto: the laptop's panel")
        #expect(chosen(.automatic, [external, touchMonitor]) == "HDMI-1: auto: the primary output")
        #expect(chosen(.automatic, [touchMonitor, Self.output("DP-3", 0)]) == "DP-2: auto: the first output")
        #expect(chosen(.automatic, [Self.output("eDP-1", 0, on: false), external]) == "HDMI-1: auto: the primary output")
        #expect(chosen(.automatic, [Self.output("eDP-1", 0, on: false)]) == "no output shows anything")
        // Two outputs of the touchscreen's size: the panel among them.
        let twin = Self.output("eDP-2", 1920, mm: (344, 194))
        #expect(chosen(.automatic, [Self.output("DP-4", 0, mm: (344, 194)), twin], size: (344, 194)) == "eDP-2: auto: its size is the touchscreen's, the laptop's panel")
    }

    @Test("the doctor counts the outputs a matrix covers a real part of")
    func covers() {
        let outputs = [Self.output("eDP-1", 0), Self.output("HDMI-1", 1920)]
        let screen = (width: 3840, height: 1080)
        #expect(Doctor.covers(.identity, outputs, screen: screen).map(\.name) == ["eDP-1", "HDMI-1"])
        let onPanel = TransformationMatrix.mapping(onto: outputs[0].placement!, screenWidth: 3840, screenHeight: 1080)
        #expect(Doctor.covers(onPanel, outputs, screen: screen).map(\.name) == ["eDP-1"])
    }

    @Test("the doctor's physical sizes: each monitor's density, and a warning only when millimetres are used and a size is missing")
    func physicalSizes() throws {
        let monitors = [
            Monitor(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, widthMm: 344, heightMm: 194),
            Monitor(name: "HDMI-1", x: 1920, y: 0, width: 1920, height: 1080),
        ]
        let pixels = Doctor.physicalSizes(of: monitors, config: Config())
        #expect(pixels.details == ["eDP-1: 344×194 mm, 5.58 px/mm (142 dpi)", "HDMI-1: no physical size (millimetres count at 96 dpi)"])
        #expect(pixels.warning == nil)
        let millimetres = try Config.parse("[recognizer]\nswipe_min_mm = 20\n", file: "c.toml")
        #expect(Doctor.physicalSizes(of: monitors, config: millimetres).warning
            == "the config gives distances in millimetres, but HDMI-1 reports no physical size: they count at 96 dpi there")
        // Millimetres for the touchpad alone count in pixels anyway.
        let touchpad = try Config.parse("[recognizer.touchpad]\nswipe_min_mm = 20\n", file: "c.toml")
        #expect(Doctor.physicalSizes(of: monitors, config: touchpad).warning == nil)
    }
}
