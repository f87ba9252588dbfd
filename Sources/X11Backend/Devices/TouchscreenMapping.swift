internal import CX11
public import GestureConfig
public import Logging

/// A device's Coordinate Transformation Matrix: the 3×3 matrix (row-major, 32-bit floats, as
/// the XI property holds it) the X server applies to an absolute device's position, both
/// normalized to 0…1 — the device's across its axes, the result across the whole screen.
///
/// ```swift
/// let m = TransformationMatrix.mapping(onto: OutputPlacement(x: 1920, y: 0, width: 1920, height: 1080),
///                                      screenWidth: 3840, screenHeight: 1080)
/// m.values   // [0.5, 0, 0.5, 0, 1, 0, 0, 0, 1]: the right half
/// ```
public struct TransformationMatrix: Hashable, Sendable, CustomStringConvertible {
    /// The nine values, row by row.
    public var values: [Float]

    public init(_ values: [Float]) {
        precondition(values.count == 9, "a transformation matrix has 9 values")
        self.values = values
    }

    /// What X devices start with: the device spans the whole screen.
    public static let identity = TransformationMatrix([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The matrix that puts the device on `placement`, turned and mirrored as the output's
    /// picture is, so that a touch lands on the pixel shown under the finger.
    ///
    /// RandR shows the framebuffer point `F(p)` at the panel point `p`, where `F` rotates the
    /// panel's own coordinates by the CRTC's rotation (counter-clockwise, `left` = 90°) and then
    /// mirrors the result on the screen's axes (`xrandr --reflect`); the matrix is that `F`,
    /// followed by the placement's offset and scale within the screen. Each entry is 0, ±1 or a
    /// ratio of the output's to the screen's size, so nothing is rounded but those ratios.
    public static func mapping(onto placement: OutputPlacement, screenWidth: Int, screenHeight: Int) -> TransformationMatrix {
        // (a, b) = A · (u, v) + t: the panel point (u, v) in the output's rectangle, 0…1.
        var (p, q, r, s, t0, t1): (Double, Double, Double, Double, Double, Double)
        switch placement.rotation {
        case .normal: (p, q, r, s, t0, t1) = (1, 0, 0, 1, 0, 0)
        case .left: (p, q, r, s, t0, t1) = (0, -1, 1, 0, 1, 0)
        case .inverted: (p, q, r, s, t0, t1) = (-1, 0, 0, -1, 1, 1)
        case .right: (p, q, r, s, t0, t1) = (0, 1, -1, 0, 0, 1)
        }
        if placement.reflectX { (p, q, t0) = (-p, -q, 1 - t0) }
        if placement.reflectY { (r, s, t1) = (-r, -s, 1 - t1) }
        let sw = Double(placement.width) / Double(max(screenWidth, 1))
        let sh = Double(placement.height) / Double(max(screenHeight, 1))
        let sx = Double(placement.x) / Double(max(screenWidth, 1))
        let sy = Double(placement.y) / Double(max(screenHeight, 1))
        return TransformationMatrix([
            Float(sw * p), Float(sw * q), Float(sx + sw * t0),
            Float(sh * r), Float(sh * s), Float(sy + sh * t1),
            0, 0, 1,
        ])
    }

    /// Where the device's normalized point (`u`, `v`) lands, in root pixels of a screen
    /// `screenWidth` × `screenHeight`.
    public func apply(u: Double, v: Double, screenWidth: Int, screenHeight: Int) -> (x: Double, y: Double) {
        let m = values.map(Double.init)
        let w = m[6] * u + m[7] * v + m[8]
        let x = (m[0] * u + m[1] * v + m[2]) / (w == 0 ? 1 : w)
        let y = (m[3] * u + m[4] * v + m[5]) / (w == 0 ? 1 : w)
        return (x * Double(screenWidth), y * Double(screenHeight))
    }

    /// The rectangle of the screen the device covers (its corners' bounding box), root pixels.
    public func coverage(screenWidth: Int, screenHeight: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map { apply(u: $0.0, v: $0.1, screenWidth: screenWidth, screenHeight: screenHeight) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let (left, top) = (xs.min()!, ys.min()!)
        return (left, top, xs.max()! - left, ys.max()! - top)
    }

    /// The values as `xinput list-props` would take them back (`xinput set-prop … 0.5 0 0.5 …`),
    /// each in its shortest exact form.
    public var description: String {
        values.map { $0 == $0.rounded() && abs($0) < 1e6 ? "\(Int($0))" : "\($0)" }.joined(separator: " ")
    }
}

/// Which output a touchscreen goes on (``TouchscreenOutput``), and why.
public enum TouchscreenMapping {
    /// The output chosen, and the reason in words for the log.
    public struct Choice: Hashable, Sendable {
        public var output: RandROutput
        public var placement: OutputPlacement
        /// Why this output (`as [touchscreen] output names it`, `auto: the laptop's panel` …).
        public var reason: String
    }

    /// Name prefixes of the outputs that drive a laptop's own panel (the kernel's connector
    /// names: embedded DisplayPort, LVDS, MIPI DSI; the modesetting driver writes `eDP-1`,
    /// intel `eDP1`).
    public static let panelPrefixes = ["edp", "lvds", "dsi"]

    /// How far a touchscreen's size may differ from a panel's and still be that panel: 5 %, at
    /// least 5 mm (a touch surface is a little larger or smaller than the picture under it).
    static func matches(_ deviceMm: Double, _ outputMm: Int) -> Bool {
        abs(deviceMm - Double(outputMm)) <= max(5, 0.05 * Double(outputMm))
    }

    /// The output `request` names among `outputs`, or why there is none to map onto.
    ///
    /// `auto`, among the outputs that show something: the one whose physical size is the
    /// touchscreen's (`deviceSizeMm`, either way round), else the laptop's panel
    /// (``panelPrefixes``), else the primary output, else the first; several of one kind are
    /// told apart by the next rule, then by RandR's order.
    public static func choose(
        _ request: TouchscreenOutput, among outputs: [RandROutput], deviceSizeMm: (width: Double, height: Double)?
    ) -> Result<Choice, MappingProblem> {
        let active = outputs.filter(\.isActive)
        switch request {
        case .named(let name):
            guard let output = outputs.first(where: { $0.name == name }) else {
                return .failure(.noSuchOutput(name, known: outputs.map(\.name)))
            }
            guard output.isActive, let placement = output.placement else { return .failure(.outputOff(name)) }
            return .success(Choice(output: output, placement: placement, reason: "as [touchscreen] output names it"))
        case .automatic:
            guard !active.isEmpty else { return .failure(.noActiveOutput) }
            var pool = active
            var reasons: [String] = []
            if let size = deviceSizeMm {
                let sized = pool.filter { o in
                    (matches(size.width, o.widthMm) && matches(size.height, o.heightMm))
                        || (matches(size.width, o.heightMm) && matches(size.height, o.widthMm))
                }
                if !sized.isEmpty {
                    pool = sized
                    reasons.append("its size is the touchscreen's")
                }
            }
            let panels = pool.filter { o in panelPrefixes.contains { o.name.lowercased().hasPrefix($0) } }
            if !panels.isEmpty, pool.count > 1 || reasons.isEmpty {
                pool = panels
                reasons.append("the laptop's panel")
            }
            if pool.count > 1 || reasons.isEmpty, let primary = pool.first(where: \.primary) {
                pool = [primary]
                reasons.append("the primary output")
            }
            if reasons.isEmpty { reasons.append(active.count == 1 ? "the only output" : "the first output") }
            let output = pool[0]
            return .success(Choice(output: output, placement: output.placement!, reason: "auto: " + reasons.joined(separator: ", ")))
        }
    }
}

/// Why a touchscreen cannot be mapped as the config asks: said once in the log (and by `doctor`).
public enum MappingProblem: Error, Hashable, Sendable, CustomStringConvertible {
    case noRandR
    case noSuchOutput(String, known: [String])
    case outputOff(String)
    case noActiveOutput

    public var description: String {
        switch self {
        case .noRandR:
            "the X server has no RandR 1.2, so there is no output to map the touchscreen onto"
        case .noSuchOutput(let name, let known):
            "there is no output named \"\(name)\"" + (known.isEmpty ? "" : " (outputs: \(known.joined(separator: ", ")))")
        case .outputOff(let name):
            "the output \(name) is off (it shows nothing)"
        case .noActiveOutput:
            "no output shows anything"
        }
    }
}

extension X11Display {
    /// The property both libinput and evdev honour, and the server itself applies for absolute
    /// devices (`xinput map-to-output` sets it).
    static let transformationMatrixProperty = AtomName("Coordinate Transformation Matrix")

    /// A device's Coordinate Transformation Matrix; `nil` when it has none (not an absolute
    /// pointer device, or gone).
    public func transformationMatrix(of device: Int) throws(X11Error) -> TransformationMatrix? {
        let property = try atom(Self.transformationMatrixProperty)
        let float = try atom(AtomName("FLOAT"))
        return try call("XIGetProperty(\(device), Coordinate Transformation Matrix)") { handle -> TransformationMatrix? in
            var type: Atom = 0
            var format: Int32 = 0
            var count: UInt = 0, after: UInt = 0
            var data: UnsafeMutablePointer<UInt8>? = nil
            let status = XIGetProperty(handle, Int32(device), property, 0, 9, 0, float, &type, &format, &count, &after, &data)
            defer { if let data { XFree(data) } }
            guard status == Success, type == float, format == 32, count == 9, let data else { return nil }
            // XI 2 properties of format 32 come as 32-bit values (not Xlib's longs).
            let values = UnsafeRawPointer(data).bindMemory(to: Float.self, capacity: 9)
            return TransformationMatrix((0..<9).map { values[$0] })
        }
    }

    /// Sets a device's Coordinate Transformation Matrix, and waits for the server's answer.
    public func setTransformationMatrix(_ matrix: TransformationMatrix, of device: Int) throws(X11Error) {
        let property = try atom(Self.transformationMatrixProperty)
        let float = try atom(AtomName("FLOAT"))
        try call("XIChangeProperty(\(device), Coordinate Transformation Matrix)", sync: true) { handle in
            var values = matrix.values
            values.withUnsafeMutableBytes { bytes in
                XIChangeProperty(
                    handle, Int32(device), property, float, 32, PropModeReplace,
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 9)
            }
        }
    }

    /// A device's physical size from its x and y axes' resolution (units per metre), when the
    /// driver reports one.
    public func physicalSize(of device: Int) -> (width: Double, height: Double)? {
        guard let (x, y) = try? axes(of: Int32(device)), let x, let y, x.resolution > 0, y.resolution > 0 else { return nil }
        return ((x.max - x.min) / x.resolution * 1000, (y.max - y.min) / y.resolution * 1000)
    }
}

/// Keeps the touchscreens on the output `[touchscreen] output` asks for (the live daemon only):
/// sets their Coordinate Transformation Matrix when it starts and again whenever the screen
/// changes (a monitor plugged or unplugged, a rotation, a mode change) or a touchscreen
/// appears, and logs what it set. Without the key it changes nothing.
///
/// A matrix already right is left alone (nothing logged but a debug line); a problem (the
/// output is not there) is logged once until it changes, and the matrix left as it is.
///
/// ```swift
/// let mapper = TouchscreenMapper(display: display, request: .automatic, logger: logger)
/// mapper.apply()          // at start, and after each RandR or device change
/// ```
public final class TouchscreenMapper {
    private let display: X11Display
    private let logger: Logger
    /// What the config asks; `nil`: nothing is mapped.
    public private(set) var request: TouchscreenOutput?
    /// The last problem logged, so that it is logged once.
    private var lastProblem: String? = nil

    public init(display: X11Display, request: TouchscreenOutput?, logger: Logger) {
        self.display = display
        self.request = request
        self.logger = logger
    }

    /// A reload: a changed request is applied at once.
    public func configure(_ request: TouchscreenOutput?) {
        guard request != self.request else { return }
        self.request = request
        lastProblem = nil
        apply()
    }

    /// Puts every touchscreen on the requested output, where it is not there already.
    public func apply() {
        guard let request, !display.isConnectionLost else { return }
        let outputs: [RandROutput]
        let screen: (width: Int, height: Int)
        let touchscreens: [InputDevice]
        do {
            guard let found = try display.randrOutputs() else { return problem(MappingProblem.noRandR.description) }
            outputs = found
            screen = try display.currentRootSize()
            touchscreens = try display.listDevices().filter { $0.role == .touchscreen }
        } catch {
            return problem("cannot read the outputs and devices: \(error)")
        }
        var problems: [String] = []
        for device in touchscreens {
            switch TouchscreenMapping.choose(request, among: outputs, deviceSizeMm: display.physicalSize(of: device.id)) {
            case .failure(let why):
                problems.append("touchscreen \"\(device.name)\" is left as it is: \(why)")
            case .success(let choice):
                if let failure = map(device, choice, screen: screen) { problems.append(failure) }
            }
        }
        if problems.isEmpty {
            lastProblem = nil
        } else {
            problem(problems.joined(separator: "; "))
        }
    }

    /// Sets one device's matrix if it differs; returns what went wrong, if anything.
    private func map(_ device: InputDevice, _ choice: TouchscreenMapping.Choice, screen: (width: Int, height: Int)) -> String? {
        let wanted = TransformationMatrix.mapping(onto: choice.placement, screenWidth: screen.width, screenHeight: screen.height)
        let onto = "output \(choice.output.name) (\(choice.placement.summary); \(choice.reason))"
        do {
            guard let current = try display.transformationMatrix(of: device.id) else {
                return "touchscreen \"\(device.name)\" has no Coordinate Transformation Matrix to set"
            }
            if current == wanted {
                logger.debug("touchscreen \"\(device.name)\" is on \(onto) already")
                return nil
            }
            try display.setTransformationMatrix(wanted, of: device.id)
            logger.notice("touchscreen \"\(device.name)\" mapped onto \(onto): Coordinate Transformation Matrix \(wanted)")
            return nil
        } catch {
            return "touchscreen \"\(device.name)\" could not be mapped onto \(onto): \(error)"
        }
    }

    private func problem(_ message: String) {
        guard message != lastProblem else { return }
        lastProblem = message
        logger.warning("\(message)")
    }
}
