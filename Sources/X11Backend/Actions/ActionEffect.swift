internal import CX11
import GestureConfig
import Logging

/// What X must show after a workspace or window action for the window manager to have done it.
///
/// A window manager that ignores a request says nothing: the message is sent, the server takes
/// it, and nothing happens. So after each such action the performer looks where X shows the
/// effect — the desktop shown, the window's state, its frame, whether it is mapped — until it is
/// there or ``X11ActionPerformer/effectTimeout`` has passed (see ``PendingEffect``).
enum ExpectedEffect: Sendable {
    /// `_NET_CURRENT_DESKTOP` is this desktop (0-based).
    case currentDesktop(Int)
    /// The window's `_NET_WM_DESKTOP` is `desktop` (or every desktop), and `desktop` is shown.
    case windowOnDesktop(WindowID, desktop: Int)
    /// The window's `_NET_WM_STATE` has every atom of `present` and none of `absent`.
    case state(WindowID, present: Set<UInt>, absent: Set<UInt>)
    /// The window is minimized: ICCCM `WM_STATE` is `IconicState`, or `_NET_WM_STATE` has
    /// `_NET_WM_STATE_HIDDEN`, or it is no longer viewable (on its desktop).
    case minimized(WindowID)
    /// The window is gone: destroyed, or withdrawn (unmapped with no `WM_STATE`).
    case closed(WindowID)
    /// The window's frame is `target`, or smaller by less than a resize step (terminals).
    case frame(WindowID, target: PixelRect, slack: PixelSize)
    /// `_NET_SHOWING_DESKTOP` is `showing`; when showing, `hidden` (the focused window) is
    /// hidden (as ``minimized(_:)`` sees it).
    case showingDesktop(Bool, hidden: WindowID?)
    /// The window is in neither maximized state nor fullscreen, and has stayed so for
    /// ``X11ActionPerformer/restoreSettle``; then `then` (a tile) is done.
    case restored(WindowID, then: X11ActionPerformer.TileRequest?)
}

/// A width and a height in pixels.
struct PixelSize: Hashable, Sendable {
    var width: Int
    var height: Int
}

/// An action whose effect is still to be seen, and how long to look.
struct PendingEffect {
    /// The action, for the log line.
    var action: Action
    /// What should happen, said as the log line says what did not: "switch to desktop 2".
    var goal: String
    var expected: ExpectedEffect
    /// The window manager the request went to.
    var windowManager: WindowManagerAbilities
    /// When the effect counts as not done.
    var deadline: ContinuousClock.Instant
    /// When to look next.
    var nextCheck: ContinuousClock.Instant
    /// How long after the previous look (doubling up to ``X11ActionPerformer/effectCheckMaxInterval``).
    var interval: Duration
    /// A second way of asking, sent once if the effect is not there after
    /// ``X11ActionPerformer/fallbackDelay`` (`_NET_WM_STATE_HIDDEN` after `WM_CHANGE_STATE`).
    var fallback: Fallback?
    var fallbackAt: ContinuousClock.Instant
    /// A restore: the states whose removal was asked for last (asked again when they change).
    var removalSent: Set<UInt> = []
    /// A restore: since when the state has been clear.
    var clearSince: ContinuousClock.Instant?

    /// A request sent only if the first did nothing.
    enum Fallback: Sendable {
        /// Add `_NET_WM_STATE_HIDDEN` (bspwm hides a window so, and ignores `WM_CHANGE_STATE`).
        case addHidden(WindowID)
    }
}

/// Says once per action what the window manager did not do, and when it does it again.
///
/// Like the daemon's failure log for actions that fail outright: the first missed effect is a
/// warning with the reason; the same action missing its effect again is a debug line; the
/// first time it has its effect after that is one notice.
///
/// ```text
/// warning window minimize: i3 did not minimize the window within 2 s (WM_STATE is Normal): i3 has no minimized state
/// notice  window minimize has its effect again
/// ```
final class EffectLog {
    private let logger: Logger
    /// The actions (as log lines name them) whose last effect was missed, and the window
    /// manager that missed it.
    private var missing: [String: String] = [:]

    init(logger: Logger) {
        self.logger = logger
    }

    /// The effect of `action` was not seen; `message` says what and why, `seen` what X showed.
    func missed(_ action: Action, message: String, seen: String, windowManager: String) {
        let name = Self.name(action)
        if missing[name] == windowManager {
            logger.debug("effect missed again: \(message)", metadata: ["seen": "\(seen)"])
            return
        }
        missing[name] = windowManager
        logger.warning("\(message)", metadata: ["seen": "\(seen)"])
    }

    /// The effect of `action` was seen: after misses, that is said once.
    func seen(_ action: Action) {
        guard !missing.isEmpty, missing.removeValue(forKey: Self.name(action)) != nil else { return }
        logger.notice("\(Self.name(action)) has its effect again")
    }

