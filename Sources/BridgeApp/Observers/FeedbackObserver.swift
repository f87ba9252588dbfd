public import BridgeCore
public import GestureConfig
import GestureEngine

/// The on-screen feedback (docs/config.md, «Feedback»): a trail along the path of a gesture
/// while it is undecided (or a pan runs), and after a gesture fired, or a stroke matched
/// nothing, a word on it near where it ended (the OSD). What to show is decided here; the
/// drawing is the ``FeedbackCanvas``'s.
///
/// **Never in the way of an action.** ``observe(_:)`` only stores: a point appended, a phase
/// remembered. Everything drawn is drawn in ``turnEnded()``, after the turn's actions and
/// requests went out, and sent by its own flush.
///
/// **Coalesced to the screen's frames.** Points arrive as fast as the input (240 Hz from a
/// gaming mouse); every one is kept, and whatever came since the last frame is drawn at once,
/// at most once per ``FeedbackCanvas/frameInterval``, with the OSD of the gesture that ended
/// (a flood of gestures is not drawn one by one). Between frames the observer asks the loop for
/// a turn at the next frame (``nextDeadline``); idle, it asks for nothing.
///
/// **Gone with the decision.** A path ends in the engine call that decides, gives back,
/// cancels or ends its gesture; the trail is taken off in the turn that saw the end, before
/// any frame wait. A trail only appears once the path has left the device's `slop_px` around
/// its start: a click or a tap draws nothing.
///
/// While the screen is locked nothing is shown (a locker's window must stay on top).
///
/// ```swift
/// let feedback = FeedbackObserver(canvas: canvas, config: { daemon.config }, isLocked: { false })
/// ```
public final class FeedbackObserver: PipelineObserver {
    private let canvas: any FeedbackCanvas
    private let config: () -> Config
    private let isLocked: () -> Bool
    private let clock: () -> ContinuousClock.Instant

    /// One device's trail: the whole path since its start, how much of it is on the screen.
    private struct Trail {
        /// The path is followed (its device draws trails and the path has not ended).
        var active = false
        /// The path ended in this turn: the trail goes.
        var ended = false
        /// The trail is on the screen.
        var shown = false
        var points: [Point] = []
        /// How many of ``points`` are on the screen.
        var drawn = 0
        /// A frame was drawn and the trail has not been settled since: once a frame passes
        /// with nothing new, the canvas shows its last frame again (``FeedbackCanvas/settleTrail(_:)``).
        var unsettled = false
        var style = TrailStyle(color: Feedback.defaultTrailColor, width: Feedback.defaultTrailWidth)
        /// Within this distance of the start nothing is drawn (`slop_px`).
        var slop = 0.0
    }

    /// Indexed by ``DeviceKind``'s order (``DeviceKind/allCases``): no hashing per point.
    private var trails = [Trail](repeating: Trail(), count: DeviceKind.allCases.count)
    /// The OSD-worthy phase of this turn, if any: its text once the turn ends.
    private var fired: (report: GestureReport, binding: Binding?)?
    /// A stroke that matched nothing in this turn, where its path ended.
    private var missed: (miss: StrokeMiss, device: DeviceKind, at: Point)?
    /// Where each device's last path ended, for the OSD.
    private var pathEnds = [Point?](repeating: nil, count: DeviceKind.allCases.count)
    /// When the next frame may be drawn.
    private var nextFrame: ContinuousClock.Instant? = nil
    /// When the OSD shown comes off.
    private var osdDue: ContinuousClock.Instant? = nil
    /// The OSD to show at the next frame: its words, where, and whose settings.
    private var pendingOSD: (words: String, at: Point, device: DeviceKind)? = nil
    /// Something was observed since the last turn's end.
    private var dirty = false
    private var prepared = false

    /// - Parameters:
    ///   - canvas: where it is drawn.
    ///   - config: the config in force (read at each path's start and each OSD).
    ///   - isLocked: whether the screen is locked now.
    ///   - clock: the local clock (tests pass their own).
    public init(
        canvas: any FeedbackCanvas, config: @escaping () -> Config, isLocked: @escaping () -> Bool,
        clock: @escaping () -> ContinuousClock.Instant = { .now }
    ) {
        self.canvas = canvas
        self.config = config
        self.isLocked = isLocked
        self.clock = clock
        for i in trails.indices { trails[i].points.reserveCapacity(1024) }
    }

