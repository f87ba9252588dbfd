public import GestureEngine

/// A loaded, fully checked gesture-bridge config (docs/config.md).
///
/// A `Config` only exists when its file had no problem at all: ``load(contentsOf:)`` and
/// ``parse(_:file:)`` either return one or throw ``ConfigErrors`` listing every problem, so a
/// config is never half-applied.
///
/// ```swift
/// let config = try Config.parse("""
///     [[bind]]
///     gesture = "swipe"
///     fingers = 3
///     direction = "left"
///     action = "workspace next"
///     """, file: "example.toml")
/// let engine = Engine(config.engineConfiguration)
/// ```
public struct Config: Hashable, Sendable {
    /// The recognizer thresholds (`[recognizer]`).
    public var settings: RecognizerSettings
    /// The mouse button that starts a pointer gesture (`[pointer] button`); 0 turns pointer
    /// gestures off.
    public var pointerButton: Int
    /// The bindings, in the order the file lists them.
    public var bindings: [Binding]
    /// `[touchscreen] claim_on_second_finger`: take every touch of a multi-finger touchscreen
    /// gesture the moment its fingers make a bound count, while they are still down (see
    /// ``EngineConfiguration/claimOnSecondFinger``). Off by default.
    public var claimOnSecondFinger: Bool
    /// `[recognizer.touchscreen]`, `[recognizer.touchpad]`, `[recognizer.pointer]`: each
    /// device's thresholds where it has a table, complete (`[recognizer]` with the table's keys
    /// written over it); a device without one uses ``settings``.
    public var deviceSettings: [DeviceKind: RecognizerSettings] = [:]
    /// What is valid but has no effect, with its place (a `[recognizer.pointer]` key that no
    /// pointer gesture uses): ``warnings(source:)`` says it.
    public var notes: [ConfigError] = []
    /// The `[[shape]]` tables, in file order: shapes that stroke bindings may name besides the
    /// built-in ones (``StrokeShape/builtIn``), which one of the same name replaces.
    public var shapes: [StrokeShape] = []
    /// `[touchscreen] output`: the output the daemon maps touchscreens onto; `nil`: it leaves
    /// their mapping as it is.
    public var touchscreenOutput: TouchscreenOutput? = nil
    /// `[feedback]`: the trail drawn under a gesture and the word on screen after it.
    public var feedback = Feedback()

    /// The default mouse button for pointer gestures: 3, the right button.
    public static let defaultPointerButton = 3

    /// Creates a config from its parts.
    public init(
        settings: RecognizerSettings = RecognizerSettings(),
        pointerButton: Int = Config.defaultPointerButton,
        bindings: [Binding] = [],
        claimOnSecondFinger: Bool = false
    ) {
        self.settings = settings
        self.pointerButton = pointerButton
        self.bindings = bindings
        self.claimOnSecondFinger = claimOnSecondFinger
    }

    /// What the engine needs: thresholds, the pointer button, the triggers in binding order (so
    /// that a firing trigger's index is also the index of its binding in ``bindings``) and when
    /// touches are claimed.
    public var engineConfiguration: EngineConfiguration {
        EngineConfiguration(
            settings: settings, pointerButton: pointerButton, triggers: bindings.map(\.trigger),
            claimOnSecondFinger: claimOnSecondFinger, deviceSettings: deviceSettings, shapes: allShapes)
    }

    /// Every shape a stroke can match: the built-in ones, each replaced by a `[[shape]]` of the
    /// same name, then the other `[[shape]]`s in file order.
    public var allShapes: [StrokeShape] {
        var result = StrokeShape.builtIn
        for shape in shapes {
            if let i = result.firstIndex(where: { $0.name == shape.name }) {
                result[i] = shape
            } else {
                result.append(shape)
            }
        }
        return result
    }
}

/// One `[[bind]]` entry (or inline table in `bind = [ … ]`): what to recognize and what to do.
public struct Binding: Hashable, Sendable {
    /// The gesture to recognize, with every default filled in (`fingers`, `taps`, `on`) and
    /// `device = "any"` as `nil`.
    public var trigger: Trigger
    /// The parsed actions, in the order they run: one for an `action` string, 1 to 8 for an
    /// array (docs/config.md).
    public var actions: [Action]
    /// Each action's string exactly as written, in order (see ``actionText``).
    public var actionTexts: [String]
    /// Whether `action` was written as an array (output prints it back as one).
    public var actionIsList: Bool
    /// The `action` exactly as written, for reports and logs: the string, or for an array its
    /// strings as a JSON array (`["key ctrl+c", "workspace 2"]`).
    public var actionText: String
    /// The keys held down while the gesture runs (`hold`), if any (see ``holdText``).
    public var hold: KeyCombo?
    /// The `hold` string exactly as written.
    public var holdText: String?
    /// The key names of ``holdText`` as written (`["ctrl", "alt"]`), one per key of ``hold``.
    public var holdSpellings: [String]
    /// Where the binding starts: its `[[bind]]` header or its inline table's `{`.
    public var source: SourcePosition

    /// Creates a binding with one action written as a string and no held keys.
    public init(trigger: Trigger, action: Action, actionText: String, source: SourcePosition) {
        self.init(trigger: trigger, actions: [action], actionTexts: [actionText], isList: false, source: source)
    }

    /// Creates a binding: `actions` (with `actionTexts` as written, `isList` when written as an
    /// array) and the keys it holds.
    public init(
        trigger: Trigger, actions: [Action], actionTexts: [String], isList: Bool,
        hold: KeyCombo? = nil, holdText: String? = nil, source: SourcePosition
    ) {
        self.trigger = trigger
        self.actions = actions
        self.actionTexts = actionTexts
        self.actionIsList = isList
        self.actionText = isList ? Self.listText(actionTexts) : actionTexts.first ?? ""
        self.hold = hold
        self.holdText = holdText
        self.holdSpellings = holdText.map(KeyCombo.spellings(ofHold:)) ?? []
        self.source = source
    }

    /// The action as written, cut short for log lines (see ``Excerpt``): the daemon logs it on
    /// every firing, and an `exec` command may be as long as the config.
    public var actionExcerpt: String { Excerpt.of(actionText) }
}

/// A place in a config file: 1-based line and column, counting columns in Unicode scalars.
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file as it was named to the loader (a path, or ``DefaultConfig/fileName``).
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates a position.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COLUMN`.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file name, then line, then column.
    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}

extension Config {
    /// What is valid but almost certainly not meant, one sentence each, for `check-config` and
    /// the daemon's start and reloads to say: today, a config without any binding (an empty
    /// file replaces the embedded default entirely, and then no gesture does anything).
    ///
    /// - Parameter source: how the config is named in the message (its path).
    public func warnings(source: String) -> [String] {
        let noted = notes.map(\.description)
        guard bindings.isEmpty else { return noted }
        return noted + [
            "\(source) has no [[bind]] table, so no gesture does anything: a config file replaces the embedded "
                + "default entirely (`gesture-bridge print-config` prints the default to start from)"
        ]
    }
}
