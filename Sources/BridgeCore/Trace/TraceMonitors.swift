import GestureEngine

// The `monitors` of a `screen` event (docs/interface.md, «Monitors»): an array of objects with `name`,
// `x`, `y`, `width`, `height`, and the physical size `width_mm`, `height_mm` when the monitor
// reports one. The reader and the writer check them here, so the writer refuses exactly what the
// reader would.

/// The known fields of one object of `monitors`, as found on a trace line.
struct TraceMonitorFields: Hashable, Sendable {
    /// A field a monitor object has.
    enum Field: String, CaseIterable, Sendable {
        case name, x, y, width, height
        case widthMm = "width_mm", heightMm = "height_mm"
    }

    private var name: TraceFieldValue?
    private var x: TraceFieldValue?
    private var y: TraceFieldValue?
    private var width: TraceFieldValue?
    private var height: TraceFieldValue?
    private var widthMm: TraceFieldValue?
    private var heightMm: TraceFieldValue?

    subscript(field: Field) -> TraceFieldValue? {
        get {
            switch field {
            case .name: name
            case .x: x
            case .y: y
            case .width: width
            case .height: height
            case .widthMm: widthMm
            case .heightMm: heightMm
            }
        }
        set {
            switch field {
            case .name: name = newValue
            case .x: x = newValue
            case .y: y = newValue
            case .width: width = newValue
            case .height: height = newValue
            case .widthMm: widthMm = newValue
            case .heightMm: heightMm = newValue
            }
        }
    }
}

/// Checks, reads and writes a `screen` event's monitors.
enum TraceMonitors {
    /// What is wrong with a list of monitors, or `nil`: every name given and different from the
    /// others (a binding names one), every size at least 1 pixel, every number exact in a trace.
    static func problem(with monitors: [Monitor]) -> TraceProblem? {
        // A set: a line of 15,800 monitors took a second when each name was compared with
        // those before it.
        var names: Set<String> = []
        for (index, monitor) in monitors.enumerated() {
            let which = "monitor \(index + 1) in \"monitors\""
            if monitor.name.isEmpty { return TraceProblem("\(which) has an empty \"name\"") }
            for (field, value) in [("x", monitor.x), ("y", monitor.y), ("width", monitor.width), ("height", monitor.height)]
            where value.magnitude > 1 << 53 {
                return TraceProblem("\(which): field \"\(field)\" is too large: \(value)")
            }
            if monitor.width < 1 || monitor.height < 1 {
                return TraceProblem(
                    "\(which) (\(TraceReader.excerpt(monitor.name, quoted: true))) must be at least 1 pixel wide and high, "
                        + "found \(monitor.width)×\(monitor.height)")
            }
            switch (monitor.widthMm, monitor.heightMm) {
            case (nil, nil):
                break
            case (let widthMm?, let heightMm?):
                for (field, value) in [("width_mm", widthMm), ("height_mm", heightMm)] where value < 1 || value > 1 << 53 {
                    return TraceProblem("\(which): field \"\(field)\" must be a whole number of millimetres from 1, found \(value)")
                }
            default:
                return TraceProblem("\(which) gives only one of \"width_mm\" and \"height_mm\": give both, or neither when the size is not known")
            }
            if !names.insert(monitor.name).inserted {
                return TraceProblem("\(which): the name \(TraceReader.excerpt(monitor.name, quoted: true)) is listed twice")
            }
        }
        return nil
    }

    /// The monitors as the value of a trace's `monitors` field, keys in the documented order (docs/interface.md, «Monitors»).
    static func json(_ monitors: [Monitor]) throws(TraceProblem) -> String {
        if let problem = problem(with: monitors) { throw problem }
        let objects = monitors.map { m in
            let size = m.widthMm.map { ",\"width_mm\":\($0),\"height_mm\":\(m.heightMm ?? 0)" } ?? ""
            return "{\"name\":\(JSONLiteral.string(m.name)),\"x\":\(m.x),\"y\":\(m.y),\"width\":\(m.width),\"height\":\(m.height)\(size)}"
        }
        return "[" + objects.joined(separator: ",") + "]"
    }

    /// The monitors a line's `monitors` field holds, checked.
    static func monitors(from value: TraceFieldValue) throws(TraceProblem) -> [Monitor] {
        guard case .monitors(let list) = value else {
            throw TraceProblem("field \"monitors\" must be an array of objects, found \(value.kindDescription)")
        }
        guard !list.isEmpty else {
            throw TraceProblem("field \"monitors\" is empty: leave it out when the whole screen is one monitor")
        }
        var monitors: [Monitor] = []
        for (index, fields) in list.enumerated() {
            let which = "monitor \(index + 1) in \"monitors\""
            guard let nameValue = fields[.name] else { throw TraceProblem("\(which): missing field \"name\"") }
            guard case .string(let name) = nameValue else {
                throw TraceProblem("\(which): field \"name\" must be a string, found \(nameValue.kindDescription)")
            }
            func integer(_ field: TraceMonitorFields.Field) throws(TraceProblem) -> Int {
                guard let value = fields[field] else { throw TraceProblem("\(which): missing field \"\(field.rawValue)\"") }
                switch value {
                case .number(let number):
                    guard number.rounded(.towardZero) == number else {
                        throw TraceProblem("\(which): field \"\(field.rawValue)\" must be a whole number, found \(JSONLiteral.number(number))")
                    }
                    guard number.magnitude <= TraceKey.largestExactInteger else {
                        throw TraceProblem("\(which): field \"\(field.rawValue)\" is too large: \(JSONLiteral.number(number))")
                    }
                    return Int(number)
                case .nonFiniteNumber(let text):
                    throw TraceProblem("\(which): field \"\(field.rawValue)\" is not a finite number: \(TraceReader.excerpt(text, quoted: false))")
                default:
                    throw TraceProblem("\(which): field \"\(field.rawValue)\" must be a whole number, found \(value.kindDescription)")
                }
            }
            func millimetres(_ field: TraceMonitorFields.Field) throws(TraceProblem) -> Int? {
                fields[field] == nil ? nil : try integer(field)
            }
            monitors.append(Monitor(
                name: name, x: try integer(.x), y: try integer(.y), width: try integer(.width), height: try integer(.height),
                widthMm: try millimetres(.widthMm), heightMm: try millimetres(.heightMm)))
        }
        if let problem = problem(with: monitors) { throw problem }
        return monitors
    }
}