    /// Only while the config shows something: the paths are reported from the engine's call
    /// that handles each motion, and the motion that completes a gesture would otherwise carry
    /// one more report to every observer before its action (docs/performance.md, «Latency by
    /// drag shape»). The OSD needs them too: a path's end is where its words go.
    public var watchesPaths: Bool { config().showsFeedback }

    public func runStarted() { prepareIfShown() }

    public func observe(_ event: PipelineEvent) {
        switch event {
        case .path(let step):
            follow(step)
        case .phase(let report, let binding, _):
            guard report.phase == .recognized || report.phase == .began else { return }
            // Strokes are meant: one that fired nothing says so; other gestures only when bound.
            guard binding != nil || report.gesture == .stroke else { return }
            fired = (report, binding)
            dirty = true
        case .passedOn, .claimed, .actionFailed, .skipped, .transition, .engineBug:
            break
        }
    }

    private func follow(_ step: PathEvent) {
        let i = Self.index(step.device)
        switch step.kind {
        case .begin:
            let config = self.config()
            guard config.drawsTrail(for: step.device) else {
                trails[i].active = false
                return
            }
            let settings = config.feedback.settings(for: step.device)
            trails[i].active = true
            trails[i].ended = false
            trails[i].shown = false
            trails[i].drawn = 0
            trails[i].unsettled = false
            trails[i].points.removeAll(keepingCapacity: true)
            trails[i].points.append(step.point)
            trails[i].style = TrailStyle(color: settings.trailColor, width: settings.trailWidth)
            trails[i].slop = slop(of: step.device, in: config)
            // The start is a point not drawn yet: the turn's end must look at it (within the
            // slop it is taken as drawn). Else ``nextDeadline`` would name the last frame,
            // long past, until a motion came: a loop that never waits while a press is held still.
            dirty = true
        case .point:
            guard trails[i].active else { return }
            trails[i].points.append(step.point)
            dirty = true
        case .end:
            pathEnds[i] = step.point
            // A click or a tap is no stroke: it is not told that it matched nothing.
            if let miss = step.strokeMiss, miss.diagonal > slop(of: step.device, in: config()) { missed = (miss, step.device, step.point) }
            if trails[i].active {
                trails[i].active = false
                trails[i].ended = true
            }
            trails[i].unsettled = false
            dirty = true
        }
    }

    /// Whether trail `i` has something for the next frame: points not drawn yet, or a frame to
    /// settle. Read in place: the loop asks at every turn, and a copy of a trail retains its
    /// points.
    private func hasFrameToDraw(_ i: Int) -> Bool {
        trails[i].active && (trails[i].points.count > trails[i].drawn || trails[i].unsettled)
    }

    public var nextDeadline: ContinuousClock.Instant? {
        let waiting = pendingOSD != nil || trails.indices.contains(where: hasFrameToDraw)
        let frame = waiting ? nextFrame : nil
        guard let frame else { return osdDue }
        return osdDue.map { min($0, frame) } ?? frame
    }

    public func turnEnded() {
        guard dirty || osdDue != nil || trails.indices.contains(where: { trails[$0].unsettled }) else { return }
        dirty = false
        let now = clock()
        if isLocked() {
            clearAll()
            return
        }
        var sent = false
        // What ended goes first, before any frame wait: within the turn that decided it.
        for i in trails.indices where trails[i].ended {
            trails[i].ended = false
            if trails[i].shown {
                canvas.endTrail(DeviceKind.allCases[i])
                trails[i].shown = false
                sent = true
            }
        }
        if let text = osdText() { pendingOSD = text }
        if let due = osdDue, due <= now, pendingOSD == nil {
            canvas.hideOSD()
            osdDue = nil
            sent = true
        }
        // The rest at most once a frame: a hand draws faster than the screen shows, and a
        // flood of gestures (a replayed trace, a test's) must not be drawn one by one.
        let pending = pendingOSD != nil || trails.indices.contains(where: hasFrameToDraw)
        if pending {
            if let frame = nextFrame, frame > now {
                dirty = true  // drawn at the frame (nextDeadline wakes the loop)
            } else {
                // A trail that did not grow for a frame: its last frame once more, and no more
                // frames until it grows.
                for i in trails.indices where trails[i].active && trails[i].unsettled && trails[i].points.count == trails[i].drawn {
                    trails[i].unsettled = false
                    canvas.settleTrail(DeviceKind.allCases[i])
                    sent = true
                }
                var drew = drawTrails()
                if let (words, at, device) = pendingOSD {
                    prepareIfNeeded()
                    canvas.showOSD(words, near: at)
                    osdDue = now + .milliseconds(config().feedback.settings(for: device).osdDurationMs)
                    pendingOSD = nil
                    drew = true
                }
                if drew {
                    nextFrame = now + canvas.frameInterval
                    sent = true
                }
            }
        }
        if sent { canvas.flush() }
    }

