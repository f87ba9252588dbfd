internal import CX11
public import BridgeCore
public import GestureEngine
import Glibc
public import Logging

/// The on-screen feedback drawn on the X server (docs/config.md, «Feedback»): a trail window
/// per device and an OSD window, on a connection of their own.
///
/// **Overlays that take nothing.** Each window is override-redirect (no window manager frames,
/// lists — it is never in `_NET_CLIENT_LIST` — or focuses it; its `WM_HINTS` say it takes no
/// input), and its input shape is empty (SHAPE 1.1): every click and touch goes to the window
/// below, while it is shown and after. Its bounding shape is what it draws (the line, the
/// OSD's plate), so that nothing else of it ever covers the screen.
///
/// **With a compositor, without one.** While `_NET_WM_CM_S<screen>` has an owner (followed with
/// XFIXES as compositors start and stop), a trail is a 32-bit ARGB window around the path
/// (``TrailFrame``), transparent but for the line, drawn anti-aliased and translucent with RENDER; without
/// one, it is a window of the screen's visual whose bounding shape is the line itself and whose
/// background is the trail's colour (opaque: only a compositor can blend). The OSD is a dark
/// plate with white text (Xft), readable on light and dark backgrounds, its size from the DPI
/// of the monitor it is shown on. Its letters are glyphs kept on the server, rendered by a
/// process of their own (``OSDGlyphs``): fontconfig and FreeType never run in the daemon.
///
/// **Its own connection.** Drawing requests and their errors never mix with the capture's and
/// the performer's; the connection's events (the compositor's selection, the screen's size and
/// RandR changes) are read when drawing, not by the loop, so an idle daemon is not woken by them.
/// Nothing here can stop gestures: a failed connection, a lost compositor, a monitor change or
/// an X error is logged once, and drawing goes on where it can — an overlay another client
/// destroyed is made again, a connection another client closed (`xkill`) is opened again at
/// the next gesture (docs/reliability.md).
///
/// ```swift
/// let canvas = X11FeedbackCanvas(displayName: nil, logger: logger, glyphRenderer: ["/usr/bin/gesture-bridge", "--osd-glyphs"])
/// canvas.prepare(characters: FeedbackText.characters(in: config))
/// canvas.drawTrail(.pointer, points: path[...], style: style, begins: true)
/// canvas.flush()
/// ```
public final class X11FeedbackCanvas: FeedbackCanvas {
    let displayName: String?
    let logger: Logger
    /// The OSD's glyph renderer's command without its request (``OSDGlyphs``); nil: no OSD.
    let glyphRenderer: [String]?
    var display: X11Display?
    /// When connecting failed last, or the connection was lost twice within
    /// ``reconnectDelay``: tried again once that much has passed.
    private var failedAt: ContinuousClock.Instant? = nil
    /// How long to wait before connecting again after a failure or a second loss in a row:
    /// long enough that a server refusing connections, or a client killing every overlay it
    /// sees, costs a connection attempt per 10 s at most, not one per gesture.
    private static let reconnectDelay = Duration.seconds(10)
    /// When the connection was lost last (another client killed it, `xkill` on an overlay).
    private var lostAt: ContinuousClock.Instant? = nil
    /// Problems already logged (each once).
    private var said: Set<String> = []
    /// The first request of the windows in use: an error of an earlier request is about
    /// windows already forgotten (and the destruction of them), not news.
    private var windowsSince: UInt = 0

    /// The server's extensions and formats, found once per connection.
    var server: OverlayServer? = nil
    /// A compositor owns `_NET_WM_CM_S<screen>`.
    private(set) var compositing = false
    var rootSize = (width: 1, height: 1)
    /// The monitors with their DPI, read when first needed after a change.
    private var monitorCache: [OverlayMonitor]? = nil
    private var refreshInterval: Duration? = nil

