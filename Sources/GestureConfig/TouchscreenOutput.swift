/// `[touchscreen] output`: the RandR output the touchscreen is mapped onto (docs/config.md,
/// «[touchscreen]»), so that a touch lands under the finger whatever else is plugged in.
///
/// ```swift
/// TouchscreenOutput(written: "eDP-1")   // .named("eDP-1")
/// TouchscreenOutput(written: "auto")    // .automatic
/// ```
public enum TouchscreenOutput: Hashable, Sendable, CustomStringConvertible {
    /// The output whose physical size is the touchscreen's, else the laptop's own panel (an
    /// `eDP`, `LVDS` or `DSI` output), else the primary one.
    case automatic
    /// The output of this name, as `xrandr` lists it (exact case).
    case named(String)

    /// What the config's value means: `"auto"`, or an output's name.
    public init(written: String) {
        self = written == Self.automaticName ? .automatic : .named(written)
    }

    /// The value that asks for the automatic choice.
    public static let automaticName = "auto"

    /// As the config writes it.
    public var description: String {
        switch self {
        case .automatic: Self.automaticName
        case .named(let name): name
        }
    }
}
