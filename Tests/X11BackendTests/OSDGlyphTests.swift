import BridgeCore
import CX11
import Foundation
import GestureEngine
import GestureTestKit
import LogTestKit
import Logging
import Testing
@testable import X11Backend

/// The OSD's letters: rendered by `gesture-bridge --osd-glyphs` (fontconfig and FreeType run
/// there, never in the daemon), kept on the server as glyph sets, composited into the OSD.
@Suite("the OSD's glyphs")
struct OSDGlyphTests {
    static var renderer: [String] { [BuiltProducts.executable(named: "gesture-bridge"), "--osd-glyphs"] }

    @Test("the renderer's output is read back as written; output cut short or not its own is refused")
    func wireFormat() {
        let faces = [
            OSDGlyphs.Face(pixelSize: 17, ascent: 16, descent: 4, glyphs: [
                OSDGlyphs.Glyph(character: 0x41, width: 5, height: 2, x: 0, y: 2, xOff: 6, yOff: 0, alpha: Array(0..<16)),
                OSDGlyphs.Glyph(character: 0x20, width: 0, height: 0, x: 0, y: 0, xOff: 4, yOff: 0, alpha: []),
            ]),
            OSDGlyphs.Face(pixelSize: 33, ascent: 31, descent: 8, glyphs: []),
        ]
        let bytes = OSDGlyphs.encode(faces)
        #expect(OSDGlyphs.decode(bytes) == faces)
        #expect(OSDGlyphs.decode(Array(bytes.dropLast())) == nil)
        #expect(OSDGlyphs.decode(Array(bytes.prefix(30)) + Array("END.".utf8)) == nil)
        #expect(OSDGlyphs.decode(Array("hello".utf8)) == nil)
    }

    /// The OSD window shown on `client`'s screen and how many of its pixels are the text's white.
    private func shownOSD(_ client: XClient) -> (window: Window, frame: (x: Int, y: Int, width: Int, height: Int), white: Int)? {
        guard let window = client.feedbackWindows().first(where: { client.isMapped($0) && client.name(of: $0) == "gesture-bridge OSD" })
        else { return nil }
        var attributes = XWindowAttributes()
        XGetWindowAttributes(client.display, window, &attributes)
        let frame = (x: Int(attributes.x), y: Int(attributes.y), width: Int(attributes.width), height: Int(attributes.height))
        let shot = Screenshot(client)
        var white = 0
        for y in frame.y..<(frame.y + frame.height) {
            for x in frame.x..<(frame.x + frame.width) where shot[x, y] == 0xffffff { white += 1 }
        }
        return (window, frame, white)
    }