    /// Each device's trail window (one per kind of window: ARGB or shaped), created when first used.
    private var trailWindows: [TrailKey: OverlayWindow] = [:]
    /// The trail on the screen per device, and how it is drawn.
    private var shownTrails: [DeviceKind: ShownTrail] = [:]
    /// The OSD windows (ARGB or shaped).
    var osdWindows: [Bool: OverlayWindow] = [:]
    var shownOSD: OverlayWindow? = nil
    /// The OSD's glyphs on the server by pixel size.
    var glyphSets: [Int: OSDGlyphSet] = [:]
    /// The characters an OSD of the config can show (``prepare(characters:)``).
    var wantedCharacters: Set<UInt32> = []
    /// The renderer started and not collected yet.
    var glyphJob: OSDGlyphJob? = nil
    /// Why the OSD's glyphs cannot be had, once the renderer failed: not started again.
    var glyphsUnavailable: String? = nil

    private struct TrailKey: Hashable {
        var device: DeviceKind
        var argb: Bool
    }

    private struct ShownTrail {
        var window: OverlayWindow
        var style: TrailStyle
        /// The line's half width, px.
        var radius: Double
        /// Where the window lies (root pixels): around the path, grown as it leaves it.
        var frame: TrailFrame
        /// The path drawn so far, for drawing it again when the window grows (its contents
        /// and shape are in the window's coordinates).
        var path: [Point]
        /// What the last frame drew (root pixels).
        var lastFrame: TrailFrame.Box

        /// How far around its points the line reaches: its half width, the anti-aliased edge.
        var reach: Double { Self.reach(radius: radius, argb: window.argb) }

        static func reach(radius: Double, argb: Bool) -> Double { radius + (argb ? 1 : 0) }
    }

    /// - Parameters:
    ///   - displayName: the display; nil for `$DISPLAY` (the daemon's own).
    ///   - logger: where problems are said, once each.
    ///   - glyphRenderer: the command that renders the OSD's glyphs, without its request
    ///     (`gesture-bridge --osd-glyphs`, ``OSDGlyphs``); nil: the OSD is not shown.
    public init(displayName: String?, logger: Logger, glyphRenderer: [String]?) {
        self.displayName = displayName
        self.logger = logger
        self.glyphRenderer = glyphRenderer
    }

    deinit { close() }

    // MARK: - FeedbackCanvas

    public var frameInterval: Duration {
        if let refreshInterval { return refreshInterval }
        guard let display = connected() else { return .milliseconds(16) }
        let hz = (try? display.call("XRRGetScreenResourcesCurrent") { OverlayMonitor.fastestRefresh($0, root: display.root.rawValue) }) ?? nil
        // 60 Hz when the server says nothing (Xvfb's modes have no clock).
        let interval = Duration.microseconds(Int64(1_000_000 / max(hz ?? 60, 1)))
        refreshInterval = interval
        return interval
    }

    public func prepare(characters: Set<Unicode.Scalar>) {
        guard connected() != nil else { return }
        pump()
        _ = frameInterval
        prepareGlyphs(characters)
    }

