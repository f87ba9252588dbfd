/// toml-test's decoder interface over the project's TOML parser, for `scripts/toml-conformance`:
/// TOML on standard input; a valid document printed as toml-test's tagged JSON (each value as
/// `{"type": "integer", "value": "42"}`), exit 0; an invalid one (or text that is not UTF-8,
/// which the config refuses before parsing too) refused with `LINE:COLUMN message` on standard
/// error, exit 1.
import TOML

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// A JSON string literal.
func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func padded(_ number: Int, _ width: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

func tagged(_ type: String, _ value: String) -> String { "{\"type\":\"\(type)\",\"value\":\(quoted(value))}" }

/// RFC 3339 as toml-test writes it: `T`, the fraction without trailing zeros, `Z` for +00:00.
func rfc3339(_ value: TOMLDateTime) -> String {
    var text = value.date.map { "\(padded($0.year, 4))-\(padded($0.month, 2))-\(padded($0.day, 2))" } ?? ""
    if let time = value.time {
        if !text.isEmpty { text += "T" }
        text += "\(padded(time.hour, 2)):\(padded(time.minute, 2)):\(padded(time.second, 2))"
        if time.nanosecond != 0 {
            var fraction = padded(time.nanosecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
    }
    if let offset = value.offsetMinutes {
        text += offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + padded(abs(offset) / 60, 2) + ":" + padded(abs(offset) % 60, 2)
    }
    return text
}

func json(_ node: TOMLNode) -> String {
    switch node.kind {
    case .table: return json(node.table!)
    case .array: return "[" + node.array!.map(json).joined(separator: ",") + "]"
    case .string: return tagged("string", node.string!)
    case .integer: return tagged("integer", String(node.int!))
    case .float:
        let float = node.double!
        return tagged("float", float.isNaN ? "nan" : float.isInfinite ? (float < 0 ? "-inf" : "inf") : "\(float)")
    case .boolean: return tagged("bool", node.bool! ? "true" : "false")
    case .date: return tagged("date-local", rfc3339(node.dateTime!))
    case .time: return tagged("time-local", rfc3339(node.dateTime!))
    case .dateTime:
        let value = node.dateTime!
        return tagged(value.offsetMinutes == nil ? "datetime-local" : "datetime", rfc3339(value))
    }
}

func json(_ table: TOMLTableView) -> String {
    "{" + table.map { quoted($0.key) + ":" + json($0.value) }.joined(separator: ",") + "}"
}

var bytes: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 64 * 1024)
while true {
    let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    guard count > 0 else { break }
    bytes += chunk[..<count]
}
guard let text = String(validating: bytes, as: UTF8.self) else { fail("1:1 not UTF-8") }
do {
    print(json(try TOMLDocument(parsing: text).root))
} catch {
    fail("\(error.position) \(error)")
}
