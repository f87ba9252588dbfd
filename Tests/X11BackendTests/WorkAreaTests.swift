import GestureConfig
import Testing
@testable import X11Backend

private func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> PixelRect { PixelRect(x: x, y: y, width: width, height: height) }

@Suite("the monitor a window is on, its work area and its halves (no server)")
struct WorkAreaTests {
    static let screen = rect(0, 0, 1280, 800)
    /// Xvfb after `xrandr --setmonitor left … right …`: the screen-sized monitor is listed first.
    static let xvfbSplit = [screen, rect(0, 0, 640, 800), rect(640, 0, 640, 800)]

    @Test("the smallest monitor containing the frame's centre wins over a screen-sized one listed before it")
    func smallestContaining() {
        #expect(WindowPlacement.monitor(for: rect(700, 100, 400, 300), among: Self.xvfbSplit) == 2)
        #expect(WindowPlacement.monitor(for: rect(100, 100, 400, 300), among: Self.xvfbSplit) == 1)
        // A frame across the boundary goes where its centre is.
        #expect(WindowPlacement.monitor(for: rect(500, 100, 400, 300), among: Self.xvfbSplit) == 2)
        // Equal monitors (a clone): the first listed.
        #expect(WindowPlacement.monitor(for: rect(10, 10, 10, 10), among: [Self.screen, Self.screen]) == 0)
        #expect(WindowPlacement.monitor(for: rect(10, 10, 10, 10), among: []) == nil)
    }

    @Test("a centre off every monitor: the largest overlap, else the nearest monitor")
    func offscreenCentre() {
        let monitors = [rect(0, 0, 640, 800), rect(640, 0, 640, 800)]
        // Centre at (1300, 400), off both; the frame overlaps the right one only.
        #expect(WindowPlacement.monitor(for: rect(1200, 300, 200, 200), among: monitors) == 1)
        // Nowhere near: the nearest.
        #expect(WindowPlacement.monitor(for: rect(-900, 100, 100, 100), among: monitors) == 0)
        #expect(WindowPlacement.monitor(for: rect(3000, 100, 100, 100), among: monitors) == 1)
    }

    @Test("struts push in only the sides of the monitors their bands overlap")
    func workArea() throws {
        let left = rect(0, 0, 640, 800), right = rect(640, 0, 640, 800)
        // A 40 px bottom panel on the left monitor only (x 0…639), a 30 px top panel across both.
        let bottomPanel = try #require(Strut(partial: [0, 0, 0, 40, 0, 0, 0, 0, 0, 0, 0, 639]))
        let topPanel = try #require(Strut(legacy: [0, 0, 30, 0], screen: Self.screen))
        #expect(WindowPlacement.workArea(of: left, struts: [bottomPanel, topPanel], screen: Self.screen) == rect(0, 30, 640, 730))
        #expect(WindowPlacement.workArea(of: right, struts: [bottomPanel, topPanel], screen: Self.screen) == rect(640, 30, 640, 770))
        // A left dock 50 px wide, only on y 0…399, and a right one on the right monitor.
        let leftDock = try #require(Strut(partial: [50, 0, 0, 0, 0, 399, 0, 0, 0, 0, 0, 0]))
        let rightDock = try #require(Strut(partial: [0, 64, 0, 0, 0, 0, 100, 700, 0, 0, 0, 0]))
        #expect(WindowPlacement.workArea(of: left, struts: [leftDock, rightDock], screen: Self.screen) == rect(50, 0, 590, 800))
        #expect(WindowPlacement.workArea(of: right, struts: [leftDock, rightDock], screen: Self.screen) == rect(640, 0, 576, 800))
        // Struts that leave nothing are ignored; too few values are no strut.
        let everything = try #require(Strut(legacy: [700, 700, 0, 0], screen: Self.screen))
        #expect(WindowPlacement.workArea(of: left, struts: [everything], screen: Self.screen) == left)
        #expect(Strut(partial: [1, 2, 3, 4]) == nil)
        #expect(Strut(legacy: [1, 2], screen: Self.screen) == nil)
    }

    @Test("halves: the left or top half is the smaller by a pixel when the size is odd")
    func halves() {
        let area = rect(10, 20, 101, 51)
        #expect(WindowPlacement.half(.left, of: area) == rect(10, 20, 50, 51))
        #expect(WindowPlacement.half(.right, of: area) == rect(60, 20, 51, 51))
        #expect(WindowPlacement.half(.top, of: area) == rect(10, 20, 101, 25))
        #expect(WindowPlacement.half(.bottom, of: area) == rect(10, 45, 101, 26))
    }

    @Test("the window manager's _NET_WORKAREA adds only what the struts read do not explain, along whole edges")
    func publishedWorkArea() {
        // fluxbox: its own 20 px toolbar at the bottom, which no client strut describes.
        #expect(WindowPlacement.reservations(of: rect(0, 0, 1280, 780), beyond: [], screen: Self.screen)
            == [Strut(legacy: [0, 0, 0, 20], screen: Self.screen)!])
        // openbox with a 40 px panel on the left monitor only: the panel explains it all, so the
        // right monitor keeps its full height.
        let panel = Strut(partial: [0, 0, 0, 40, 0, 0, 0, 0, 0, 0, 0, 639])!
        #expect(WindowPlacement.reservations(of: rect(0, 0, 1280, 760), beyond: [panel], screen: Self.screen).isEmpty)
        // A thicker reservation than the panel's (a manager's bar beside it): the rest counts.
        let both = WindowPlacement.reservations(of: rect(30, 0, 1250, 760), beyond: [panel], screen: Self.screen)
        #expect(both == [Strut(legacy: [30, 0, 0, 0], screen: Self.screen)!])
        let right = rect(640, 0, 640, 800)
        #expect(WindowPlacement.workArea(of: right, struts: [panel] + both, screen: Self.screen) == right)
        // A work area the size of the screen, or none at all, reserves nothing.
        #expect(WindowPlacement.reservations(of: Self.screen, beyond: [], screen: Self.screen).isEmpty)
        #expect(WindowPlacement.reservations(of: rect(0, 0, 0, 0), beyond: [], screen: Self.screen).isEmpty)
    }

    @Test("every new action names the EWMH hints the doctor and the performer check; tile needs only the focused window")
    func hints() {
        // Without _NET_MOVERESIZE_WINDOW a ConfigureRequest moves the window; without
        // _NET_FRAME_EXTENTS the frame is measured.
        #expect(EWMHNeeds.hints(for: .tile(.left)) == ["_NET_ACTIVE_WINDOW"])
        #expect(EWMHNeeds.hints(for: .moveWindowToWorkspace(.next)).contains("_NET_WM_DESKTOP"))
        #expect(EWMHNeeds.hints(for: .showDesktop) == ["_NET_SHOWING_DESKTOP"])
        #expect(EWMHNeeds.hints(for: .window(.toggleMaximize)).contains("_NET_WM_STATE_MAXIMIZED_HORZ"))
        #expect(EWMHNeeds.hints(for: .window(.restore)) == ["_NET_ACTIVE_WINDOW", "_NET_WM_STATE"])
    }
}
