internal import CX11
import GestureConfig

extension Doctor {
    /// The `actions` check: for each workspace and window action the config binds, whether the
    /// running window manager can do it (``WindowManagerAbilities``: what it lists in
    /// `_NET_SUPPORTED`, its desktops, and what was seen of it in tests).
    ///
    /// ```text
    /// warn  actions: i3 cannot do 2 of the 5 bound workspace and window actions, and 1 only in part
    ///       → …
    ///       workspace next: no: :0 has 1 desktop (i3 creates a workspace only when it is used: …)
    ///       window tile left: partly: floating windows only: i3 places its tiled windows itself; …
    ///       window close: yes: _NET_CLOSE_WINDOW (the application may ask first)
    /// ```
    func checkActions(_ display: X11Display, name: String, bindings: [Binding]) -> DoctorCheck {
        var actions: [Action] = []
        for binding in bindings {
            for action in binding.actions where !actions.contains(action) && !EWMHNeeds.hints(for: action).isEmpty {
                actions.append(action)
            }
        }
        guard !actions.isEmpty else { return DoctorCheck("actions", .ok, "no binding uses a workspace or window action") }
        let wm: WindowManagerAbilities
        do {
            wm = try WindowManagerAbilities(reading: display, name: name)
        } catch {
            return DoctorCheck("actions", .warn, "cannot read what \(name) supports: \(error)", advice: "see the X error")
        }
        var no = 0, partly = 0
        var details: [String] = []
        for action in actions {
            switch wm.ability(for: action, display: display.name) {
            case .yes(let how)?: details.append("\(action): yes: \(how)")
            case .partly(let how)?: partly += 1; details.append("\(action): partly: \(how)")
            case .no(let why)?: no += 1; details.append("\(action): no: \(why)")
            case nil: break
            }
        }
        let n = actions.count
        let noun = "bound workspace and window action\(n == 1 ? "" : "s")"
        if no == 0 && partly == 0 {
            return DoctorCheck("actions", .ok, "\(name) can do \(n == 1 ? "the" : "all \(n)") \(noun)", details: details)
        }
        var parts: [String] = []
        if no > 0 { parts.append("cannot do \(no) of the \(n) \(noun)") }
        if partly > 0 { parts.append("\(no > 0 ? "" : "of the \(n) \(noun) ")can do \(partly) only in part") }
        return DoctorCheck(
            "actions", .warn, "\(name) \(parts.joined(separator: ", and "))",
            advice: "see each action below and docs/config.md (window managers); bind the window manager's own shortcuts (`key …`) where it cannot",
            details: details)
    }
}
