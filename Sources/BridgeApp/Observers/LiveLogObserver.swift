public import BridgeCore
public import GestureConfig
import GestureEngine
public import Logging
public import X11Backend

/// The live daemon's log of what the pipeline did: one line per performed binding, repeats
/// counted at the end, why a gesture did nothing (``LiveLog``); failed actions once per reason
/// (``ActionFailureLog``); decisions, skips, transitions and engine bugs at debug.
///
/// Lines are written once the loop turn's actions and requests went out (``turnEnded()``): a
/// log line costs a clock and time-zone read and a write, which would otherwise sit between
/// a gesture and its injection. The turn's events are kept in one buffer and logged from
/// another, the two swapped, so that neither is copied or reallocated from turn to turn. A
/// failed action is logged at once, after what came before it: the failure log's state must
/// see it before a later success of the same action.
///
/// ```swift
/// let log = LiveLogObserver(logger: logger, failures: session.performer?.failures, config: { daemon.config })
/// ```
public final class LiveLogObserver: PipelineObserver {
    private let logger: Logger
    private let failures: ActionFailureLog?
    private let config: () -> Config
    /// The lines for gesture phases (repeats collapsed, why nothing fired).
    private var liveLog = LiveLog()
    /// What the pipeline observed in this turn of the loop, not logged yet.
    private var deferred: [PipelineEvent] = []
    /// The observations being logged; swapped with ``deferred``.
    private var beingLogged: [PipelineEvent] = []

    /// - Parameters:
    ///   - logger: where lines go.
    ///   - failures: the performer's failure log (failed actions are said once per reason);
    ///     nil: each failure is an error line.
    ///   - config: the config in force when the lines are written (for why nothing fired).
    public init(logger: Logger, failures: ActionFailureLog?, config: @escaping () -> Config) {
        self.logger = logger
        self.failures = failures
        self.config = config
    }

    public func observe(_ event: PipelineEvent) {
        deferred.append(event)
        if case .actionFailed = event { turnEnded() }
    }

    /// Logs what the pipeline observed since the last call, in order.
    public func turnEnded() {
        guard !deferred.isEmpty else { return }
        swap(&deferred, &beingLogged)
        for event in beingLogged { log(event) }
        beingLogged.removeAll(keepingCapacity: true)
    }

    private func log(_ event: PipelineEvent) {
        switch event {
        case .phase(let report, let binding, let release):
            // One line per performed binding, repeats counted at the end; why nothing fired.
            for line in liveLog.lines(for: report, binding: binding, config: config()) {
                logger.log(level: line.level == .info ? .info : .debug, "\(line.message)",
                           metadata: line.metadata.isEmpty ? nil : line.metadata.mapValues { .string($0) })
            }
            if let release {
                logger.info("\(report.gesture.rawValue) \(report.phase.rawValue): released \(release)",
                            metadata: ["fingers": "\(report.fingers)", "device": "\(report.device.rawValue)"])
            }
        case .actionFailed(let binding, let action, let error):
            // Once per reason, not at every firing (see ActionFailureLog).
            if let failures {
                failures.failed(action, error, binding: "\(binding.source)")
            } else {
                logger.error("action failed: \(error)", metadata: ["binding": "\(binding.source)"])
            }
        case .skipped(let report, let binding, let lock):
            logger.debug("\(report.gesture.rawValue) \(report.phase.rawValue): skipped \(binding.actionExcerpt), the screen is locked (\(lock))",
                         metadata: ["fingers": "\(report.fingers)", "device": "\(report.device.rawValue)", "binding": "\(binding.source)"])
        case .passedOn(let decision, _):
            logger.debug("passed on to the application: \(decision.input)")
        case .claimed(let decision, _):
            logger.debug("claimed: \(decision.input)")
        case .transition(let transition):
            logger.debug("\(transition)")
        case .engineBug(let bug):
            logger.debug("\(bug)")
        case .path:
            break  // for an observer that draws it; the log does not ask for paths
        }
    }
}
