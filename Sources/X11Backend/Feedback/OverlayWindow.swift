internal import CX11
import GestureConfig
import GestureEngine

/// What the feedback connection found on its server once: SHAPE (required), RENDER, an ARGB
/// visual for a compositor, XFIXES and RandR events, the atoms its windows are labelled with.
struct OverlayServer {
    let screen: Int32
    /// The screen's own visual (a shaped window without a compositor).
    let visual: UnsafeMutablePointer<Visual>
    let colormap: Colormap
    let depth: Int32
    /// RENDER's format for the screen's visual.
    let format: UnsafeMutablePointer<XRenderPictFormat>?
    /// A 32-bit TrueColor visual with alpha, its format and a colormap for it; nil without RENDER.
    let argb: (visual: UnsafeMutablePointer<Visual>, format: UnsafeMutablePointer<XRenderPictFormat>, colormap: Colormap)?
    /// RENDER's 8-bit alpha format: the mask anti-aliased shapes are drawn through.
    let a8: UnsafeMutablePointer<XRenderPictFormat>?
    let fixesEventBase: Int32?
    let randrEventBase: Int32?
    /// `_NET_WM_CM_S<screen>`: owned by the running compositor.
    let compositorSelection: Atom
    let windowType: Atom
    let windowTypeDND: Atom
    let windowTypeNotification: Atom

    init(_ display: X11Display) throws(X11Error) {
        let root = display.root.rawValue
        let screen = display.screen
        self.screen = screen
        let found = try display.call("overlay set-up") { handle -> (Bool, OverlayServer.Parts) in
            var eventBase: Int32 = 0, errorBase: Int32 = 0
            let shape = XShapeQueryExtension(handle, &eventBase, &errorBase) != 0
            var parts = Parts()
            parts.visual = XDefaultVisual(handle, screen)
            parts.colormap = XDefaultColormap(handle, screen)
            parts.depth = XDefaultDepth(handle, screen)
            if XRenderQueryExtension(handle, &eventBase, &errorBase) != 0 {
                parts.format = XRenderFindVisualFormat(handle, parts.visual)
                parts.a8 = XRenderFindStandardFormat(handle, Int32(PictStandardA8))
                var info = XVisualInfo()
                if XMatchVisualInfo(handle, screen, 32, TrueColor, &info) != 0, let visual = info.visual,
                   let format = XRenderFindVisualFormat(handle, visual), format.pointee.direct.alphaMask != 0 {
                    parts.argb = (visual, format, XCreateColormap(handle, root, visual, AllocNone))
                }
            }
            if XFixesQueryExtension(handle, &eventBase, &errorBase) != 0 {
                parts.fixesEventBase = eventBase
            }
            parts.selection = XInternAtom(handle, "_NET_WM_CM_S\(screen)", 0)
            parts.windowType = XInternAtom(handle, "_NET_WM_WINDOW_TYPE", 0)
            parts.windowTypeDND = XInternAtom(handle, "_NET_WM_WINDOW_TYPE_DND", 0)
            parts.windowTypeNotification = XInternAtom(handle, "_NET_WM_WINDOW_TYPE_NOTIFICATION", 0)
            if parts.fixesEventBase != nil {
                let mask = UInt(XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask | XFixesSelectionClientCloseNotifyMask)
                XFixesSelectSelectionInput(handle, root, parts.selection, mask)
            }
            // The root's own size changes (not its children's).
            XSelectInput(handle, root, StructureNotifyMask)
            return (shape, parts)
        }
        guard found.0 else { throw .failed("the X server has no SHAPE extension (needed for overlays that take no input)", display: display.name) }
        let parts = found.1
        visual = parts.visual!
        colormap = parts.colormap
        depth = parts.depth
        format = parts.format
        argb = parts.argb
        a8 = parts.a8
        fixesEventBase = parts.fixesEventBase
        randrEventBase = display.selectRandRChanges()
        compositorSelection = parts.selection
        windowType = parts.windowType
        windowTypeDND = parts.windowTypeDND
        windowTypeNotification = parts.windowTypeNotification
    }

    /// What the set-up call finds, before it becomes the server's description.
    struct Parts {
        var visual: UnsafeMutablePointer<Visual>? = nil
        var colormap: Colormap = 0
        var depth: Int32 = 24
        var format: UnsafeMutablePointer<XRenderPictFormat>? = nil
        var argb: (visual: UnsafeMutablePointer<Visual>, format: UnsafeMutablePointer<XRenderPictFormat>, colormap: Colormap)? = nil
        var a8: UnsafeMutablePointer<XRenderPictFormat>? = nil
        var fixesEventBase: Int32? = nil
        var selection: Atom = 0
        var windowType: Atom = 0
        var windowTypeDND: Atom = 0
        var windowTypeNotification: Atom = 0
    }

