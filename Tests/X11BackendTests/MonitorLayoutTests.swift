import GestureEngine
import Testing

@testable import X11Backend

/// How RandR's monitor list becomes the list gestures are judged on (``MonitorLayout``).
@Suite("monitor layout")
struct MonitorLayoutTests {
    static let screen = RandRMonitor(name: "screen", x: 0, y: 0, width: 1280, height: 800, primary: true)
    static let left = RandRMonitor(name: "left", x: 0, y: 0, width: 640, height: 800)
    static let right = RandRMonitor(name: "right", x: 640, y: 0, width: 640, height: 800)

    func names(_ list: [RandRMonitor]?) -> [String] { MonitorLayout.monitors(from: list).map(\.name) }

    @Test func aSplitReplacesTheScreenSizedMonitorItCovers() {
        #expect(names([Self.left, Self.right, Self.screen]) == ["left", "right"])
        #expect(names([Self.screen, Self.left, Self.right]) == ["left", "right"])
    }

    @Test func aMonitorCarvedOutOfABiggerOneComesFirstAndBothStay() {
        #expect(names([Self.screen, Self.right]) == ["right", "screen"])
    }

    @Test func sideBySideOutputsStayInRandROrder() {
        let laptop = RandRMonitor(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, primary: true)
        let external = RandRMonitor(name: "HDMI-1", x: 1920, y: 0, width: 2560, height: 1440)
        #expect(MonitorLayout.monitors(from: [laptop, external]) == [
            Monitor(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080),
            Monitor(name: "HDMI-1", x: 1920, y: 0, width: 2560, height: 1440),
        ])
    }

    @Test func mirroredOutputsKeepTheFirst() {
        let a = RandRMonitor(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080)
        let b = RandRMonitor(name: "HDMI-1", x: 0, y: 0, width: 1920, height: 1080)
        #expect(names([a, b]) == ["eDP-1"])
    }

    @Test func withoutRandROrWithoutMonitorsTheScreenIsOneMonitor() {
        #expect(names(nil) == [])
        #expect(names([]) == [])
        #expect(names([RandRMonitor(name: "off", x: 0, y: 0, width: 0, height: 0)]) == [])
        #expect(MonitorBindings.names([]) == ["screen"])
    }

    @Test func aPartialCoverKeepsTheBigMonitor() {
        let top = RandRMonitor(name: "top", x: 0, y: 0, width: 1280, height: 400)
        #expect(names([Self.screen, top, Self.left]) == ["top", "left", "screen"])
    }
}
