public import GestureConfig

extension Explanation {
    /// `note` with what the phase does to held keys, for a person: `holding alt` when the fired
    /// binding holds keys, `releasing alt` when the gesture lets go of what it held.
    ///
    /// ```text
    /// → key Tab  (config.toml:12:1)  holding alt
    /// releasing alt
    /// ```
    public static func holding(_ note: String?, binding: Binding?, release: String?) -> String? {
        var parts: [String] = note.map { [$0] } ?? []
        if let hold = binding?.holdText { parts.append("holding \(hold)") }
        if let release { parts.append("releasing \(release)") }
        return parts.isEmpty ? nil : parts.joined(separator: "  ")
    }
}