    /// Whether a compositor owns its selection now (a round trip: at set-up; then XFIXES says).
    func compositorOwner(_ display: X11Display) -> Bool {
        let selection = compositorSelection
        return ((try? display.call("XGetSelectionOwner") { XGetSelectionOwner($0, selection) }) ?? 0) != 0
    }

    /// The screen visual's pixel for `color` (its alpha left out: without a compositor nothing
    /// blends).
    func pixel(_ color: RGBAColor) -> UInt {
        let v = visual.pointee
        func place(_ channel: UInt8, _ mask: UInt) -> UInt {
            guard mask != 0 else { return 0 }
            let shift = UInt(mask.trailingZeroBitCount)
            let bits = UInt((mask >> shift).nonzeroBitCount)
            return (UInt(channel) >> (8 - min(8, bits))) << shift & mask
        }
        return place(color.red, v.red_mask) | place(color.green, v.green_mask) | place(color.blue, v.blue_mask)
    }

    /// `color` as RENDER takes it: 16 bits a channel, premultiplied by its alpha.
    func renderColor(_ color: RGBAColor) -> XRenderColor {
        let a = UInt32(color.alpha)
        func channel(_ c: UInt8) -> UInt16 { UInt16(UInt32(c) * 257 * a / 255) }
        return XRenderColor(red: channel(color.red), green: channel(color.green), blue: channel(color.blue), alpha: UInt16(a * 257))
    }
}

/// One overlay window: override-redirect, labelled as the feedback's, an empty input shape.
final class OverlayWindow {
    enum Role {
        /// A trail: around its path (``TrailFrame``), typed as a drag-and-drop icon (what compositors
        /// leave without a shadow or a fade).
        case trail
        /// The OSD: typed as a notification.
        case osd
    }

    let id: Window
    /// 32-bit ARGB (a compositor blends it) rather than the screen's visual.
    let argb: Bool
    /// RENDER's picture of the window (an ARGB trail draws through it).
    let picture: Picture?
    var width: Int
    var height: Int
    var mapped = false

    private init(id: Window, argb: Bool, picture: Picture?, width: Int, height: Int) {
        self.id = id
        self.argb = argb
        self.picture = picture
        self.width = width
        self.height = height
    }

    /// Creates it unmapped, with nothing in its bounding shape.
    static func create(
        _ handle: OpaquePointer, server: OverlayServer, root: Window, argb: Bool, role: Role, name: String, width: Int, height: Int
    ) -> OverlayWindow {
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = 0
        attributes.border_pixel = 0
        var mask = UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel)
        var depth = Int32(CopyFromParent)
        var visual: UnsafeMutablePointer<Visual>? = nil
        let useARGB = argb ? server.argb : nil
        if let useARGB {
            attributes.colormap = useARGB.colormap
            mask |= UInt(CWColormap)
            depth = 32
            visual = useARGB.visual
        }
        let id = XCreateWindow(handle, root, 0, 0, UInt32(max(1, width)), UInt32(max(1, height)), 0, depth, UInt32(InputOutput), visual, mask, &attributes)
        // Its destruction by another client is told (DestroyNotify): made again at the next use.
        XSelectInput(handle, id, StructureNotifyMask)
        // Clicks and touches go through it: its input shape is empty.
        XShapeCombineRectangles(handle, id, ShapeInput, 0, 0, nil, 0, ShapeSet, Unsorted)
        XShapeCombineRectangles(handle, id, ShapeBounding, 0, 0, nil, 0, ShapeSet, Unsorted)
        XStoreName(handle, id, name)
        "gesture-bridge".withCString { instance in
            "GestureBridge".withCString { className in
                var hint = XClassHint(res_name: UnsafeMutablePointer(mutating: instance), res_class: UnsafeMutablePointer(mutating: className))
                XSetClassHint(handle, id, &hint)
            }
        }
        // It never asks for the keyboard.
        var hints = XWMHints()
        hints.flags = InputHint
        hints.input = 0
        XSetWMHints(handle, id, &hints)
        var type = CLong(bitPattern: UInt(role == .trail ? server.windowTypeDND : server.windowTypeNotification))
        withUnsafeBytes(of: &type) { bytes in
            _ = XChangeProperty(handle, id, server.windowType, XA_ATOM, 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        var picture: Picture? = nil
        if let useARGB, role == .trail {
            picture = XRenderCreatePicture(handle, id, useARGB.format, 0, nil)
        }
        return OverlayWindow(id: id, argb: useARGB != nil, picture: picture, width: width, height: height)
    }
}

/// Regions of outlines, for bounding shapes.
enum OverlayRegion {
    /// Adds the convex polygons of `outlines` (each `size` points, root pixels) to `window`'s
    /// bounding shape in one request: filled into a bitmap of their bounding box, which the
    /// server unites with the shape (uniting polygon regions one by one on this side grows
    /// quadratically with a frame's segments). With `operation` `ShapeSet`, they become the
    /// shape (the OSD's plate). Xlib's own regions are not used: their code is pages the
    /// daemon would keep resident after every OSD (docs/performance.md, «Feedback»).
    static func unite(_ outlines: [Point], polygonsOf size: Int, with window: Window, _ handle: OpaquePointer, operation: Int32 = ShapeUnion) {
        guard size >= 3, outlines.count >= size else { return }
        // Their pixels, with one to spare on each side (the trail's window is placed the same way).
        let box = TrailFrame.bounds(of: outlines, reach: 0)
        let x0 = box.minX, y0 = box.minY
        let width = max(1, box.maxX - x0), height = max(1, box.maxY - y0)
        let bitmap = XCreatePixmap(handle, window, UInt32(width), UInt32(height), 1)
        defer { XFreePixmap(handle, bitmap) }
        guard let gc = XCreateGC(handle, bitmap, 0, nil) else { return }
        defer { XFreeGC(handle, gc) }
        XSetForeground(handle, gc, 0)
        XFillRectangle(handle, bitmap, gc, 0, 0, UInt32(width), UInt32(height))
        XSetForeground(handle, gc, 1)
        var points = [XPoint](repeating: XPoint(), count: size)
        var start = 0
        while start + size <= outlines.count {
            for k in 0..<size {
                let p = outlines[start + k]
                points[k] = XPoint(x: Int16(clamping: Int(p.x.rounded()) - x0), y: Int16(clamping: Int(p.y.rounded()) - y0))
            }
            XFillPolygon(handle, bitmap, gc, &points, Int32(size), Convex, CoordModeOrigin)
            start += size
        }
        XShapeCombineMask(handle, window, ShapeBounding, Int32(x0), Int32(y0), bitmap, operation)
    }
}

/// A monitor as the feedback sizes things on it: its rectangle and its DPI.
struct OverlayMonitor: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// Dots per inch, from RandR's millimetres; 96 when it gives none.
    var dpi: Double