    private static func name(_ action: Action) -> String { Excerpt.of(action.description) }
}

extension X11ActionPerformer {
    /// How long a window manager has to show an action's effect. They were seen to take 1 to
    /// 50 ms; the bound leaves room for a loaded machine, and only delays the log line.
    static let effectTimeout = Duration.seconds(2)
    /// The first look, after the request has been sent.
    static let effectCheckFirstInterval = Duration.milliseconds(5)
    /// Looks come at most this far apart.
    static let effectCheckMaxInterval = Duration.milliseconds(160)
    /// How long the first request has before a fallback request is sent.
    static let fallbackDelay = Duration.milliseconds(150)

    /// Remembers to check `expected` after `action`; replaces an earlier check (see
    /// ``settlePendingEffect()``).
    func expect(_ expected: ExpectedEffect, goal: String, after action: Action, windowManager: WindowManagerAbilities,
                fallback: PendingEffect.Fallback? = nil) {
        let now = ContinuousClock.now
        pendingEffect = PendingEffect(
            action: action, goal: goal, expected: expected, windowManager: windowManager, deadline: now + Self.effectTimeout,
            nextCheck: now + Self.effectCheckFirstInterval, interval: Self.effectCheckFirstInterval,
            fallback: fallback, fallbackAt: now + Self.fallbackDelay)
    }

    /// Before another workspace or window action: the pending check is looked at once more; an
    /// effect not there yet is not judged (the new action may undo it or depend on it), only
    /// dropped.
    func settlePendingEffect() {
        guard let pending = pendingEffect else { return }
        pendingEffect = nil
        if (try? observe(pending.expected)) == .some(nil) { effectLog.seen(pending.action) }
    }

    /// Looks for the pending effect when it is due: seen, it is done; past the deadline, the
    /// log says what the window manager did not do. Never waits.
    func checkPendingEffect(now: ContinuousClock.Instant) {
        guard var pending = pendingEffect, pending.nextCheck <= now, !display.isConnectionLost else { return }
        if case .restored(let window, let then) = pending.expected {
            return continueRestore(&pending, window: window, then: then, now: now)
        }
        let seen: String?
        do {
            seen = try observe(pending.expected)
        } catch {
            pendingEffect = nil
            logger.debug("cannot check the effect of \(Excerpt.of(pending.action.description)): \(error)")
            return
        }
        guard let seen else {
            pendingEffect = nil
            effectLog.seen(pending.action)
            return
        }
        if let fallback = pending.fallback, now >= pending.fallbackAt {
            pending.fallback = nil
            do {
                try send(fallback)
            } catch {
                logger.debug("fallback for \(Excerpt.of(pending.action.description)) failed: \(error)")
            }
        }
        guard now < pending.deadline else {
            pendingEffect = nil
            let wm = pending.windowManager
            let cause = wm.knownCause(for: pending.action).map { ": \($0)" } ?? ""
            let message = "\(Excerpt.of(pending.action.description)): \(wm.name) did not \(pending.goal) within \(Self.effectTimeout)\(cause)"
            effectLog.missed(pending.action, message: message, seen: seen, windowManager: wm.name)
            return
        }
        pending.interval = min(pending.interval * 2, Self.effectCheckMaxInterval)
        pending.nextCheck = now + pending.interval
        pendingEffect = pending
    }

    /// One look at a restore under way: asks again for a state that came back, and once the
    /// state has stayed clear for ``restoreSettle``, does the tile that waited for it.
    private func continueRestore(_ pending: inout PendingEffect, window: WindowID, then: TileRequest?, now: ContinuousClock.Instant) {
        let text = Excerpt.of(pending.action.description)
        do {
            let left = try wmState(of: window).intersection(try restoredStates())
            if left.isEmpty {
                let since = pending.clearSince ?? now
                pending.clearSince = since
                if now - since >= Self.restoreSettle {
                    pendingEffect = nil
                    if let then { try moveAndResize(then, pending.windowManager) } else { effectLog.seen(pending.action) }
                    return
                }
            } else {
                pending.clearSince = nil
                if left != pending.removalSent {
                    try askToRemove(left, from: window)
                    pending.removalSent = left
                }
            }
        } catch {
            pendingEffect = nil
            // The window went away meanwhile: nothing left to restore.
            if error.protocolError?.code == .badWindow { return }
            effectLog.missed(pending.action, message: "\(text): \(error)", seen: "", windowManager: pending.windowManager.name)
            return
        }
        guard now < pending.deadline else {
            pendingEffect = nil
            let wm = pending.windowManager
            let cause = wm.knownCause(for: pending.action).map { ": \($0)" } ?? ""
            effectLog.missed(pending.action, message: "\(text): \(wm.name) did not \(pending.goal) within \(Self.effectTimeout)\(cause)",
                             seen: "_NET_WM_STATE still has maximized or fullscreen", windowManager: wm.name)
            return
        }
        pending.nextCheck = now + Self.restoreCheckInterval
        pendingEffect = pending
    }