    public func drawTrail(_ device: DeviceKind, points: ArraySlice<Point>, style: TrailStyle, begins: Bool) {
        // What happened since the last gesture first (a compositor gone, a window destroyed by
        // another client, the connection killed): the new trail is drawn as things are now.
        if begins { pump() }
        guard let display = connected(), let server else { return }
        if begins {
            if let old = shownTrails.removeValue(forKey: device) { hide(old.window) }
            let argb = compositing && server.argb != nil
            guard let window = overlay(&trailWindows, TrailKey(device: device, argb: argb), argb: argb, role: .trail,
                                       name: "gesture-bridge trail (\(device.rawValue))")
            else { return }
            let scale = monitor(at: points.first ?? Point.zero)?.scale ?? 1
            let radius = max(0.5, style.width * scale / 2)
            let drawn = TrailFrame.bounds(of: points, reach: ShownTrail.reach(radius: radius, argb: window.argb))
            let frame = TrailFrame(around: drawn, within: rootSize)
            let trail = ShownTrail(window: window, style: style, radius: radius, frame: frame, path: Array(points), lastFrame: drawn)
            shownTrails[device] = trail
            attempt("trail begin") { () throws(X11Error) in
                try display.call("map the trail") { handle in
                    // Unmapped, it moves without a repaint; nothing of it covers the screen
                    // until the line is drawn.
                    place(window, at: frame, handle)
                    if !window.argb { XSetWindowBackground(handle, window.id, server.pixel(style.color)) }
                    XMapRaised(handle, window.id)
                }
            }
            window.mapped = true
            draw(trail, points, on: display, server: server)
        } else if var trail = shownTrails[device] {
            // The slice begins with the last point drawn before.
            trail.path.append(contentsOf: points.dropFirst())
            let bounds = TrailFrame.bounds(of: points, reach: trail.reach)
            trail.lastFrame = bounds
            guard !trail.frame.contains(bounds, within: rootSize) else {
                shownTrails[device] = trail
                return draw(trail, points, on: display, server: server)
            }
            // The path left the window: it grows around it, and the whole path is drawn
            // again in the window's new coordinates.
            trail.frame = trail.frame.grown(toContain: bounds, within: rootSize)
            trail.lastFrame = TrailFrame.bounds(of: trail.path, reach: trail.reach)
            shownTrails[device] = trail
            let (window, frame) = (trail.window, trail.frame)
            attempt("trail grows") { () throws(X11Error) in
                try display.call("move the trail") { handle in place(window, at: frame, handle) }
            }
            draw(trail, trail.path[...], on: display, server: server)
        }
    }

    /// Moves and sizes `window` to `frame`, its bounding shape emptied (what it showed was in
    /// its old coordinates).
    private func place(_ window: OverlayWindow, at frame: TrailFrame, _ handle: OpaquePointer) {
        XMoveResizeWindow(handle, window.id, Int32(frame.x), Int32(frame.y), UInt32(frame.width), UInt32(frame.height))
        window.width = frame.width
        window.height = frame.height
        XShapeCombineRectangles(handle, window.id, ShapeBounding, 0, 0, nil, 0, ShapeSet, Unsorted)
    }

    public func settleTrail(_ device: DeviceKind) {
        // Only a compositor shows the window's contents later than they are drawn: a shaped
        // window's pixels are the screen's at once.
        guard let trail = shownTrails[device], trail.window.argb, let display else { return }
        let (window, frame, box) = (trail.window, trail.frame, trail.lastFrame)
        let x = max(0, box.minX - frame.x), y = max(0, box.minY - frame.y)
        let width = min(frame.width, box.maxX - frame.x) - x, height = min(frame.height, box.maxY - frame.y) - y
        guard width > 0, height > 0 else { return }
        attempt("trail settles") { () throws(X11Error) in
            try display.call("show the trail's last frame again") { handle in
                // Copied onto itself: the same pixels, damaged again, so that the compositor
                // repaints them.
                guard let gc = XCreateGC(handle, window.id, 0, nil) else { return }
                XCopyArea(handle, window.id, window.id, gc, Int32(x), Int32(y), UInt32(width), UInt32(height), Int32(x), Int32(y))
                XFreeGC(handle, gc)
            }
        }
    }

    public func endTrail(_ device: DeviceKind) {
        guard let trail = shownTrails.removeValue(forKey: device) else { return }
        hide(trail.window)
    }

    public func flush() {
        guard let display, !display.isConnectionLost else { return }
        display.flush()
        // Errors of what was drawn before: read with the events, said once each.
        pump()
    }

    public func close() {
        guard let display, !display.isConnectionLost else {
            self.display = nil
            return
        }
        for window in trailWindows.values { _ = try? display.call("XDestroyWindow") { XDestroyWindow($0, window.id) } }
        for window in osdWindows.values { _ = try? display.call("XDestroyWindow") { XDestroyWindow($0, window.id) } }
        freeGlyphSets()
        glyphJob = nil
        trailWindows = [:]
        osdWindows = [:]
        shownTrails = [:]
        shownOSD = nil
        try? display.sync()
        self.display = nil
        server = nil
    }

