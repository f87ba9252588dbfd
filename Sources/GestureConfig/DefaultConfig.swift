/// The config compiled into the binary, used when no config file is found.
public enum DefaultConfig {
    /// The name errors and logs give the embedded config.
    public static let fileName = "<default config>"

    /// The text of `config/default.toml`, byte for byte; a test keeps the two identical.
    /// After editing that file, paste it between the delimiters below (keep the empty last line).
    public static let text = #"""
# gesture-bridge: the default config.
#
# This is what gesture-bridge uses when no config file is found. To change it, write it to
# ~/.config/gesture-bridge/config.toml (`gesture-bridge print-config > FILE`, or pass --config
# FILE) and edit it there; check your edits with `gesture-bridge check-config`. The reference is
# docs/config.md, and `man gesture-bridge.toml`.

[recognizer]
# Every threshold is optional; the values shown are the defaults.
# slop_px = 10                  # how far a tap or a not-yet-begun long press may wander (px)
# tap_max_ms = 300              # longest press that still counts as a tap
# multi_tap_interval_ms = 300   # longest gap from one tap's release to the next tap's press
# multi_tap_distance_px = 50    # how far apart the taps of a multi-tap may be
# long_press_ms = 500           # how long fingers rest before a long press begins
# swipe_min_px = 80             # how far a swipe must travel
# swipe_min_velocity = 0.3      # px per ms, averaged over the swipe
# finger_settle_ms = 100        # fingers that land within this window count as one gesture
# pinch_min_scale = 0.15        # |scale - 1| before a pinch begins
# rotate_min_degrees = 15       # rotation before a rotate begins
# edge_px = 20                  # how close to a screen side an edge gesture must start
# stroke_min_score = 0.80       # how well a drawn stroke must match its shape (1 is identical)
# stroke_min_px = 60            # the smallest stroke, by the diagonal of its bounding box (px)

# Per device, the same keys override [recognizer] for that device's gestures, e.g.:
# [recognizer.touchpad]
# swipe_min_px = 40             # a touchpad's pixels are pointer motion, not screen distance

[pointer]
button = 3    # dragging with the right button makes pointer gestures; 0 turns them off

[touchscreen]
# claim_on_second_finger = false
# true: a multi-finger touch is taken from applications the moment its fingers make a count
# that a binding uses (from the second finger on), instead of once its gesture is recognized.
# That avoids the button 1 that xorg-server 21.1 reports held after a bound tap until the next
# touch (see the README's troubleshooting); the cost: applications never get those touches,
# even when no gesture then matches (a two-finger scroll in a touch-aware application, with
# a two-finger gesture bound).
# output = "auto"
# With another monitor plugged in, a touchscreen is spread over the whole screen: "auto" (or
# the output's name as `xrandr` lists it, "eDP-1") keeps it on its own monitor, turned as it is.

# What you see while you draw (docs/config.md, "Feedback"): a trail along the path of a
# gesture not yet decided, and after a stroke a word on what it did ("circle -> key F5", or why
# nothing: "no shape: best circle 0.74"). The values shown are the defaults.
# [feedback]
# trail = true                 # unsaid: on for a device where a stroke is bound (the cursor
#                              # waits there while you draw); off elsewhere
# trail_color = "#2a8cffcc"    # "#RRGGBB" or "#RRGGBBAA" (AA: opacity, with a compositor)
# trail_width = 4              # px on a 96 dpi monitor
# osd = ["stroke"]             # gestures named on screen when they fire; true: all; false: none
# osd_duration_ms = 600
# [feedback.touchscreen]       # per device, the same keys, e.g.:
# trail = false

# Three-finger swipes, on a touchscreen or a touchpad (no `device` matches both): left and
# right move between workspaces, up and down maximize and minimize the focused window.

[[bind]]
gesture = "swipe"
fingers = 3
direction = "left"
action = "workspace next"

[[bind]]
gesture = "swipe"
fingers = 3
direction = "right"
action = "workspace prev"

[[bind]]
gesture = "swipe"
fingers = 3
direction = "up"
action = "window maximize"

[[bind]]
gesture = "swipe"
fingers = 3
direction = "down"
action = "window minimize"

# Tiling with four fingers, commented out because a stray four-finger swipe would move your
# window: left and right put the focused window on that half of its monitor (panels left
# free), up maximizes it or restores it, down sends it to the next desktop and follows it.
#
# [[bind]]
# gesture = "swipe"
# fingers = 4
# direction = "left"
# action = "window tile left"
#
# [[bind]]
# gesture = "swipe"
# fingers = 4
# direction = "right"
# action = "window tile right"
#
# [[bind]]
# gesture = "swipe"
# fingers = 4
# direction = "up"
# action = "window toggle-maximize"
#
# [[bind]]
# gesture = "swipe"
# fingers = 4
# direction = "down"
# action = "window move-to-workspace next"

# Holding one finger on the touchscreen opens the context menu under it. `device` keeps the
# pointer out: a held right button is already a right click.

[[bind]]
gesture = "long-press"
fingers = 1
device = "touchscreen"
action = "click right"

# Not bound here: gestures that applications already handle themselves. A bound gesture is
# taken from the application under your fingers, so binding these would cost more than it
# gives. Browsers, image viewers, maps and PDF readers zoom smoothly with a two-finger pinch
# and scroll with two fingers; a one-finger touch drags, selects and scrolls; a tap clicks.
# Uncomment only what your applications do not do on their own. Zooming by key steps
# instead of the application's own smooth zoom:
#
# [[bind]]
# gesture = "pinch"
# fingers = 2
# direction = "in"
# repeat_every = 0.2
# action = "key ctrl+minus"
#
# [[bind]]
# gesture = "pinch"
# fingers = 2
# direction = "out"
# repeat_every = 0.2
# action = "key ctrl+plus"
#
# The same with three fingers takes nothing from applications (they do not use three):
#
# [[bind]]
# gesture = "pinch"
# fingers = 3
# direction = "out"
# repeat_every = 0.2
# action = "key ctrl+plus"

# Dragging left or right with the right mouse button goes back and forward, as in a browser.

[[bind]]
gesture = "swipe"
device = "pointer"
direction = "left"
action = "key alt+Left"

[[bind]]
gesture = "swipe"
device = "pointer"
direction = "right"
action = "key alt+Right"

# Strokes: draw a shape with the right mouse button held (or one finger on the touchscreen)
# and its action happens when you let go; `gesture-bridge learn NAME` records shapes of your
# own. Not on by default: where a stroke is bound, the right-button swipes above are only
# decided at the release, and a right-button press that draws nothing reaches the application
# only when you let go.
#
# [[bind]]
# gesture = "stroke"
# device = "pointer"
# shape = "circle"
# action = "key F5"
#
# [[bind]]
# gesture = "stroke"
# device = "pointer"
# shape = "check"
# action = "key ctrl+s"

# Modifier keys: a binding with `modifiers` fires only when exactly those keys were held as the
# gesture began, and a pointer binding may name its own `button`. Here, strokes drawn with Super
# + the left button: a plain left click is never taken and never waits. And Ctrl + a three-finger
# swipe up takes the focused window along to the next desktop. The key actions come out as
# written while you hold Super or Ctrl (docs/config.md, "Modifier keys and trigger buttons").
#
# [[bind]]
# gesture = "stroke"
# device = "pointer"
# button = 1
# modifiers = "super"
# shape = "circle"
# action = "key F5"
#
# [[bind]]
# gesture = "swipe"
# fingers = 3
# direction = "up"
# modifiers = "ctrl"
# action = "window move-to-workspace next"

# Window switching, as Alt+Tab does it: a three-finger pan right holds Alt down and presses
# Tab every 100 px, a pan left presses Shift+Tab; Alt goes up when the fingers lift, and the
# window manager focuses the window you stopped at. Not on by default: a held Alt surprises
# whoever did not ask for it, and the pans take the slow three-finger movements that are too
# slow for a swipe. (On a touchpad the distance is pointer motion, not screen pixels.)
#
# [[bind]]
# gesture = "pan"
# fingers = 3
# direction = "right"
# hold = "alt"
# repeat_every = 100
# action = "key Tab"
#
# [[bind]]
# gesture = "pan"
# fingers = 3
# direction = "left"
# hold = "alt"
# repeat_every = 100
# action = "key shift+Tab"

"""#
}
