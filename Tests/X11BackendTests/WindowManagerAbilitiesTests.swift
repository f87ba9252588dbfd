import GestureConfig
import Testing
@testable import X11Backend

/// What a window manager can do, from what it lists, its desktops and what was seen of it (no
/// server): the lines `doctor` prints per bound action.
@Suite("what each window manager can do (no server)")
struct WindowManagerAbilitiesTests {
    static let full = Set(WindowManagerAbilities.hintsOfInterest)

    @Test("a manager that lists every hint, with 4 desktops, can do every action")
    func everything() {
        let wm = WindowManagerAbilities(name: "Openbox", supported: Self.full, desktops: 4)
        let actions: [Action] = [.workspace(.next), .workspace(.number(4)), .tile(.left), .moveWindowToWorkspace(.previous), .showDesktop]
            + WindowOperation.allCases.map { .window($0) }
        for action in actions {
            guard case .yes? = wm.ability(for: action, display: ":0") else {
                Issue.record("\(action): \(String(describing: wm.ability(for: action, display: ":0")))")
                continue
            }
        }
        #expect(wm.ability(for: .key(KeyCombo(keys: [])), display: ":0") == nil)
    }

    @Test("i3 as it starts: one desktop, no maximized state, no minimize, floating windows only for tile")
    func i3() {
        let wm = WindowManagerAbilities(name: "i3", supported: Self.full.subtracting(["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ",
                                                                                      "_NET_SHOWING_DESKTOP", "_NET_WORKAREA", "_NET_FRAME_EXTENTS"]),
                                        desktops: 1)
        #expect(wm.ability(for: .workspace(.next), display: ":0")
            == .no(":0 has 1 desktop (i3 creates a workspace only when it is used: bind `key super+N` to make one)"))
        #expect(wm.ability(for: .workspace(.number(2)), display: ":0") == .no("there is no desktop 2 on :0: it has 1"))
        #expect(wm.ability(for: .window(.maximize), display: ":0")
            == .no("i3 does not list _NET_WM_STATE_MAXIMIZED_VERT, _NET_WM_STATE_MAXIMIZED_HORZ in _NET_SUPPORTED"))
        #expect(wm.ability(for: .window(.minimize), display: ":0")
            == .no("i3 has no minimized state: it ignores WM_CHANGE_STATE and _NET_WM_STATE_HIDDEN"))
        #expect(wm.ability(for: .tile(.left), display: ":0")
            == .partly("floating windows only: i3 places its tiled windows itself; _NET_MOVERESIZE_WINDOW, within the monitor less the panels' struts"))
        #expect(wm.ability(for: .showDesktop, display: ":0") == .no("i3 does not list _NET_SHOWING_DESKTOP in _NET_SUPPORTED"))
    }

    @Test("known limits: KWin's show-desktop needs its shell, awesome keeps windows maximized, bspwm minimizes through _NET_WM_STATE_HIDDEN")
    func knownLimits() {
        let kwin = WindowManagerAbilities(name: "KWin", supported: Self.full, desktops: 1)
        #expect(kwin.ability(for: .showDesktop, display: ":0") == .partly("only with Plasma's shell (plasmashell) running: KWin alone hides no window"))
        #expect(kwin.ability(for: .workspace(.previous), display: ":0")
            == .no(":0 has 1 desktop (KWin has 1 unless more are set: System Settings → Virtual Desktops, or kwinrc [Desktops] Number)"))
        let awesome = WindowManagerAbilities(name: "awesome", supported: Self.full.subtracting(["_NET_MOVERESIZE_WINDOW"]), desktops: 9)
        #expect(awesome.ability(for: .window(.maximize), display: ":0") == .yes("_NET_WM_STATE"))
        #expect(awesome.knownCause(for: .window(.restore)) == WindowManagerAbilities.awesomeKeepsMaximized)
        guard case .partly(let how)? = awesome.ability(for: .tile(.right), display: ":0") else {
            Issue.record("awesome tile: \(String(describing: awesome.ability(for: .tile(.right), display: ":0")))")
            return
        }
        #expect(how.contains("a ConfigureRequest (awesome does not list _NET_MOVERESIZE_WINDOW)"))
        let bspwm = WindowManagerAbilities(name: "bspwm", supported: ["_NET_ACTIVE_WINDOW", "_NET_WM_STATE_HIDDEN"], desktops: 4)
        #expect(bspwm.ability(for: .window(.minimize), display: ":0") == .yes("WM_CHANGE_STATE, then _NET_WM_STATE_HIDDEN if that is not enough"))
    }
}