    // MARK: - Drawing the trail

    /// The line through `points`: a capsule per segment (a dot for a lone point), added to the
    /// window's bounding shape in one step (the frame's capsules filled into a bitmap the
    /// server unites with the shape; with a pixel of margin on an ARGB window, for the
    /// anti-aliased edge) and, on an ARGB window, drawn anti-aliased and translucent in one
    /// RENDER request (each capsule a fan of triangles).
    private func draw(_ trail: ShownTrail, _ points: ArraySlice<Point>, on display: X11Display, server: OverlayServer) {
        let window = trail.window
        // In the window's coordinates. Points closer than half a pixel to the last one kept
        // add nothing to the picture.
        let origin = Point(x: Double(trail.frame.x), y: Double(trail.frame.y))
        var kept: [Point] = []
        kept.reserveCapacity(points.count)
        for p in points where kept.last.map({ $0.distance(to: p - origin) >= 0.5 }) ?? true { kept.append(p - origin) }
        if let last = points.last, kept.count > 1, kept.last != last - origin { kept[kept.count - 1] = last - origin }
        let segments = kept.count > 1 ? Array(zip(kept, kept.dropFirst())) : kept.map { ($0, $0) }
        let margin = trail.reach - trail.radius
        var shape: [Point] = []
        shape.reserveCapacity(segments.count * 26)
        for (a, b) in segments { TrailGeometry.appendCapsule(from: a, to: b, radius: trail.radius + margin, to: &shape) }
        let perCapsule = shape.count / max(segments.count, 1)
        attempt("trail") { () throws(X11Error) in
            try display.call("draw the trail") { handle in
                OverlayRegion.unite(shape, polygonsOf: perCapsule, with: window.id, handle)
                guard window.argb, let picture = window.picture, let mask = server.a8 else { return }
                var triangles: [XTriangle] = []
                triangles.reserveCapacity(segments.count * 24)
                var outline: [Point] = []
                for (a, b) in segments {
                    outline.removeAll(keepingCapacity: true)
                    TrailGeometry.appendCapsule(from: a, to: b, radius: trail.radius, to: &outline)
                    for k in 1..<(outline.count - 1) {
                        triangles.append(XTriangle(p1: Self.fixed(outline[0]), p2: Self.fixed(outline[k]), p3: Self.fixed(outline[k + 1])))
                    }
                }
                var color = server.renderColor(trail.style.color)
                let fill = XRenderCreateSolidFill(handle, &color)
                defer { XRenderFreePicture(handle, fill) }
                // Conjoint over: where this frame's line lies on what was drawn before (the
                // join), the alpha is the larger of the two, not their sum, so a translucent
                // line stays even.
                XRenderCompositeTriangles(handle, Int32(PictOpConjointOver), fill, picture, mask, 0, 0, &triangles, Int32(triangles.count))
            }
        }
    }

    /// RENDER's 16.16 fixed point.
    private static func fixed(_ p: Point) -> XPointFixed {
        XPointFixed(x: XFixed(clamping: Int64((p.x * 65536).rounded())), y: XFixed(clamping: Int64((p.y * 65536).rounded())))
    }

    func hide(_ window: OverlayWindow) {
        guard window.mapped, let display else { return }
        window.mapped = false
        attempt("hide") { () throws(X11Error) in try display.call("XUnmapWindow") { _ = XUnmapWindow($0, window.id) } }
    }

    // MARK: - The connection and its events