    /// Draws what each followed path added since the last frame; says whether anything was drawn.
    private func drawTrails() -> Bool {
        var drew = false
        for i in trails.indices where trails[i].active && trails[i].points.count > trails[i].drawn {
            let device = DeviceKind.allCases[i]
            if !trails[i].shown {
                // Nothing until the path leaves the start's slop: a click or a tap draws nothing.
                let start = trails[i].points[0]
                guard trails[i].points.contains(where: { $0.distance(to: start) > trails[i].slop }) else {
                    trails[i].drawn = trails[i].points.count
                    continue
                }
                prepareIfNeeded()
                canvas.drawTrail(device, points: trails[i].points[...], style: trails[i].style, begins: true)
                trails[i].shown = true
            } else {
                canvas.drawTrail(device, points: trails[i].points[(trails[i].drawn - 1)...], style: trails[i].style, begins: false)
            }
            trails[i].drawn = trails[i].points.count
            trails[i].unsettled = trails[i].shown
            drew = true
        }
        return drew
    }

    /// The OSD's words for this turn, where, and for which device's settings; taken once.
    private func osdText() -> (words: String, at: Point, device: DeviceKind)? {
        defer {
            fired = nil
            missed = nil
        }
        let config = self.config()
        if let (report, binding) = fired, config.feedback.settings(for: report.device).osd.contains(report.gesture) {
            let at = pathEnds[Self.index(report.device)] ?? report.position
            return (FeedbackText.fired(report, binding: binding), at, report.device)
        }
        if fired == nil, let (miss, device, at) = missed, config.feedback.settings(for: device).osd.contains(.stroke) {
            // A touchpad's distances are pointer motion: its rule stays in pixels.
            let millimetres = device.descriptor.isOnScreen ? (config.deviceSettings[device] ?? config.settings).strokeMinMm : nil
            return (FeedbackText.missed(miss, strokeMinMm: millimetres), at, device)
        }
        return nil
    }

    /// Everything off the screen (the screen locked).
    private func clearAll() {
        for i in trails.indices {
            if trails[i].shown { canvas.endTrail(DeviceKind.allCases[i]) }
            trails[i] = Trail(points: trails[i].points)
            trails[i].points.removeAll(keepingCapacity: true)
        }
        fired = nil
        missed = nil
        pendingOSD = nil
        if osdDue != nil { canvas.hideOSD() }
        osdDue = nil
        canvas.flush()
    }

    /// The canvas is made ready at start when the config shows anything, so that the first
    /// trail does not wait for it; otherwise when first needed (a reload that turned it on).
    private func prepareIfShown() {
        if config().showsFeedback { prepareIfNeeded() }
    }

    private func prepareIfNeeded() {
        guard !prepared else { return }
        prepared = true
        canvas.prepare(characters: FeedbackText.characters(in: config()))
    }

    public func runEnding(exitCode: Int32) -> Int32 {
        canvas.close()
        return exitCode
    }

    /// `slop_px` of `device`: within it of its start, a path is a click or a tap.
    private func slop(of device: DeviceKind, in config: Config) -> Double {
        (config.deviceSettings[device] ?? config.settings).slopPx
    }

    private static func index(_ device: DeviceKind) -> Int {
        switch device {
        case .touchscreen: 0
        case .touchpad: 1
        case .pointer: 2
        }
    }
}
