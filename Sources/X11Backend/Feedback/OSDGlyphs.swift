internal import CX11
#if canImport(Glibc)
import Glibc
#endif

/// The OSD's letters as pictures: each character's anti-aliased coverage (8-bit alpha) and
/// metrics at one pixel size, made with Xft and fontconfig by a short-lived process of its own
/// (`gesture-bridge --osd-glyphs`) and handed to the daemon, which keeps them on the X server as
/// a RENDER glyph set and draws the OSD's words by compositing them (docs/design.md,
/// «Feedback»; docs/performance.md, «Feedback»).
///
/// Why another process: opening a font reads fontconfig's configuration and font list into the
/// heap and pages in FreeType's, fontconfig's and expat's code — 3.6 MB resident for the minute
/// after an OSD, 0.9–1.2 MB for good. The daemon never runs that code: the renderer does, and
/// exits.
///
/// The renderer writes faces in the wire format of ``encode(_:)`` to its standard output.
///
/// ```swift
/// let bytes = OSDGlyphs.encode([face])
/// let faces = OSDGlyphs.decode(bytes)   // [face]
/// ```
public enum OSDGlyphs {
    /// One character at one size: what RENDER's `XGlyphInfo` says of it and its coverage, rows
    /// of ``stride`` bytes (RENDER's A8 glyphs are padded to 32 bits a row).
    public struct Glyph: Hashable, Sendable {
        public var character: UInt32
        public var width: UInt16
        public var height: UInt16
        /// From the glyph's origin to its picture's top-left corner, negated (as `XGlyphInfo`).
        public var x: Int16
        public var y: Int16
        /// The advance to the next glyph's origin.
        public var xOff: Int16
        public var yOff: Int16
        /// `height` rows of ``stride`` bytes.
        public var alpha: [UInt8]

        public var stride: Int { (Int(width) + 3) & ~3 }

        public init(character: UInt32, width: UInt16, height: UInt16, x: Int16, y: Int16, xOff: Int16, yOff: Int16, alpha: [UInt8]) {
            self.character = character
            self.width = width
            self.height = height
            self.x = x
            self.y = y
            self.xOff = xOff
            self.yOff = yOff
            self.alpha = alpha
        }
    }

    /// The font at one pixel size: its line's ascent and descent and the glyphs asked for.
    public struct Face: Hashable, Sendable {
        public var pixelSize: Int
        public var ascent: Int
        public var descent: Int
        public var glyphs: [Glyph]

        public init(pixelSize: Int, ascent: Int, descent: Int, glyphs: [Glyph]) {
            self.pixelSize = pixelSize
            self.ascent = ascent
            self.descent = descent
            self.glyphs = glyphs
        }
    }

    /// The OSD's font, as fontconfig names it (at a pixel size).
    static func fontName(pixelSize: Int) -> String { "sans-serif:bold:pixelsize=\(pixelSize)" }

    /// Why the renderer failed, as its exit status says it.
    public enum Failure: Int32, Error, Sendable, CustomStringConvertible {
        case usage = 64
        case noDisplay = 69
        case noFont = 70
        case noRender = 71

        public var description: String {
            switch self {
            case .usage: "the renderer was started wrongly"
            case .noDisplay: "the renderer could not open the display"
            case .noFont: "fontconfig found no sans-serif font"
            case .noRender: "the X server has no RENDER extension"
            }
        }
    }

    // MARK: - The wire format

    private static let magic: [UInt8] = Array("GBG1".utf8)
    private static let end: [UInt8] = Array("END.".utf8)

