public import GestureEngine

#if canImport(Glibc)
import Glibc
#endif

/// Turns X server timestamps (32-bit milliseconds that wrap every 49.7 days) into the engine's
/// ever-growing ``Instant``s, and estimates the server's time now from the local monotonic
/// clock, so that engine deadlines can become `poll` timeouts.
public struct ServerClock {
    private var last: UInt32? = nil
    private var wraps: Double = 0
    /// Server time minus local monotonic time, from the latest event (ms).
    private var offset: Double? = nil

    public init() {}

    /// The instant of a server timestamp. A time within half the 32-bit range after the newest
    /// one moves the clock on (crossing zero counts a wrap); a time behind it (an event that
    /// arrives late) keeps its place, on the far side of a wrap if it came from before it.
    public mutating func instant(serverTime time: UInt32) -> Instant {
        let range = 4_294_967_296.0
        var value: Double
        if let newest = last, time &- newest > UInt32.max / 2 {
            // Behind the newest: late, not a wrap.
            value = Double(time) + wraps * range
            if time > newest { value -= range }
        } else {
            if let newest = last, time < newest { wraps += 1 }
            last = time
            value = Double(time) + wraps * range
            offset = value - Self.monotonicMilliseconds()
        }
        return Instant(milliseconds: value)
    }

    /// The server's time now, estimated from the last event and the local clock.
    public func now() -> Instant? {
        guard let offset else { return nil }
        return Instant(milliseconds: Self.monotonicMilliseconds() + offset)
    }

    /// Milliseconds until `deadline` on the server's clock (0 when due), for `poll`.
    public func milliseconds(until deadline: Instant) -> Int32 {
        guard let now = now() else { return 0 }
        let ms = (deadline - now).milliseconds
        if ms <= 0 { return 0 }
        return Int32(min(ms.rounded(.up), Double(Int32.max)))
    }

    /// CLOCK_MONOTONIC in milliseconds.
    public static func monotonicMilliseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
    }
}