    /// The bounding box of `window`'s bounding shape (x, y, width, height), window coordinates.
    private func shapeBox(_ client: XClient, _ window: Window) -> (Int, Int, Int, Int)? {
        var count: Int32 = 0, ordering: Int32 = 0
        guard let rects = XShapeGetRectangles(client.display, window, ShapeBounding, &count, &ordering), count > 0 else { return nil }
        defer { XFree(rects) }
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for i in 0..<Int(count) {
            let r = rects[i]
            x0 = min(x0, Int(r.x)); y0 = min(y0, Int(r.y)); x1 = max(x1, Int(r.x) + Int(r.width)); y1 = max(y1, Int(r.y) + Int(r.height))
        }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    @Test("made ready for the config's characters before the first OSD, which then shows them; a character nobody prepared is still drawn")
    func preparedAndUnknownCharacters() throws {
        try XServer.with { server in
            let recording = RecordingLogHandler.Recording()
            let canvas = X11FeedbackCanvas(displayName: server.name, logger: RecordingLogHandler.logger(recording), glyphRenderer: Self.renderer)
            defer { canvas.close() }
            let words = "circle → key F5"
            canvas.prepare(characters: Set(words.unicodeScalars))
            // Taken at start-up (a warm fontconfig takes tens of milliseconds; a loaded machine
            // may leave it to the first OSDs).
            #expect(canvas.glyphJob == nil || canvas.glyphSets.isEmpty)
            let size = X11FeedbackCanvas.pixelSize(dpi: 96)
            show(words, on: canvas, size: size)
            let set = try #require(canvas.glyphSets[size])
            #expect(Set(set.advances.keys) == Set(words.unicodeScalars.map(\.value)))
            let client = try XClient(server.name)
            var shown = shownOSD(client)
            #expect(poll { shown = shownOSD(client); return shown != nil })
            let first = try #require(shown)
            // White letters on the plate, as wide as their advances.
            #expect(first.white > 100, "\(first.white) white pixels")
            let advance = words.unicodeScalars.reduce(0) { $0 + set.advances[$1.value]! }
            #expect(first.frame.width > advance && first.frame.width < advance + 3 * (set.ascent + set.descent))
            // The plate is the window's shape: all of it, nothing more.
            let box = try #require(shapeBox(client, first.window))
            #expect(box.0 == 0 && box.1 == 0 && abs(box.2 - first.frame.width) <= 1 && abs(box.3 - first.frame.height) <= 1, "\(box), \(first.frame)")

            // Not among the prepared characters: rendered when first shown, and drawn.
            canvas.hideOSD()
            show("Ж ✓ é", on: canvas, size: size)
            let grown = try #require(canvas.glyphSets[size])
            #expect(Set("Ж✓é".unicodeScalars.map(\.value)).isSubset(of: grown.advances.keys))
            var second = shownOSD(client)
            #expect(poll { second = shownOSD(client); return (second?.white ?? 0) > 20 })
            // Narrower words: the shape was set anew, not added to the last plate's.
            if let second, let box = shapeBox(client, second.window) {
                #expect(second.frame.width < first.frame.width && abs(box.2 - second.frame.width) <= 1, "\(box), \(second.frame)")
            }
            #expect(!recording.messages.contains { $0.level >= .warning }, "\(recording.messages)")
        }
    }

    @Test("on a monitor of another density the OSD's letters are of its size, rendered ahead with the others")
    func anotherDensity() throws {
        try XServer.with { server in
            // 96 dpi on the left, 192 on the right.
            try tool(server, "xrandr", "--setmonitor", "left", "640/169x800/212+0+0", "none")
            try tool(server, "xrandr", "--setmonitor", "right", "640/85x800/106+640+0", "none")
            let canvas = X11FeedbackCanvas(displayName: server.name, logger: RecordingLogHandler.logger(RecordingLogHandler.Recording()),
                                           glyphRenderer: Self.renderer)
            defer { canvas.close() }
            canvas.prepare(characters: Set("swipe right".unicodeScalars))
            let client = try XClient(server.name)
            canvas.showOSD("swipe right", near: Point(x: 100, y: 100))
            canvas.flush()
            var left: (window: Window, frame: (x: Int, y: Int, width: Int, height: Int), white: Int)? = nil
            #expect(poll { left = shownOSD(client); return left != nil })
            let sizes = canvas.glyphSets.keys.sorted()
            #expect(sizes.count == 2 && sizes[1] > sizes[0] * 3 / 2, "\(sizes): both monitors' sizes rendered by the one renderer at the start")
            canvas.showOSD("swipe right", near: Point(x: 900, y: 100))
            canvas.flush()
            var right: (window: Window, frame: (x: Int, y: Int, width: Int, height: Int), white: Int)? = nil
            #expect(poll { right = shownOSD(client); return (right?.frame.x ?? 0) >= 640 })
            let l = try #require(left), r = try #require(right)
            #expect(r.frame.height > l.frame.height * 3 / 2 && r.white > l.white * 2, "left \(l), right \(r)")
        }
    }

    /// Shows `words` until their glyphs are there: an OSD waits for a renderer at work only a
    /// moment (``X11FeedbackCanvas/osdGlyphWait``), and a loaded machine can take longer.
    private func show(_ words: String, on canvas: X11FeedbackCanvas, size: Int) {
        let wanted = Set(words.unicodeScalars.map(\.value))
        _ = poll(timeout: .seconds(15)) {
            canvas.showOSD(words, near: Point(x: 200, y: 200))
            canvas.flush()
            return canvas.glyphSets[size].map { wanted.isSubset(of: $0.advances.keys) } ?? false
        }
    }

    @Test("a renderer still at work does not hold the OSD, nor the loop behind it: that OSD is not shown, a later one is")
    func aSlowRenderer() throws {
        try XServer.with { server in
            let recording = RecordingLogHandler.Recording()
            // The real renderer, 3 s late: a fontconfig that builds its caches.
            let slow = ["/bin/sh", "-c", "sleep 3; exec \"$0\" \"$@\""] + Self.renderer
            let canvas = X11FeedbackCanvas(displayName: server.name, logger: RecordingLogHandler.logger(recording), glyphRenderer: slow)
            defer { canvas.close() }
            canvas.prepare(characters: Set("abc".unicodeScalars))
            #expect(canvas.glyphJob != nil, "start-up did not wait for it")
            canvas.showOSD("abc", near: Point(x: 200, y: 200))
            canvas.flush()
            #expect(canvas.glyphJob != nil && canvas.glyphSets.isEmpty, "the OSD waited for the renderer")
            let client = try XClient(server.name)
            #expect(shownOSD(client) == nil)
            let size = X11FeedbackCanvas.pixelSize(dpi: 96)
            show("abc", on: canvas, size: size)
            #expect(canvas.glyphJob == nil)
            #expect(poll { shownOSD(client) != nil }, "a later OSD is shown")
            let waits = recording.messages.map(\.message).filter { $0.contains("still being rendered") }
            #expect(waits.count == 1, "\(recording.messages)")
            #expect(!recording.messages.contains { $0.level >= .warning }, "\(recording.messages)")
        }
    }

    @Test("a renderer that fails: the OSD is not shown, said once, and not tried again for every OSD")
    func aFailingRenderer() throws {
        try XServer.with { server in
            let recording = RecordingLogHandler.Recording()
            let canvas = X11FeedbackCanvas(displayName: server.name, logger: RecordingLogHandler.logger(recording), glyphRenderer: ["/bin/false"])
            defer { canvas.close() }
            canvas.prepare(characters: Set("abc".unicodeScalars))
            for _ in 0..<3 {
                canvas.showOSD("abc", near: Point(x: 200, y: 200))
                canvas.flush()
            }
            #expect(canvas.glyphJob == nil && canvas.glyphSets.isEmpty)
            let lines = recording.messages.map(\.message).filter { $0.contains("OSD is not shown") }
            #expect(lines.count == 1, "\(recording.messages)")
            #expect(lines.first?.contains("status 1") == true, "\(lines)")
        }
    }
}