    /// How much larger than on a 96 dpi monitor things are drawn here (never smaller).
    var scale: Double { max(1, dpi / 96) }

    func contains(_ p: Point) -> Bool {
        p.x >= Double(x) && p.y >= Double(y) && p.x < Double(x + width) && p.y < Double(y + height)
    }

    func distance(to p: Point) -> Double {
        let dx = max(Double(x) - p.x, 0, p.x - Double(x + width))
        let dy = max(Double(y) - p.y, 0, p.y - Double(y + height))
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The highest refresh rate among the active CRTCs (Hz), nil when none says.
    static func fastestRefresh(_ handle: OpaquePointer, root: Window) -> Double? {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XRRQueryExtension(handle, &eventBase, &errorBase) != 0,
              let resources = XRRGetScreenResourcesCurrent(handle, root)
        else { return nil }
        defer { XRRFreeScreenResources(resources) }
        let r = resources.pointee
        var fastest: Double? = nil
        for c in 0..<Int(r.ncrtc) {
            guard let crtc = XRRGetCrtcInfo(handle, resources, r.crtcs[c]) else { continue }
            defer { XRRFreeCrtcInfo(crtc) }
            let mode = crtc.pointee.mode
            guard mode != 0 else { continue }
            for m in 0..<Int(r.nmode) where r.modes[m].id == mode {
                let info = r.modes[m]
                guard info.dotClock > 0, info.hTotal > 0, info.vTotal > 0 else { continue }
                let hz = Double(info.dotClock) / (Double(info.hTotal) * Double(info.vTotal))
                if hz > (fastest ?? 0) { fastest = hz }
            }
        }
        return fastest
    }
}

extension OverlayMonitor {
    /// The densities the feedback sizes its text for: outside them (a TV across a room, a
    /// phone-dense panel) 96 dpi reads better than the physical size.
    static let readableDPI: ClosedRange<Double> = 48...480

    /// A RandR monitor with its DPI: the density the engine converts millimetres with
    /// (``Monitor/pixelsPerMillimetre``: none for a size that makes no sense — a projector's 0,
    /// a virtual output's 1), 96 when it has none or one outside ``readableDPI``.
    init(_ m: RandRMonitor) {
        let dpi = m.monitor.pixelsPerMillimetre.map { $0 * 25.4 } ?? 96
        self.init(x: m.x, y: m.y, width: m.width, height: m.height, dpi: Self.readableDPI.contains(dpi) ? dpi : 96)
    }
}
