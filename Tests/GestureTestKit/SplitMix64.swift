import Glibc

/// A small seeded random generator (SplitMix64): the same seed gives the same sequence, so a
/// random test case or a benchmark trace can be repeated exactly from its seed.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let x = Double.random(in: 0...1280, using: &rng)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in 0..<n.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

extension SplitMix64 {
    /// A seed for a randomized test: `GESTURE_BRIDGE_TEST_SEED` when set (to repeat a failure
    /// a test printed), otherwise a fresh random one. Print it with every failure.
    public static func testSeed() -> UInt64 {
        if let text = getenv("GESTURE_BRIDGE_TEST_SEED").map({ String(cString: $0) }), let seed = UInt64(text) { return seed }
        return UInt64(UInt32.random(in: 1...UInt32.max))
    }
}
