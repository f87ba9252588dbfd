/// The half of a monitor's work area that `window tile` fills.
public enum TileSide: String, CaseIterable, Hashable, Sendable {
    case left, right, top, bottom
}
