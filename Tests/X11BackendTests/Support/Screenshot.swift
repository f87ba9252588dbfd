import CX11
import Foundation
import GestureEngine

/// What the screen shows: the root window read with `XGetImage`, as 0xRRGGBB per pixel.
///
/// Without a compositor the root's pixels are the framebuffer, windows included. With one,
/// redirected windows are not in the framebuffer: the compositor paints their blend onto the
/// root window (xcompmgr) or onto the composite overlay window above it (picom), both of which
/// `XGetImage` of the root reads. Either way it is what a user sees (Xvfb's software cursor is
/// left out of `GetImage`).
struct Screenshot {
    let width: Int
    let height: Int
    private let pixels: [UInt32]

    init(_ client: XClient) {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(client.display, client.root, &attributes)
        width = Int(attributes.width)
        height = Int(attributes.height)
        guard let image = XGetImage(client.display, client.root, 0, 0, UInt32(width), UInt32(height), UInt(bitPattern: -1), ZPixmap) else {
            pixels = []
            return
        }
        defer { _ = image.pointee.f.destroy_image(image) }  // XDestroyImage is a macro
        var read = [UInt32](repeating: 0, count: width * height)
        let stride = Int(image.pointee.bytes_per_line)
        let data = UnsafeRawPointer(image.pointee.data!)
        for y in 0..<height {
            for x in 0..<width { read[y * width + x] = data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) & 0xffffff }
        }
        pixels = read
    }

    subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// The pixels that differ from `other`'s, within `area` (x, y, width, height).
    func differences(from other: Screenshot, in area: (x: Int, y: Int, width: Int, height: Int)) -> [(Int, Int)] {
        var found: [(Int, Int)] = []
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) where self[x, y] != other[x, y] { found.append((x, y)) }
        }
        return found
    }
}

/// How far `p` is from the polyline through `points`.
func distance(from p: Point, toPolyline points: [Point]) -> Double {
    guard var previous = points.first else { return .infinity }
    var best = p.distance(to: previous)
    for q in points.dropFirst() {
        let d = q - previous
        let t = max(0, min(1, ((p.x - previous.x) * d.x + (p.y - previous.y) * d.y) / max(d.x * d.x + d.y * d.y, 1e-9)))
        best = min(best, p.distance(to: Point(x: previous.x + d.x * t, y: previous.y + d.y * t)))
        previous = q
    }
    return best
}

/// Whether two 0xRRGGBB colours are within `tolerance` on every channel.
func close(_ a: UInt32, _ b: UInt32, tolerance: Int = 10) -> Bool {
    (0..<3).allSatisfy { k in abs(Int((a >> (8 * UInt32(k))) & 0xff) - Int((b >> (8 * UInt32(k))) & 0xff)) <= tolerance }
}

/// A compositor from Debian (`xcompmgr`, `picom`) started on a test server, stopped at the end.
final class Compositor {
    private let process: ChildProcess

    /// Starts `argv` on `server` and waits until it owns `_NET_WM_CM_S0`.
    init(_ server: XServer, _ argv: [String]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gb-compositor-\(UUID().uuidString).log")
        process = try ChildProcess(["timeout", "-k", "5", "600"] + argv, environment: ["DISPLAY": server.name, "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()], log: log.path)
        let client = try XClient(server.name)
        let owned = poll(timeout: .seconds(10)) { XGetSelectionOwner(client.display, client.atom("_NET_WM_CM_S0")) != 0 }
        guard owned else {
            process.stop()
            throw HarnessError("\(argv[0]) did not take _NET_WM_CM_S0: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
    }

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/xcompmgr") }

    func stop() { process.stop() }

    /// Kills the compositor itself with SIGKILL, as a crash would: it gives nothing back (its
    /// selection, the redirection) on its way out.
    func crash() {
        let children = (try? String(contentsOfFile: "/proc/\(process.pid)/task/\(process.pid)/children", encoding: .utf8)) ?? ""
        for pid in children.split(separator: " ").compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        process.stop()
    }

    deinit { process.stop() }
}

extension XClient {
    /// The windows of gesture-bridge's on-screen feedback (`WM_CLASS` "gesture-bridge"), mapped or not.
    func feedbackWindows() -> [Window] {
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        XQueryTree(display, root, &rootReturn, &parent, &children, &count)
        defer { if let children { XFree(children) } }
        return (0..<Int(count)).compactMap { i -> Window? in
            let window = children![i]
            var hint = XClassHint()
            guard XGetClassHint(display, window, &hint) != 0 else { return nil }
            defer {
                XFree(hint.res_name)
                XFree(hint.res_class)
            }
            return String(cString: hint.res_name) == "gesture-bridge" ? window : nil
        }
    }

    /// The window's `WM_NAME`.
    func name(of window: Window) -> String? {
        var name: UnsafeMutablePointer<CChar>? = nil
        guard XFetchName(display, window, &name) != 0, let name else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }

    /// Whether `window` is mapped (viewable).
    func isMapped(_ window: Window) -> Bool {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, window, &attributes)
        return attributes.map_state == IsViewable
    }

    /// The window that has the keyboard focus.
    func focus() -> Window {
        var window: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &window, &revert)
        return window
    }
}
