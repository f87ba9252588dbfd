internal import CX11
import GestureConfig
public import GestureEngine

extension X11FeedbackCanvas {
    /// The OSD's text size, in points: read at arm's length, the size of a window title.
    static let osdPoints = 12.0
    /// How far from where the gesture ended the OSD's corner is, in text heights: beside the
    /// finger or the pointer, not under it.
    static let osdOffset = 1.0
    /// The plate: near black, 90 % opaque (where a compositor blends), white text on it — the
    /// contrast is the same over a light or a dark background.
    static let plateColor = RGBAColor(red: 0x1c, green: 0x1c, blue: 0x1c, alpha: 0xe6)
    static let textColor = RGBAColor(red: 0xff, green: 0xff, blue: 0xff)

    public func showOSD(_ text: String, near point: Point) {
        guard let display = connected(), let server else { return }
        pump()
        let monitor = monitor(at: point) ?? OverlayMonitor(x: 0, y: 0, width: rootSize.width, height: rootSize.height, dpi: 96)
        let characters = text.unicodeScalars.map(\.value)
        guard let face = glyphSet(pixelSize: Self.pixelSize(dpi: monitor.dpi), for: characters), let mask = server.a8 else { return }
        let argb = compositing && server.argb != nil
        guard let window = overlay(&osdWindows, argb, argb: argb, role: .osd, name: "gesture-bridge OSD") else { return }
        if let shown = shownOSD, shown !== window { hide(shown) }

        attempt("OSD") { () throws(X11Error) in
            try display.call("draw the OSD") { handle in
                let advance = characters.reduce(0) { $0 + (face.advances[$1] ?? 0) }
                let ascent = face.ascent, lineHeight = face.ascent + face.descent
                let padX = lineHeight * 3 / 5, padY = lineHeight * 2 / 5
                let width = min(advance + 2 * padX, monitor.width)
                let height = lineHeight + 2 * padY
                // Beside where it ended, kept on that monitor.
                let offset = Int(Double(lineHeight) * Self.osdOffset)
                var x = Int(point.x.rounded()) + offset, y = Int(point.y.rounded()) + offset
                if x + width > monitor.x + monitor.width { x = Int(point.x.rounded()) - offset - width }
                if y + height > monitor.y + monitor.height { y = Int(point.y.rounded()) - offset - height }
                x = max(monitor.x, min(x, monitor.x + monitor.width - width))
                y = max(monitor.y, min(y, monitor.y + monitor.height - height))

                let plate = TrailGeometry.roundedRectangle(
                    x: 0, y: 0, width: Double(width), height: Double(height), radius: Double(lineHeight) / 3)
                let depth = window.argb ? Int32(32) : server.depth
                // Drawn into a pixmap that becomes the window's background: the server repaints
                // it whenever the OSD is uncovered, without a round trip to us.
                let pixmap = XCreatePixmap(handle, window.id, UInt32(width), UInt32(height), UInt32(depth))
                defer { XFreePixmap(handle, pixmap) }
                if let format = window.argb ? server.argb!.format : server.format {
                    let picture = XRenderCreatePicture(handle, pixmap, format, 0, nil)
                    defer { XRenderFreePicture(handle, picture) }
                    var clear = XRenderColor(red: 0, green: 0, blue: 0, alpha: 0)
                    XRenderFillRectangle(handle, Int32(PictOpSrc), picture, &clear, 0, 0, UInt32(width), UInt32(height))
                    var plateColor = server.renderColor(window.argb ? Self.plateColor : RGBAColor(red: Self.plateColor.red, green: Self.plateColor.green, blue: Self.plateColor.blue))
                    let fill = XRenderCreateSolidFill(handle, &plateColor)
                    defer { XRenderFreePicture(handle, fill) }
                    var doubles = plate.map { XPointDouble(x: $0.x, y: $0.y) }
                    XRenderCompositeDoublePoly(handle, Int32(PictOpOver), fill, picture, mask, 0, 0, 0, 0, &doubles, Int32(doubles.count), 0)
                    // The words: the glyphs on the server composited through their coverage,
                    // as Xft composites its own (no FreeType, no fontconfig here).
                    var textColor = server.renderColor(Self.textColor)
                    let ink = XRenderCreateSolidFill(handle, &textColor)
                    defer { XRenderFreePicture(handle, ink) }
                    var glyphs = characters
                    glyphs.withUnsafeMutableBufferPointer { buffer in
                        var run = XGlyphElt32(glyphset: face.id, chars: buffer.baseAddress, nchars: Int32(buffer.count),
                                              xOff: Int32(padX), yOff: Int32(padY + ascent))
                        XRenderCompositeText32(handle, Int32(PictOpOver), ink, picture, mask, 0, 0, Int32(padX), Int32(padY + ascent), &run, 1)
                    }
                }
                XSetWindowBackgroundPixmap(handle, window.id, pixmap)
                OverlayRegion.unite(plate, polygonsOf: plate.count, with: window.id, handle, operation: ShapeSet)
                XMoveResizeWindow(handle, window.id, Int32(x), Int32(y), UInt32(width), UInt32(height))
                window.width = width
                window.height = height
                if window.mapped { XClearWindow(handle, window.id) }
                XMapRaised(handle, window.id)
            }
        }
        window.mapped = true
        shownOSD = window
    }

    public func hideOSD() {
        guard let shown = shownOSD else { return }
        shownOSD = nil
        hide(shown)
    }

    /// The OSD's text size in pixels on a monitor of `dpi`: ``osdPoints`` there, 8 px at least.
    static func pixelSize(dpi: Double) -> Int { max(8, Int((osdPoints * dpi / 72).rounded())) }
}