    /// The connection, opened (and set up) on first use and again after it was lost; nil while
    /// it cannot be.
    func connected() -> X11Display? {
        if let display {
            if !display.isConnectionLost { return display }
            dropLostConnection()
        }
        if let failedAt, ContinuousClock.now - failedAt < Self.reconnectDelay { return nil }
        do {
            let opened = try X11Display(name: displayName)
            opened.onConnectionLost { _ in }
            display = opened
            server = try OverlayServer(opened)
            compositing = server?.compositorOwner(opened) ?? false
            rootSize = opened.rootSize
            windowsSince = nextRequest(opened)
            logger.debug("on-screen feedback ready", metadata: ["compositor": "\(compositing)", "argb": "\(server?.argb != nil)"])
            return opened
        } catch {
            failedAt = .now
            display = nil
            server = nil
            sayOnce("connect", "no on-screen feedback: \(error)")
            return nil
        }
    }

    /// Forgets a connection the server closed (a client killed it: `xkill` on an overlay, or
    /// `XKillClient`) and everything made on it; one line says so. The next use opens another,
    /// at once the first time, after ``reconnectDelay`` when it was lost again so soon.
    private func dropLostConnection() {
        let now = ContinuousClock.now
        let again = lostAt.map { now - $0 < Self.reconnectDelay } ?? false
        lostAt = now
        if again { failedAt = now }
        logger.warning(
            "the on-screen feedback's connection to the X server was closed (was an overlay killed?); gestures go on, and it is drawn again \(again ? "in 10 s" : "from the next gesture")")
        // The glyph sets, pictures and windows went with the connection; nothing of them may be
        // used on the next one (the glyphs are rendered again when an OSD needs them).
        glyphSets = [:]
        trailWindows = [:]
        osdWindows = [:]
        shownTrails = [:]
        shownOSD = nil
        monitorCache = nil
        refreshInterval = nil
        server = nil
        display = nil
    }

    /// The serial number of the next request on `display`.
    private func nextRequest(_ display: X11Display) -> UInt {
        (try? display.call("XNextRequest") { UInt(XNextRequest($0)) }) ?? 0
    }

    /// Reads what the server sent the feedback connection: the compositor's selection changing
    /// hands, the screen's size and monitors changing, a window of ours destroyed by another
    /// client, and the errors of earlier drawing.
    func pump() {
        guard let display, !display.isConnectionLost, let server else { return }
        while let event = display.nextEvent() {
            let type = event.type
            if type == DestroyNotify {
                // Another client destroyed one of ours (our own destructions forgot them first).
                forget(window: event.xdestroywindow.window)
            } else if let base = server.fixesEventBase, type == base + XFixesSelectionNotify {
                let owner = withUnsafePointer(to: event) { $0.withMemoryRebound(to: XFixesSelectionNotifyEvent.self, capacity: 1) { $0.pointee.owner } }
                let now = owner != 0
                if now != compositing {
                    compositing = now
                    logger.info(now ? "a compositor started: trails are drawn translucent" : "the compositor stopped: trails are drawn as shaped windows")
                }
            } else if let base = server.randrEventBase, type == base + RRScreenChangeNotify || type == base + RRNotify {
                var copy = event
                XRRUpdateConfiguration(&copy)
                noteScreenChange()
            } else if type == ConfigureNotify, event.xconfigure.window == display.root.rawValue {
                noteScreenChange()
            }
        }
        // Errors of requests sent before the windows in use were made are about windows already
        // forgotten: no news.
        let errors = display.takeAsynchronousErrors().filter { $0.serial >= windowsSince }
        guard let first = errors.first else { return }
        for error in errors { logger.debug("X error in on-screen feedback: \(error)") }
        sayOnce("x-error \(first.code)", "an X error in on-screen feedback, its windows are made again (gestures go on): \(first)")
        // A window of ours may be what failed: made again when next needed. One named as no
        // window any more is not destroyed again.
        let gone = Set(errors.filter { $0.code == .badWindow || $0.code == .badDrawable }.map(\.resource))
        forgetWindows(except: gone)
    }

    private func noteScreenChange() {
        guard let display else { return }
        monitorCache = nil
        refreshInterval = nil
        let size = display.rootSize
        if size != rootSize { sayOnce("screen", "the screen changed: the on-screen feedback follows it", level: .info) }
        rootSize = size
    }

