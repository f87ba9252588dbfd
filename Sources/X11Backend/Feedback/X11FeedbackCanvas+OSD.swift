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
        let pixels = max(8, Int((Self.osdPoints * monitor.dpi / 72).rounded()))
        guard let font = font(pixelSize: pixels) else { return }
        let argb = compositing && server.argb != nil
        guard let window = overlay(&osdWindows, argb, argb: argb, role: .osd, name: "gesture-bridge OSD") else { return }
        if let shown = shownOSD, shown !== window { hide(shown) }

        attempt("OSD") { () throws(X11Error) in
            try display.call("draw the OSD") { handle in
                let bytes = Array(text.utf8)
                var extents = XGlyphInfo()
                XftTextExtentsUtf8(handle, font, bytes, Int32(bytes.count), &extents)
                let ascent = Int(font.pointee.ascent), lineHeight = Int(font.pointee.ascent + font.pointee.descent)
                let padX = lineHeight * 3 / 5, padY = lineHeight * 2 / 5
                let width = min(Int(extents.xOff) + 2 * padX, monitor.width)
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
                let visual = window.argb ? server.argb!.visual : server.visual
                let colormap = window.argb ? server.argb!.colormap : server.colormap
                let depth = window.argb ? Int32(32) : server.depth
                // Drawn into a pixmap that becomes the window's background: the server repaints
                // it whenever the OSD is uncovered, without a round trip to us.
                let pixmap = XCreatePixmap(handle, window.id, UInt32(width), UInt32(height), UInt32(depth))
                defer { XFreePixmap(handle, pixmap) }
                if let format = window.argb ? server.argb!.format : server.format, let mask = server.a8 {
                    let picture = XRenderCreatePicture(handle, pixmap, format, 0, nil)
                    defer { XRenderFreePicture(handle, picture) }
                    var clear = XRenderColor(red: 0, green: 0, blue: 0, alpha: 0)
                    XRenderFillRectangle(handle, Int32(PictOpSrc), picture, &clear, 0, 0, UInt32(width), UInt32(height))
                    var plateColor = server.renderColor(window.argb ? Self.plateColor : RGBAColor(red: Self.plateColor.red, green: Self.plateColor.green, blue: Self.plateColor.blue))
                    let fill = XRenderCreateSolidFill(handle, &plateColor)
                    defer { XRenderFreePicture(handle, fill) }
                    var doubles = plate.map { XPointDouble(x: $0.x, y: $0.y) }
                    XRenderCompositeDoublePoly(handle, Int32(PictOpOver), fill, picture, mask, 0, 0, 0, 0, &doubles, Int32(doubles.count), 0)
                }
                if let draw = XftDrawCreate(handle, pixmap, visual, colormap) {
                    defer { XftDrawDestroy(draw) }
                    var value = server.renderColor(Self.textColor)
                    var color = XftColor()
                    if XftColorAllocValue(handle, visual, colormap, &value, &color) != 0 {
                        XftDrawStringUtf8(draw, &color, font, Int32(padX) - Int32(extents.x) + Int32(extents.x), Int32(padY + ascent), bytes, Int32(bytes.count))
                        XftColorFree(handle, visual, colormap, &color)
                    }
                }
                XSetWindowBackgroundPixmap(handle, window.id, pixmap)
                let region = XCreateRegion()
                defer { XDestroyRegion(region) }
                OverlayRegion.add(plate, to: region)
                XShapeCombineRegion(handle, window.id, ShapeBounding, 0, 0, region, ShapeSet)
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

    /// The OSD's font at `pixelSize` (opened at the first OSD: fontconfig reads its
    /// configuration then, which a run without an OSD never pays for).
    func font(pixelSize: Int) -> UnsafeMutablePointer<XftFont>? {
        if let font = fonts[pixelSize] { return font }
        guard let display, let server else { return nil }
        let font = try? display.call("XftFontOpenName") { XftFontOpenName($0, server.screen, "sans-serif:bold:pixelsize=\(pixelSize)") }
        guard let font = font ?? nil else {
            sayOnce("font", "no font for the on-screen words (fontconfig found no sans-serif font): the OSD is not shown")
            return nil
        }
        fonts[pixelSize] = font
        return font
    }

    func closeFonts() {
        guard let display else { return }
        for font in fonts.values { _ = try? display.call("XftFontClose") { XftFontClose($0, font) } }
        fonts = [:]
    }
}
