public import BridgeCore
public import GestureConfig
import Logging

/// Says each failing action once, for a person reading the log.
///
/// A gesture bound to an action that cannot work right now — `workspace next` while the window
/// manager is gone, an `exec` of a program that was uninstalled — fails every time it fires.
/// The first failure is an error line with the reason (which says what to do); the same failure
/// again is only a debug line; the first success after a failure is one notice that the action
/// works again. A different reason for the same action is a new error line.
///
/// ```text
/// error  action failed: workspace next: no EWMH window manager is running on :0 (…): start one …
/// debug  action failed again: workspace next: …          (each further firing, --verbose only)
/// notice workspace next works again
/// ```
public final class ActionFailureLog {
    private let logger: Logger
    /// The failing actions (as their log lines name them) and the reason logged for each.
    private var failing: [String: String] = [:]

    init(logger: Logger) {
        self.logger = logger
    }

    /// `action` of the binding at `binding` failed with `error`.
    public func failed(_ action: Action, _ error: ActionError, binding: String) {
        let name = Self.name(action)
        if failing[name] == error.message {
            logger.debug("action failed again: \(error)", metadata: ["binding": "\(binding)"])
            return
        }
        failing[name] = error.message
        logger.error("action failed: \(error)", metadata: ["binding": "\(binding)"])
    }

    /// `action` was performed: after failures, that is said once.
    public func succeeded(_ action: Action) {
        guard !failing.isEmpty, failing.removeValue(forKey: Self.name(action)) != nil else { return }
        logger.notice("\(Self.name(action)) works again")
    }

    /// How log lines name an action (bounded, whatever its length).
    private static func name(_ action: Action) -> String { Excerpt.of(action.description) }
}