    /// Drops the windows (after an X error about one): made again when next needed. Those in
    /// `gone` are destroyed already; the others are destroyed here.
    private func forgetWindows(except gone: Set<Window>) {
        guard let display else { return }
        for window in Array(trailWindows.values) + Array(osdWindows.values) where !gone.contains(window.id) {
            _ = try? display.call("XDestroyWindow") { XDestroyWindow($0, window.id) }
        }
        trailWindows = [:]
        osdWindows = [:]
        shownTrails = [:]
        shownOSD = nil
        windowsSince = nextRequest(display)
    }

    /// Drops `window` if it is one of ours (another client destroyed it): made again when next
    /// needed.
    private func forget(window: Window) {
        guard trailWindows.values.contains(where: { $0.id == window }) || osdWindows.values.contains(where: { $0.id == window }),
              let display
        else { return }
        sayOnce("destroyed", "an overlay of the on-screen feedback was destroyed by another client: it is made again (gestures go on)")
        trailWindows = trailWindows.filter { $0.value.id != window }
        osdWindows = osdWindows.filter { $0.value.id != window }
        shownTrails = shownTrails.filter { $0.value.window.id != window }
        if shownOSD?.id == window { shownOSD = nil }
        // The errors of what was sent to it meanwhile are this news, not another.
        windowsSince = nextRequest(display)
    }

    /// The monitors with their DPI (RandR, read after each change); one screen-sized monitor
    /// at 96 dpi without RandR.
    var monitors: [OverlayMonitor] {
        if let monitorCache { return monitorCache }
        guard let display else { return [] }
        let read = ((try? display.randrMonitors()) ?? nil)?.map(OverlayMonitor.init)
        let list = read.flatMap { $0.isEmpty ? nil : $0 } ?? [OverlayMonitor(x: 0, y: 0, width: rootSize.width, height: rootSize.height, dpi: 96)]
        monitorCache = list
        return list
    }

    /// The monitor `p` is on (the smallest that holds it), else the nearest.
    func monitor(at p: Point) -> OverlayMonitor? {
        let list = monitors
        let holding = list.filter { $0.contains(p) }.min { $0.width * $0.height < $1.width * $1.height }
        return holding ?? list.min { $0.distance(to: p) < $1.distance(to: p) }
    }

    /// Runs a drawing step; a failure is said once and the step skipped.
    func attempt(_ what: String, _ body: () throws(X11Error) -> Void) {
        do throws(X11Error) {
            try body()
        } catch .connectionLost {
            // Said once, when the connection is next wanted (``dropLostConnection()``).
        } catch {
            sayOnce("fail \(what)", "on-screen feedback (\(what)) failed, gestures go on: \(error)")
        }
    }

    /// Logs `message` the first time `key` comes up.
    func sayOnce(_ key: String, _ message: String, level: Logger.Level = .warning) {
        guard said.insert(key).inserted else { return }
        logger.log(level: level, "\(message)")
    }

    /// The window of `windows` at `key`, made when there is none yet.
    func overlay<Key: Hashable>(
        _ windows: inout [Key: OverlayWindow], _ key: Key, argb: Bool, role: OverlayWindow.Role, name: String
    ) -> OverlayWindow? {
        if let existing = windows[key] { return existing }
        let made = makeWindow(argb: argb, role: role, name: name)
        windows[key] = made
        return made
    }

    /// Makes an overlay window: override-redirect, input-transparent, shaped.
    private func makeWindow(argb: Bool, role: OverlayWindow.Role, name: String) -> OverlayWindow? {
        guard let display, let server else { return nil }
        var made: OverlayWindow? = nil
        attempt("window") { () throws(X11Error) in
            made = try display.call("create an overlay window") { handle in
                OverlayWindow.create(handle, server: server, root: display.root.rawValue, argb: argb, role: role, name: name,
                                     width: rootSize.width, height: rootSize.height)
            }
        }
        return made
    }
}
