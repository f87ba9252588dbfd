/// Reads a fuzzer's bytes as a stream of small choices: a byte, a number below `n`, a flag, an
/// entry of a table. When the bytes run out every read answers 0 (the first choice), so any
/// input, the empty one included, decodes to something and short inputs stay short.
///
/// ```swift
/// var bytes = FuzzBytes([3, 200, 7])
/// let fingers = 1 + bytes.below(5)        // 4
/// let far = bytes.pick([0.0, 1e300])      // 0.0 (200 % 2)
/// ```
public struct FuzzBytes: Sendable {
    private let bytes: [UInt8]
    private var offset = 0

    /// Reads `bytes` from the start.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A number in `0..<n` (`n` from 1 to 256) from one byte.
    public mutating func below(_ n: Int) -> Int { Int(byte()) % max(1, min(n, 256)) }

    /// A flag from one byte's low bit.
    public mutating func flag() -> Bool { byte() & 1 == 1 }

    /// One entry of `table` (not empty), chosen by one byte.
    public mutating func pick<T>(_ table: [T]) -> T { table[below(table.count)] }

    /// The next byte as a signed number, -128 to 127.
    public mutating func signed() -> Int { Int(Int8(bitPattern: byte())) }
}
