import Foundation
import Testing

/// `replay` with thresholds in millimetres (docs/config.md, «Distances in millimetres»): the
/// trace's monitors carry their physical size, so replay converts as the daemon did.
@Suite("replay: distances in millimetres")
struct MillimetreReplayTests {
    /// A 13" panel at 1280×800 (189 dpi) and a 16" monitor at 1280×800 (96 dpi) to its right;
    /// the same 100 px touch drag on each, then on a monitor that reports no size.
    static let trace = """
        {"t":0,"type":"screen","width":3840,"height":800,"monitors":[{"name":"panel","x":0,"y":0,"width":1280,"height":800,"width_mm":172,"height_mm":108},{"name":"external","x":1280,"y":0,"width":1280,"height":800,"width_mm":339,"height_mm":212},{"name":"tv","x":2560,"y":0,"width":1280,"height":800}]}
        {"t":100,"type":"touch-begin","id":1,"x":400,"y":400}
        {"t":150,"type":"touch-update","id":1,"x":450,"y":400}
        {"t":200,"type":"touch-update","id":1,"x":500,"y":400}
        {"t":210,"type":"touch-end","id":1,"x":500,"y":400}
        {"t":1000,"type":"touch-begin","id":2,"x":1680,"y":400}
        {"t":1050,"type":"touch-update","id":2,"x":1730,"y":400}
        {"t":1100,"type":"touch-update","id":2,"x":1780,"y":400}
        {"t":1110,"type":"touch-end","id":2,"x":1780,"y":400}
        {"t":2000,"type":"touch-begin","id":3,"x":2960,"y":400}
        {"t":2050,"type":"touch-update","id":3,"x":3010,"y":400}
        {"t":2100,"type":"touch-update","id":3,"x":3060,"y":400}
        {"t":2110,"type":"touch-end","id":3,"x":3060,"y":400}

        """

    static let binding = "\n[[bind]]\ngesture = \"swipe\"\ndirection = \"right\"\naction = \"key alt+Right\"\n"

    func replay(recognizer: String) throws -> [String] {
        let config = CLI.file("mm-\(abs(recognizer.hashValue)).toml", recognizer + Self.binding)
        let trace = CLI.file("mm.trace.jsonl", Self.trace)
        let result = try CLI.run(["--config", config, "replay", trace, "--json"])
        #expect(result.status == 0, "\(result.err)")
        return result.out.split(separator: "\n").map(String.init)
    }

    @Test("20 mm: 149 px on the panel, 76 px on the external monitor and, without a size, at 96 dpi on the TV")
    func swipeMinMillimetres() throws {
        #expect(try replay(recognizer: "[recognizer]\nswipe_min_mm = 20\n") == [
            // 100 px on the panel is 13 mm: no swipe, the touch goes back to the application.
            #"{"t":210,"event":"passed-on","device":"touchscreen","id":1}"#,
            #"{"t":1100,"gesture":"swipe","phase":"recognized","fingers":1,"device":"touchscreen","x":1780,"y":400,"direction":"right","monitor":"external","action":"key alt+Right"}"#,
            #"{"t":2100,"gesture":"swipe","phase":"recognized","fingers":1,"device":"touchscreen","x":3060,"y":400,"direction":"right","monitor":"tv","action":"key alt+Right"}"#,
        ])
    }

    @Test("in pixels, as before, the physical sizes change nothing")
    func pixels() throws {
        #expect(try replay(recognizer: "[recognizer]\nswipe_min_px = 80\n").count == 3)
        #expect(try replay(recognizer: "") == replay(recognizer: "[recognizer]\nswipe_min_px = 80\n"))
    }

    @Test("[recognizer.touchscreen] in pixels overrides [recognizer] in millimetres")
    func deviceTableOverrides() throws {
        #expect(try replay(recognizer: "[recognizer]\nswipe_min_mm = 20\n[recognizer.touchscreen]\nswipe_min_px = 80\n").count == 3)
    }
}
