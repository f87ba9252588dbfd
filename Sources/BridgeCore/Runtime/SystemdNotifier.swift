import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd (`Type=notify`) how the daemon is doing, when `NOTIFY_SOCKET` is set, as
/// `sd_notify(3)` describes: `READY=1` once the capture is set up, `RELOADING=1` with
/// `MONOTONIC_USEC` when a reload begins and `READY=1` again when it is done, `STOPPING=1` when
/// shutdown begins.
///
/// ```swift
/// SystemdNotifier.notify(SystemdNotifier.reloading(), environment: environment)
/// // … reload …
/// SystemdNotifier.notify("READY=1", environment: environment)
/// ```
public enum SystemdNotifier {
    /// The variables the service manager sets for the daemon alone, which a program it starts
    /// must not inherit: `NOTIFY_SOCKET` would let an `exec` child report the daemon ready or
    /// stopping; the watchdog's and socket activation's name the daemon's pid and descriptors.
    public static let serviceVariables: Set<String> = [
        "NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES",
    ]

    /// `RELOADING=1` with the `CLOCK_MONOTONIC` time in microseconds, which systemd (from
    /// version 253) wants with it.
    public static func reloading() -> String {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return "RELOADING=1\nMONOTONIC_USEC=\(UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000)"
    }

    /// Sends `state` (e.g. `READY=1`) to `$NOTIFY_SOCKET`; does nothing without one.
    @discardableResult
    public static func notify(_ state: String, environment: [String: String]) -> Bool {
        guard var path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return false }
        if path.hasPrefix("@") { path = "\0" + path.dropFirst() }  // abstract namespace
        let socketType = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard let fd = try? SystemCall.retryingInterrupts("socket", { socket(AF_UNIX, socketType, 0) }) else { return false }
        defer { SystemCall.close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let sent = state.withCString { message in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    try? SystemCall.retryingInterrupts("sendto") { sendto(fd, message, strlen(message), 0, address, length) }
                }
            }
        }
        return sent != nil
    }
}
