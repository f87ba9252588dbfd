import GestureEngine

// The trace format's vocabulary (docs/interface.md, «Trace format»): field names, event type names and the
// limits a value must respect. The reader and the writer both check against them, so whatever
// `record` writes, `replay` reads.

/// A field the trace format knows. The case order is the order the writer prints keys in.
enum TraceKey: Int, CaseIterable, Sendable {
    case t, type, id, x, y, button, fingers, dx, dy, scale, angle, cancelled, width, height, monitors, app, appClass, mods

    /// The key as it appears in the trace.
    var name: String {
        switch self {
        case .t: "t"
        case .type: "type"
        case .id: "id"
        case .x: "x"
        case .y: "y"
        case .button: "button"
        case .fingers: "fingers"
        case .dx: "dx"
        case .dy: "dy"
        case .scale: "scale"
        case .angle: "angle"
        case .cancelled: "cancelled"
        case .width: "width"
        case .height: "height"
        case .monitors: "monitors"
        case .app: "app"
        case .appClass: "class"
        case .mods: "mods"
        }
    }

    /// The UTF-8 bytes of every key, indexed by raw value, to match keys without building strings.
    static let utf8Names: [[UInt8]] = allCases.map { Array($0.name.utf8) }

    /// The known key spelled by `bytes`, or `nil` for a field the format does not know.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        for (index, name) in Self.utf8Names.enumerated() where name.count == bytes.count {
            if name.elementsEqual(bytes) {
                self.init(rawValue: index)
                return
            }
        }
        return nil
    }

    /// The smallest value allowed, for fields where smaller values are impossible.
    var minimum: Double? {
        switch self {
        case .button, .fingers, .width, .height: 1
        case .scale: 0
        default: nil
        }
    }

    /// True for fields that hold whole numbers.
    var isInteger: Bool {
        switch self {
        case .id, .button, .fingers, .width, .height: true
        default: false
        }
    }

    /// Checks a number for this field: finite, whole where the field is an integer, within
    /// range. Returns the problem, or `nil` when the value is fine.
    func problem(with value: Double) -> TraceProblem? {
        guard value.isFinite else {
            return TraceProblem("field \"\(name)\" is not a finite number: \(JSONLiteral.number(value))")
        }
        if isInteger {
            guard value.rounded(.towardZero) == value else {
                return TraceProblem("field \"\(name)\" must be a whole number, found \(JSONLiteral.number(value))")
            }
            // Beyond 2^53 a Double no longer holds every integer, so the value would not survive
            // a round trip through the trace.
            guard value.magnitude <= TraceKey.largestExactInteger else {
                return TraceProblem("field \"\(name)\" is too large: \(JSONLiteral.number(value))")
            }
        }
        if let minimum, value < minimum {
            return TraceProblem(
                "field \"\(name)\" must be at least \(JSONLiteral.number(minimum)), found \(JSONLiteral.number(value))"
            )
        }
        return nil
    }

    /// Checks a whole number for this field, before it becomes a Double (which would round
    /// integers beyond 2^53 into range).
    func problem(with integer: Int) -> TraceProblem? {
        guard integer.magnitude <= 1 << 53 else {
            return TraceProblem("field \"\(name)\" is too large: \(integer)")
        }
        return problem(with: Double(integer))
    }

    /// 2^53: the largest magnitude up to which every integer is exactly representable as a Double.
    static let largestExactInteger: Double = 9_007_199_254_740_992
}

/// The event types of the trace format, by their names in the `type` field (the table lives
/// with the events themselves, where the engine's transition log names them too).
typealias TraceEventType = InputEvent.TypeName

extension TraceProblem {
    /// The problem with an event at `time` following one at `previous`, if time went backwards.
    static func timeOrder(previous: Instant?, time: Instant) -> TraceProblem? {
        guard let previous, time < previous else { return nil }
        let from = JSONLiteral.number(previous.milliseconds)
        return TraceProblem("time goes backwards: from \(from) to \(JSONLiteral.number(time.milliseconds))")
    }
}