    /// `GBG1`, then per face its pixel size, ascent, descent and glyph count (32-bit), then per
    /// glyph its character (32-bit), width and height (16-bit unsigned), x, y, xOff, yOff (16-bit)
    /// and its rows; `END.` last, so that output cut short is told from a whole one. Native
    /// byte order: both ends are the same binary on the same machine.
    public static func encode(_ faces: [Face]) -> [UInt8] {
        var out = magic
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { out.append(contentsOf: $0) } }
        for face in faces {
            put(Int32(face.pixelSize))
            put(Int32(face.ascent))
            put(Int32(face.descent))
            put(Int32(face.glyphs.count))
            for g in face.glyphs {
                put(g.character)
                put(g.width)
                put(g.height)
                put(g.x)
                put(g.y)
                put(g.xOff)
                put(g.yOff)
                out.append(contentsOf: g.alpha)
            }
        }
        out.append(contentsOf: end)
        return out
    }

    /// The faces of ``encode(_:)``'s bytes; nil when they are not a whole output.
    public static func decode(_ bytes: [UInt8]) -> [Face]? {
        var at = 0
        func take<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard at + MemoryLayout<T>.size <= bytes.count else { return nil }
            var value = T.zero
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[at..<(at + MemoryLayout<T>.size)]) }
            at += MemoryLayout<T>.size
            return value
        }
        guard bytes.count >= magic.count + end.count, Array(bytes.prefix(magic.count)) == magic,
              Array(bytes.suffix(end.count)) == end else { return nil }
        at = magic.count
        let stop = bytes.count - end.count
        var faces: [Face] = []
        while at < stop {
            guard let size = take(Int32.self), let ascent = take(Int32.self), let descent = take(Int32.self),
                  let count = take(Int32.self), count >= 0 else { return nil }
            var glyphs: [Glyph] = []
            glyphs.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let character = take(UInt32.self), let width = take(UInt16.self), let height = take(UInt16.self),
                      let x = take(Int16.self), let y = take(Int16.self), let xOff = take(Int16.self), let yOff = take(Int16.self)
                else { return nil }
                var glyph = Glyph(character: character, width: width, height: height, x: x, y: y, xOff: xOff, yOff: yOff, alpha: [])
                let length = glyph.stride * Int(height)
                guard at + length <= stop else { return nil }
                glyph.alpha = Array(bytes[at..<(at + length)])
                at += length
                glyphs.append(glyph)
            }
            faces.append(Face(pixelSize: Int(size), ascent: Int(ascent), descent: Int(descent), glyphs: glyphs))
        }
        return at == stop ? faces : nil
    }

    // MARK: - Rendering (the renderer process)

    /// Renders `characters` at each of `pixelSizes` with Xft on `displayName` (nil: `$DISPLAY`),
    /// as the OSD drew them itself before: the same font, its own hinting and anti-aliasing,
    /// a character the font lacks drawn as the font's missing-glyph box.
    public static func render(displayName: String?, pixelSizes: [Int], characters: [UInt32]) throws(Failure) -> [Face] {
        guard let display = XOpenDisplay(displayName) else { throw .noDisplay }
        defer { XCloseDisplay(display) }
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XRenderQueryExtension(display, &eventBase, &errorBase) != 0 else { throw .noRender }
        let screen = XDefaultScreen(display)
        let root = XRootWindow(display, screen)
        var faces: [Face] = []
        for size in pixelSizes {
            guard let font = XftFontOpenName(display, screen, fontName(pixelSize: size)) else { throw .noFont }
            defer { XftFontClose(display, font) }
            var glyphs: [Glyph] = []
            glyphs.reserveCapacity(characters.count)
            for character in characters {
                var index = XftCharIndex(display, font, character)
                var info = XGlyphInfo()
                XftGlyphExtents(display, font, &index, 1, &info)
                var glyph = Glyph(character: character, width: info.width, height: info.height, x: info.x, y: info.y,
                                  xOff: info.xOff, yOff: info.yOff, alpha: [])
                glyph.alpha = coverage(display, root: root, font: font, index: index, glyph: glyph)
                glyphs.append(glyph)
            }
            faces.append(Face(pixelSize: size, ascent: Int(font.pointee.ascent), descent: Int(font.pointee.descent), glyphs: glyphs))
        }
        return faces
    }

    /// The glyph drawn by Xft into an 8-bit pixmap of its size and read back: its coverage,
    /// rows of `glyph.stride` bytes.
    private static func coverage(_ display: OpaquePointer, root: Window, font: UnsafeMutablePointer<XftFont>, index: FT_UInt, glyph: Glyph) -> [UInt8] {
        let width = Int(glyph.width), height = Int(glyph.height)
        var rows = [UInt8](repeating: 0, count: glyph.stride * height)
        guard width > 0, height > 0 else { return rows }
        let pixmap = XCreatePixmap(display, root, UInt32(width), UInt32(height), 8)
        defer { XFreePixmap(display, pixmap) }
        guard let draw = XftDrawCreateAlpha(display, pixmap, 8) else { return rows }
        defer { XftDrawDestroy(draw) }
        var clear = XRenderColor(red: 0, green: 0, blue: 0, alpha: 0)
        XRenderFillRectangle(display, Int32(PictOpSrc), XftDrawPicture(draw), &clear, 0, 0, UInt32(width), UInt32(height))
        var color = XftColor(pixel: 0, color: XRenderColor(red: 0xffff, green: 0xffff, blue: 0xffff, alpha: 0xffff))
        var glyphIndex = index
        // The origin where the picture's corner falls on the pixmap's.
        XftDrawGlyphs(draw, &color, font, Int32(glyph.x), Int32(glyph.y), &glyphIndex, 1)
        guard let image = XGetImage(display, pixmap, 0, 0, UInt32(width), UInt32(height), UInt(bitPattern: -1), ZPixmap) else { return rows }
        defer { _ = image.pointee.f.destroy_image(image) }  // XDestroyImage is a macro
        let line = Int(image.pointee.bytes_per_line)
        let data = UnsafeRawPointer(image.pointee.data!).assumingMemoryBound(to: UInt8.self)
        for row in 0..<height {
            for column in 0..<width { rows[row * glyph.stride + column] = data[row * line + column] }
        }
        return rows
    }
}
