public import GestureConfig
public import GestureEngine

/// Where the on-screen feedback is drawn: the trail under a gesture being drawn and the word
/// on what it did (docs/config.md, «Feedback»). The live one is an X overlay (`X11Backend`);
/// tests record the calls.
///
/// Every call is made from the loop's thread after a turn's actions went out (see
/// ``PipelineObserver/turnEnded()``); nothing is sent before ``flush()``. A canvas that cannot
/// draw (no X, an X error) says so in its own log, once, and takes the calls as done: feedback
/// never stops gestures.
///
/// ```swift
/// canvas.drawTrail(.pointer, points: path[...], style: style, begins: true)
/// canvas.flush()
/// ```
public protocol FeedbackCanvas: AnyObject {
    /// How long one frame of the screen lasts (its refresh rate's period): drawing more often
    /// than this shows nothing more.
    var frameInterval: Duration { get }
    /// Gets ready to draw (a connection, windows, the letters of `characters`) before the first
    /// gesture needs it. `characters`: those an OSD of the config can show
    /// (``FeedbackText/characters(in:)``); empty when no OSD is shown. Others are still drawn,
    /// made ready when first shown.
    func prepare(characters: Set<Unicode.Scalar>)
    /// Draws more of `device`'s trail: the line through `points`, in order. With `begins`, a
    /// new trail starts with them; otherwise the first point is the last one drawn before.
    func drawTrail(_ device: DeviceKind, points: ArraySlice<Point>, style: TrailStyle, begins: Bool)
    /// `device`'s trail has not grown for a frame: what was drawn last is shown again, for a
    /// compositor that missed it (xcompmgr, now and then, leaves the last frame of a line off
    /// the screen until something damages it again). Nothing is drawn that was not there.
    func settleTrail(_ device: DeviceKind)
    /// Takes `device`'s trail off the screen.
    func endTrail(_ device: DeviceKind)
    /// Shows `text` near `point` (root pixels), in place of what was shown.
    func showOSD(_ text: String, near point: Point)
    /// Takes the OSD off the screen.
    func hideOSD()
    /// Sends what was drawn.
    func flush()
    /// The run ends: everything off the screen, everything let go of.
    func close()
}

/// How a trail is drawn: `trail_color`, `trail_width` (px at 96 dpi).
public struct TrailStyle: Hashable, Sendable {
    public var color: RGBAColor
    public var width: Double

    public init(color: RGBAColor, width: Double) {
        self.color = color
        self.width = width
    }
}
