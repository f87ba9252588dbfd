/// Configs with held keys that several test targets use.
public enum HoldConfigs {
    /// The window-switching pair of docs/config.md on right-drags: a pan right holds Alt and
    /// presses Tab every 100 px, a pan left Shift+Tab.
    public static let pointerWindowSwitching = """
        [[bind]]
        gesture = "pan"
        direction = "right"
        device = "pointer"
        hold = "alt"
        repeat_every = 100
        action = "key Tab"

        [[bind]]
        gesture = "pan"
        direction = "left"
        device = "pointer"
        hold = "alt"
        repeat_every = 100
        action = "key shift+Tab"
        """
}