    private func send(_ fallback: PendingEffect.Fallback) throws(X11Error) {
        switch fallback {
        case .addHidden(let window):
            try display.sendClientMessage(.netWMState, about: window, data: [
                WMStateAction.add.rawValue, Int(try display.atom(.netWMStateHidden)), 0, Self.sourceIndicationUser,
            ])
        }
    }

    /// `nil` when `expected` is what X shows; otherwise what it shows instead.
    func observe(_ expected: ExpectedEffect) throws(X11Error) -> String? {
        let root = display.root
        do throws(X11Error) {
            switch expected {
            case .currentDesktop(let desktop):
                let current = try display.cardinal(.netCurrentDesktop, of: root).map { Int($0) }
                return current == desktop ? nil : "_NET_CURRENT_DESKTOP is \(current.map { "\($0 + 1)" } ?? "unset") (counted from 1)"
            case .windowOnDesktop(let window, let desktop):
                let on = try display.cardinal(.netWMDesktop, of: window)
                let current = try display.cardinal(.netCurrentDesktop, of: root).map { Int($0) }
                if (on == UInt(desktop) || on == Self.allDesktops), current == desktop { return nil }
                return "the window is on desktop \(on.map { $0 == Self.allDesktops ? "all" : "\($0 + 1)" } ?? "unset"), "
                    + "desktop \(current.map { "\($0 + 1)" } ?? "unset") is shown"
            case .state(let window, let present, let absent):
                let state = try wmState(of: window)
                if state.isSuperset(of: present), state.isDisjoint(with: absent) { return nil }
                return "_NET_WM_STATE is [\(try stateNames(state))]"
            case .minimized(let window):
                return try isHidden(window) ? nil : "WM_STATE is not Iconic, and the window is viewable without _NET_WM_STATE_HIDDEN"
            case .closed(let window):
                guard try display.windowExists(window) else { return nil }
                if try mapState(of: window) == IsUnmapped, try display.property(.wmState, of: window) == nil { return nil }
                return "the window still exists"
            case .frame(let window, let target, let slack):
                let frame = try currentFrame(of: window).rect
                let fits = frame.x == target.x && frame.y == target.y && frame.width <= target.width && frame.height <= target.height
                    && frame.width > target.width - max(1, slack.width) && frame.height > target.height - max(1, slack.height)
                return fits ? nil : "its frame is \(frame)"
            case .showingDesktop(let showing, let hidden):
                let value = (try display.cardinal(.netShowingDesktop, of: root) ?? 0) != 0
                guard value == showing else { return "_NET_SHOWING_DESKTOP is \(value ? 1 : 0)" }
                if let hidden, try !isHidden(hidden) {
                    return "_NET_SHOWING_DESKTOP is 1 but the focused window is still shown"
                }
                return nil
            case .restored(let window, _):
                let left = try wmState(of: window).intersection(try restoredStates())
                return left.isEmpty ? nil : "_NET_WM_STATE is [\(try stateNames(left))]"
            }
        } catch {
            // The window went away meanwhile: nothing left to judge (a closed window is closed).
            if error.protocolError?.code == .badWindow { return nil }
            throw error
        }
    }

    /// Whether the window manager hides `window`: ICCCM `IconicState`, `_NET_WM_STATE_HIDDEN`
    /// (mutter keeps hidden windows mapped, for its compositor), or not viewable.
    func isHidden(_ window: WindowID) throws(X11Error) -> Bool {
        if try display.cardinal(.wmState, of: window) == UInt(Self.iconicState) { return true }
        if try wmState(of: window).contains(UInt(try display.atom(.netWMStateHidden))) { return true }
        return try mapState(of: window) != IsViewable
    }

    /// `map_state` of `window` (`IsUnmapped`, `IsUnviewable`, `IsViewable`).
    func mapState(of window: WindowID) throws(X11Error) -> Int32 {
        try display.call("XGetWindowAttributes") { handle -> Int32 in
            var attributes = XWindowAttributes()
            XGetWindowAttributes(handle, window.rawValue, &attributes)
            return attributes.map_state
        }
    }

    /// The names of the atoms in a `_NET_WM_STATE`, for log lines.
    private func stateNames(_ state: Set<UInt>) throws(X11Error) -> String {
        var names: [String] = []
        for atom in state { names.append(try display.atomName(Atom(atom)) ?? "\(atom)") }
        return names.sorted().joined(separator: ", ")
    }
}
