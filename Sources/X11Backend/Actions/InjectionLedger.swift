/// What gesture-bridge injected through XTest and has not yet seen come back: how the capture
/// layer tells its own injections from everybody else's.
///
/// XTest events carry no mark of who sent them, and `xdotool` (or a test driver) uses the same
/// XTEST devices as gesture-bridge. So the performer writes down every event it injects (kind,
/// keycode or button, when), and the capture layer asks about each event that comes from an
/// XTEST device: ``isOwnInjection(_:detail:at:)`` answers yes at most once per injected event
/// and forgets entries after ``lifetime``.
///
/// ## How the capture layer uses it
/// 1. Share one ledger between the ``X11ActionPerformer`` and the capture (single thread).
///    Replaying a grabbed click through XTest records into the same ledger
///    (``record(_:detail:at:)``).
/// 2. For an event whose `sourceid` is a device with ``InputDevice/isXTest``, call
///    ``isOwnInjection(_:detail:at:)``; if it answers `true`, drop the event (it is gesture-bridge's
///    own output). Events from any other device are never own injections: do not ask.
/// 3. Ask for one event stream only — the one fed to the engine (e.g. `XI_RawButtonPress` or the
///    grabbed `XI_ButtonPress`, not both): every question consumes the entry it matches. Raw
///    events selected for `XIAllDevices` arrive twice, from the XTEST slave and from its master
///    (same `sourceid`); ask about the slave's copy only (`deviceid == sourceid`).
///
/// Matching is by kind and detail, oldest entry first, within ``lifetime``; X server time is
/// not used, because XTest requests sent with `CurrentTime` learn their server time only when
/// they come back. An `xdotool` click of the same button within the same few milliseconds as
/// one of gesture-bridge's could be taken for its own — an accepted, harmless ambiguity.
///
/// ```swift
/// let ledger = InjectionLedger()
/// ledger.record(.buttonPress, detail: 3)
/// ledger.isOwnInjection(.buttonPress, detail: 3)   // true: ours, consumed
/// ledger.isOwnInjection(.buttonPress, detail: 3)   // false: someone else's
/// ```
public final class InjectionLedger {
    /// The kind of an injected event.
    public enum EventKind: String, Hashable, Sendable {
        case keyPress, keyRelease, buttonPress, buttonRelease, motion
    }

    /// One injected event not yet seen come back.
    public struct Entry: Hashable, Sendable {
        public var kind: EventKind
        /// The keycode or button; 0 for motion.
        public var detail: Int
        /// When it was injected, on the local monotonic clock.
        public var injectedAt: ContinuousClock.Instant
    }

    /// How long an injected event is expected back. The server delivers XTest events within
    /// milliseconds; one second covers a loaded machine and keeps the ledger from matching
    /// events that a capture never selected.
    public static let defaultLifetime = Duration.seconds(1)

    /// How long an entry stays matchable.
    public let lifetime: Duration
    /// Entries not yet matched or expired, oldest first.
    public private(set) var outstanding: [Entry] = []
    /// At most this many entries are kept (a capture that asks nothing cannot grow the ledger).
    private let capacity = 1024

    public init(lifetime: Duration = InjectionLedger.defaultLifetime) {
        self.lifetime = lifetime
    }

    /// Writes down one injected event.
    public func record(_ kind: EventKind, detail: Int, at instant: ContinuousClock.Instant = .now) {
        expire(before: instant)
        if outstanding.count == capacity { outstanding.removeFirst() }
        outstanding.append(Entry(kind: kind, detail: detail, injectedAt: instant))
    }

    /// Whether an event that came from an XTEST device is one gesture-bridge injected; a `true`
    /// answer consumes the matching entry.
    ///
    /// - Parameters:
    ///   - kind: The event's kind.
    ///   - detail: Its keycode or button (ignored for motion).
    ///   - instant: When the capture saw it, on the local monotonic clock.
    public func isOwnInjection(_ kind: EventKind, detail: Int, at instant: ContinuousClock.Instant = .now) -> Bool {
        expire(before: instant)
        guard let index = outstanding.firstIndex(where: { $0.kind == kind && (kind == .motion || $0.detail == detail) }) else {
            return false
        }
        outstanding.remove(at: index)
        return true
    }

    private func expire(before instant: ContinuousClock.Instant) {
        let cutoff = instant - lifetime
        if let keep = outstanding.firstIndex(where: { $0.injectedAt >= cutoff }) {
            outstanding.removeFirst(keep)
        } else {
            outstanding.removeAll()
        }
    }
}
