import GestureConfig
import GestureEngine

extension Doctor {
    /// The `touchscreen mapping` check: which outputs each touchscreen covers now (from its
    /// Coordinate Transformation Matrix), and the line to write when one spans several — once
    /// an external monitor is plugged in, X stretches a touchscreen across the whole screen and
    /// touches land away from the finger. With `[touchscreen] output` it says where the daemon
    /// puts it. Left out when there is no touchscreen and the config maps none.
    ///
    /// - Parameter daemonRuns: a gesture-bridge runs on the display (it keeps the mapping, so a
    ///   touchscreen not where the config asks means something else moved it).
    static func checkTouchscreenMapping(_ display: X11Display, devices: [InputDevice], config: Config, daemonRuns: Bool) -> DoctorCheck? {
        let name = "touchscreen mapping"
        let touchscreens = devices.filter { $0.role == .touchscreen }
        let request = config.touchscreenOutput
        guard !touchscreens.isEmpty || request != nil else { return nil }
        guard !touchscreens.isEmpty else {
            return DoctorCheck(name, .ok, "no touchscreen: [touchscreen] output = \"\(request!)\" has nothing to map")
        }
        let outputs: [RandROutput]
        let screen: (width: Int, height: Int)
        do {
            guard let found = try display.randrOutputs() else {
                return DoctorCheck(name, .ok, "the X server has no RandR 1.2: the touchscreen covers the whole screen")
            }
            outputs = found
            screen = try display.currentRootSize()
        } catch {
            return DoctorCheck(name, .warn, "cannot read the outputs: \(error)", advice: "see the X error")
        }
        let active = outputs.filter(\.isActive)
        var status = DoctorStatus.ok
        var messages: [String] = [], advice: [String] = [], details: [String] = []
        for device in touchscreens {
            let matrix = (try? display.transformationMatrix(of: device.id)) ?? nil
            let covered = matrix.map { covers($0, active, screen: screen) } ?? []
            let coverText = covered.isEmpty ? "no output" : covered.map(\.name).joined(separator: ", ")
            details.append("\(device.name): covers \(coverText)" + (matrix.map { " (Coordinate Transformation Matrix \($0))" } ?? ""))
            let choice = TouchscreenMapping.choose(request ?? .automatic, among: outputs, deviceSizeMm: display.physicalSize(of: device.id))
            switch (request, choice) {
            case (let request?, .failure(let why)):
                status = max(status, .warn)
                messages.append("\(device.name) cannot be mapped as [touchscreen] output = \"\(request)\" asks: \(why)")
                advice.append("write the name of an output that is on (\(active.map(\.name).joined(separator: ", "))), or \"auto\"")
            case (let request?, .success(let chosen)):
                let wanted = TransformationMatrix.mapping(onto: chosen.placement, screenWidth: screen.width, screenHeight: screen.height)
                if matrix == wanted {
                    messages.append("\(device.name) is on \(chosen.output.name), as [touchscreen] output = \"\(request)\" asks")
                } else if daemonRuns {
                    status = max(status, .warn)
                    messages.append("\(device.name) covers \(coverText), not \(chosen.output.name) as [touchscreen] output = \"\(request)\" asks, although gesture-bridge runs: something else set its matrix since")
                    advice.append("restart gesture-bridge (it maps the touchscreen at start and at every screen change), and look for another tool that maps touchscreens")
                } else {
                    messages.append("\(device.name) covers \(coverText) now; gesture-bridge maps it onto \(chosen.output.name) (\(chosen.reason)) when it runs")
                }
            case (nil, _) where covered.count > 1:
                status = max(status, .warn)
                messages.append("\(device.name) spans \(covered.count) monitors (\(coverText)): touches land away from the finger")
                if case .success(let chosen) = choice {
                    advice.append("add to the config: [touchscreen] output = \"\(chosen.output.name)\" (or output = \"auto\", which chooses \(chosen.output.name) here: \(chosen.reason.dropFirst("auto: ".count)))")
                } else {
                    advice.append("add to the config: [touchscreen] output = \"NAME\", the output the touchscreen is built into (`xrandr` lists them)")
                }
            case (nil, _):
                messages.append("\(device.name) covers \(coverText)")
            }
        }
        return DoctorCheck(name, status, messages.joined(separator: "; "), advice: advice.isEmpty ? nil : advice.joined(separator: "; "), details: details)
    }

    /// The outputs whose picture the device covers a real part of (a sliver left by rounding
    /// does not count), in RandR's order.
    static func covers(_ matrix: TransformationMatrix, _ outputs: [RandROutput], screen: (width: Int, height: Int)) -> [RandROutput] {
        let area = matrix.coverage(screenWidth: screen.width, screenHeight: screen.height)
        return outputs.filter { output in
            guard let p = output.placement else { return false }
            let w = min(area.x + area.width, Double(p.x + p.width)) - max(area.x, Double(p.x))
            let h = min(area.y + area.height, Double(p.y + p.height)) - max(area.y, Double(p.y))
            return w > 0 && h > 0 && w * h >= 0.01 * Double(p.width * p.height)
        }
    }
}

extension Doctor {
    /// Each monitor's physical size and density, one detail line each, and — when the config
    /// gives a distance in millimetres to a device on the screen — the warning for monitors
    /// that report no size: there the millimetres are taken at 96 dpi.
    static func physicalSizes(of monitors: [Monitor], config: Config) -> (details: [String], warning: String?) {
        let engine = config.engineConfiguration
        let usesMillimetres = DeviceKind.allCases.contains { $0.descriptor.isOnScreen && engine.settings(for: $0).usesMillimetres }
        var details: [String] = []
        var unsized: [String] = []
        for monitor in monitors {
            if let density = monitor.pixelsPerMillimetre, let w = monitor.widthMm, let h = monitor.heightMm {
                details.append("\(monitor.name): \(w)×\(h) mm, \(rounded(density)) px/mm (\(Int((density * 25.4).rounded())) dpi)")
            } else {
                let reported = monitor.widthMm.map { w in "\(w)×\(monitor.heightMm ?? 0) mm, which no screen is" } ?? "no physical size"
                details.append("\(monitor.name): \(reported) (millimetres count at 96 dpi)")
                unsized.append(monitor.name)
            }
        }
        guard usesMillimetres else { return (details, nil) }
        if monitors.isEmpty {
            return (details, "the config gives distances in millimetres, but the screen reports no physical size: they count at 96 dpi")
        }
        guard !unsized.isEmpty else { return (details, nil) }
        let n = unsized.count
        return (details, "the config gives distances in millimetres, but \(unsized.joined(separator: ", ")) report\(n == 1 ? "s" : "") no physical size: they count at 96 dpi there")
    }

    private static func rounded(_ value: Double) -> String {
        let hundredths = (value * 100).rounded() / 100
        return hundredths == hundredths.rounded() ? "\(Int(hundredths))" : "\(hundredths)"
    }
}
