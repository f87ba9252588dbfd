internal import CX11

/// How a CRTC turns what it shows (RandR's rotation): the direction the picture's top is
/// turned to on the panel.
public enum OutputRotation: String, CaseIterable, Hashable, Sendable {
    /// `RR_Rotate_0`: as the panel is built.
    case normal
    /// `RR_Rotate_90` (`xrandr --rotate left`): the picture's top along the panel's left side.
    case left
    /// `RR_Rotate_180`: upside down.
    case inverted
    /// `RR_Rotate_270` (`xrandr --rotate right`): the picture's top along the panel's right side.
    case right
}

/// Where an output's CRTC puts it on the screen: its rectangle in root pixels (turned as it is
/// shown) and how its picture is turned and mirrored.
public struct OutputPlacement: Hashable, Sendable {
    public var x: Int
    public var y: Int
    /// Width on the screen, root pixels (a panel turned to portrait is narrow).
    public var width: Int
    /// Height on the screen, root pixels.
    public var height: Int
    public var rotation: OutputRotation
    /// `RR_Reflect_X`: mirrored left to right (after the rotation, on the screen).
    public var reflectX: Bool
    /// `RR_Reflect_Y`: mirrored top to bottom (after the rotation, on the screen).
    public var reflectY: Bool

    public init(x: Int, y: Int, width: Int, height: Int, rotation: OutputRotation = .normal, reflectX: Bool = false, reflectY: Bool = false) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.rotation = rotation
        self.reflectX = reflectX
        self.reflectY = reflectY
    }

    /// `W×H+X+Y`, with the rotation and reflection when there are any (`800×1280+0+0 left`).
    public var summary: String {
        var text = "\(width)×\(height)+\(x)+\(y)"
        if rotation != .normal { text += " \(rotation.rawValue)" }
        if reflectX || reflectY { text += " reflected \(reflectX ? "X" : "")\(reflectY ? "Y" : "")" }
        return text
    }
}

/// One RandR output (`XRRGetOutputInfo`): a connector, its physical size and, while it shows
/// something, its placement.
public struct RandROutput: Hashable, Sendable {
    /// The name `xrandr` lists (`eDP-1`, `HDMI-1`).
    public var name: String
    /// Something is plugged in (RandR says connected).
    public var connected: Bool
    /// Where it is on the screen; `nil` while it has no CRTC (off).
    public var placement: OutputPlacement?
    /// The panel's physical width as built (not turned), millimetres; 0 when it reports none.
    public var widthMm: Int
    /// The panel's physical height as built, millimetres; 0 when it reports none.
    public var heightMm: Int
    /// Whether it is RandR's primary output.
    public var primary: Bool

    public init(name: String, connected: Bool = true, placement: OutputPlacement?, widthMm: Int = 0, heightMm: Int = 0, primary: Bool = false) {
        self.name = name
        self.connected = connected
        self.placement = placement
        self.widthMm = widthMm
        self.heightMm = heightMm
        self.primary = primary
    }

    /// Shows something: it has a CRTC. Whether RandR calls it connected does not matter: a
    /// CRTC shows its picture either way (the dummy driver calls an output it drives
    /// disconnected until the next probe).
    public var isActive: Bool { placement != nil }

    /// `NAME W×H+X+Y`, with the rotation and ` (primary)`, or ` (off)`.
    public var summary: String {
        guard let placement else { return "\(name) (off)" }
        return "\(name) \(placement.summary)\(primary ? " (primary)" : "")"
    }
}

extension X11Display {
    /// The RandR outputs in RandR's order, from the server's current configuration
    /// (`XRRGetScreenResourcesCurrent`, which probes nothing); `nil` without RandR 1.2.
    public func randrOutputs() throws(X11Error) -> [RandROutput]? {
        let root = root.rawValue
        return try call("XRRGetScreenResourcesCurrent") { handle -> [RandROutput]? in
            var eventBase: Int32 = 0, errorBase: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
            guard XRRQueryExtension(handle, &eventBase, &errorBase) != 0,
                  XRRQueryVersion(handle, &major, &minor) != 0, (major, minor) >= (1, 2),
                  let resources = XRRGetScreenResourcesCurrent(handle, root)
            else { return nil }
            defer { XRRFreeScreenResources(resources) }
            let primary = XRRGetOutputPrimary(handle, root)
            var outputs: [RandROutput] = []
            for index in 0..<Int(resources.pointee.noutput) {
                let id = resources.pointee.outputs[index]
                guard let info = XRRGetOutputInfo(handle, resources, id) else { continue }
                defer { XRRFreeOutputInfo(info) }
                let o = info.pointee
                let name = o.name.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(o.nameLen)), as: UTF8.self) } ?? "output-\(index + 1)"
                var placement: OutputPlacement? = nil
                if o.crtc != 0, let crtc = XRRGetCrtcInfo(handle, resources, o.crtc) {
                    defer { XRRFreeCrtcInfo(crtc) }
                    let c = crtc.pointee
                    if c.width > 0, c.height > 0 {
                        placement = OutputPlacement(
                            x: Int(c.x), y: Int(c.y), width: Int(c.width), height: Int(c.height),
                            rotation: Self.rotation(c.rotation), reflectX: Int32(c.rotation) & RR_Reflect_X != 0,
                            reflectY: Int32(c.rotation) & RR_Reflect_Y != 0)
                    }
                }
                outputs.append(RandROutput(
                    name: name, connected: o.connection == RR_Connected, placement: placement,
                    widthMm: Int(o.mm_width), heightMm: Int(o.mm_height), primary: id == primary))
            }
            return outputs
        }
    }

    private static func rotation(_ bits: Rotation) -> OutputRotation {
        switch Int32(bits) & 0xf {
        case RR_Rotate_90: .left
        case RR_Rotate_180: .inverted
        case RR_Rotate_270: .right
        default: .normal
        }
    }

    /// The root window's size now, asked of the server (Xlib's own idea of it waits for a
    /// RandR-aware client to process the change).
    func currentRootSize() throws(X11Error) -> (width: Int, height: Int) {
        let root = root.rawValue
        return try call("XGetGeometry(root)") { handle -> (width: Int, height: Int) in
            var parent: Window = 0
            var x: Int32 = 0, y: Int32 = 0
            var width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
            guard XGetGeometry(handle, root, &parent, &x, &y, &width, &height, &border, &depth) != 0 else {
                return (Int(XDisplayWidth(handle, XDefaultScreen(handle))), Int(XDisplayHeight(handle, XDefaultScreen(handle))))
            }
            return (Int(width), Int(height))
        }
    }
}
