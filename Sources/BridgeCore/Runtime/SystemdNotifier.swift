import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd (Type=notify) that the daemon is ready, when `NOTIFY_SOCKET` is set.
public enum SystemdNotifier {
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
