internal import CX11
public import GestureEngine

/// One RandR monitor (`XRRGetMonitors`, so `xrandr --setmonitor` ones included), in root pixels.
public struct RandRMonitor: Hashable, Sendable {
    /// The monitor's name as RandR gives it (`eDP-1`, `HDMI-1`, or a `--setmonitor` name).
    public var name: String
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// Whether RandR marks it primary.
    public var primary: Bool
    /// Physical width as shown (turned with the monitor), millimetres; 0 when it reports none.
    public var widthMm: Int
    /// Physical height as shown, millimetres; 0 when it reports none.
    public var heightMm: Int

    /// Creates a monitor.
    public init(name: String, x: Int, y: Int, width: Int, height: Int, primary: Bool = false, widthMm: Int = 0, heightMm: Int = 0) {
        self.name = name
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.primary = primary
        self.widthMm = widthMm
        self.heightMm = heightMm
    }

    /// `NAME W×H+X+Y`, with ` (primary)` when it is.
    public var summary: String { "\(name) \(width)×\(height)+\(x)+\(y)\(primary ? " (primary)" : "")" }
}

extension RandRMonitor {
    /// The monitor as the engine knows it, its physical size only where RandR reports one: the
    /// one place a RandR monitor's millimetres become a density (``Monitor/pixelsPerMillimetre``).
    public var monitor: Monitor {
        Monitor(name: name, x: x, y: y, width: width, height: height,
                widthMm: widthMm > 0 ? widthMm : nil, heightMm: heightMm > 0 ? heightMm : nil)
    }
}

extension X11Display {
    /// The active RandR monitors, in RandR's order; `nil` when the server has no RandR 1.5 (the
    /// caller then treats the whole root window as one monitor). An empty list means RandR lists
    /// no active monitor.
    ///
    /// A monitor's physical size is RandR's, but only where its outputs report one (or, for a
    /// `--setmonitor` monitor without outputs, where it was given): for an output that reports
    /// none the server makes one up from the screen's dots per inch, which says nothing.
    public func randrMonitors() throws(X11Error) -> [RandRMonitor]? {
        let root = root.rawValue
        let raw = try call("XRRGetMonitors") { handle -> [(name: Atom, x: Int32, y: Int32, width: Int32, height: Int32, primary: Bool, mm: (Int, Int))]? in
            var eventBase: Int32 = 0, errorBase: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
            guard XRRQueryExtension(handle, &eventBase, &errorBase) != 0,
                  XRRQueryVersion(handle, &major, &minor) != 0, (major, minor) >= (1, 5)
            else { return nil }
            var count: Int32 = 0
            guard let list = XRRGetMonitors(handle, root, 1, &count) else { return [] }
            defer { XRRFreeMonitors(list) }
            let sized = Self.outputsWithSize(handle, root: root, of: (0..<Int(count)).map { list[$0] })
            return (0..<Int(count)).map {
                let m = list[$0]
                let outputs = (0..<Int(m.noutput)).map { m.outputs[$0] }
                let known = outputs.isEmpty || outputs.contains(where: sized.contains)
                let mm = known && m.mwidth > 0 && m.mheight > 0 ? (Int(m.mwidth), Int(m.mheight)) : (0, 0)
                return (m.name, m.x, m.y, m.width, m.height, m.primary != 0, mm)
            }
        }
        guard let raw else { return nil }
        var monitors: [RandRMonitor] = []
        for (index, m) in raw.enumerated() {
            let name = (try? atomName(m.name)) ?? nil
            monitors.append(RandRMonitor(
                name: name ?? "monitor-\(index + 1)", x: Int(m.x), y: Int(m.y),
                width: Int(m.width), height: Int(m.height), primary: m.primary, widthMm: m.mm.0, heightMm: m.mm.1))
        }
        return monitors
    }

    /// Which outputs of `monitors` report a physical size (`XRRGetOutputInfo`).
    private static func outputsWithSize(_ handle: OpaquePointer, root: Window, of monitors: [XRRMonitorInfo]) -> Set<RROutput> {
        let outputs = Set(monitors.flatMap { m in (0..<Int(m.noutput)).map { m.outputs[$0] } })
        guard !outputs.isEmpty, let resources = XRRGetScreenResourcesCurrent(handle, root) else { return [] }
        defer { XRRFreeScreenResources(resources) }
        return outputs.filter { id in
            guard let info = XRRGetOutputInfo(handle, resources, id) else { return false }
            defer { XRRFreeOutputInfo(info) }
            return info.pointee.mm_width > 0 && info.pointee.mm_height > 0
        }
    }
}

extension X11Display {
    /// Asks for RandR's change events on the root window (screen changes, CRTC and output
    /// changes) and returns RandR's first event number; `nil` without RandR.
    ///
    /// RandR 1.5 has no event for its monitors: `xrandr --setmonitor` and `--delmonitor` were
    /// seen (Xvfb, xorg-server 21.1) to send only a root `ConfigureNotify` of the same size, so
    /// the capture refreshes the monitors on that too.
    func selectRandRChanges() -> Int32? {
        let root = root.rawValue
        return try? call("XRRSelectInput") { handle -> Int32? in
            var eventBase: Int32 = 0, errorBase: Int32 = 0
            guard XRRQueryExtension(handle, &eventBase, &errorBase) != 0 else { return nil }
            XRRSelectInput(handle, root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
            return eventBase
        }
    }

    /// The monitors gestures are judged on now (``MonitorLayout``); empty (one monitor, the
    /// whole screen) without RandR 1.5 or when RandR cannot be asked.
    public func gestureMonitors() -> [Monitor] {
        MonitorLayout.monitors(from: (try? randrMonitors()) ?? nil)
    }
}
