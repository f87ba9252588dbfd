import GestureEngine
import GestureConfig

/// JSON text for single values, shared by the trace writer and the report formatter.
///
/// Numbers print the way people write them: whole numbers without a decimal point (`640`, not
/// `640.0`), never `-0`. Strings are quoted and escaped per RFC 8259; non-ASCII text stays as
/// UTF-8. Public for the other JSON the program prints (`doctor --json`, `list-devices --json`).
public enum JSONLiteral {
    /// The shortest text that reads back as exactly `value`; whole numbers without `.0`.
    ///
    /// JSON has no non-finite numbers, so NaN and infinities print as `null`; callers that must
    /// round-trip (the trace writer) reject them before they get here.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 { return "0" }  // also turns -0 into 0
        // Swift's description is the shortest round-trip form: "640.0", "0.5", "1e-05", "1e+16".
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `value` rounded to `decimals` decimal places (half away from zero), printed without
    /// trailing zeros: `640`, `0.5`, `-12.345`; never `-0`.
    static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
        // Beyond 2^53 units a Double has no fractional digits left to round: print it whole.
        guard scaled.magnitude < TraceKey.largestExactInteger else { return number(value.rounded()) }
        let units = Int64(scaled)
        if units == 0 { return "0" }
        let divisor = Int64(scale)
        let whole = units.magnitude / UInt64(divisor)
        var fraction = units.magnitude % UInt64(divisor)
        var text = units < 0 ? "-" : ""
        text += String(whole)
        if fraction != 0 {
            var digits = decimals
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }

    /// `text` as a quoted JSON string.
    public static func string(_ text: String) -> String {
        var out = ""
        appendString(text, to: &out)
        return out
    }

    /// Appends `text` as a quoted JSON string.
    static func appendString(_ text: String, to out: inout String) {
        JSONQuote.append(text, to: &out)
    }
}

extension Modifiers {
    /// The set as a JSON array of its names, in the documented order (`["ctrl","super"]`):
    /// the `mods` of a trace line and of an output line.
    var jsonArray: String {
        "[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
