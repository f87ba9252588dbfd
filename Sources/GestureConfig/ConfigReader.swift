import GestureEngine
import TOML

/// Turns a parsed TOML document into a ``Config``, collecting every problem on the way.
///
/// Each check reports at the most useful place: problems with a value at the value, keys that
/// do not belong (unknown, or not for this gesture) at the key, and missing keys and duplicate
/// bindings at the binding's header. One mistake gives one error: a value that is already
/// wrong is not checked again against the rest of its binding.
struct ConfigReader {
    /// The file name errors carry.
    let file: String
    /// Positions of keys and values in the text.
    let locator: TOMLLocator
    /// The problems found so far.
    private(set) var errors: [ConfigError] = []
    /// What is valid but has no effect (``Config/notes``).
    var notes: [ConfigError] = []
    /// Each stroke binding's `shape` and where it is written, checked against the shapes once
    /// all are read (a `[[shape]]` may follow the bindings that use it).
    var shapeReferences: [(path: TOMLPath, name: String)] = []
    /// Where each `[[shape]]`'s name is written, for the note about a shape no binding names.
    var shapeNames: [(name: String, position: SourcePosition)] = []

    init(file: String, locator: TOMLLocator) {
        self.file = file
        self.locator = locator
    }

    /// Reads the whole document; check ``errors`` before using the result.
    mutating func read(_ root: TOMLTableView) -> Config {
        var config = Config()
        // Read last: whether two pointer bindings are one twice depends on `[pointer] button`,
        // wherever the file writes it.
        var bindings: (TOMLNode, TOMLPath)?
        for (key, value) in root {
            let path = TOMLPath([.key(key)])
            switch key {
            case "recognizer":
                if let table = table(value, at: path) {
                    config.settings = readRecognizer(table, at: path)
                    config.deviceSettings = readDeviceRecognizers(table, at: path, base: config.settings)
                }
            case "pointer":
                if let table = table(value, at: path) { config.pointerButton = readPointer(table, at: path) }
            case "touchscreen":
                if let table = table(value, at: path) { readTouchscreen(table, at: path, into: &config) }
            case "bind":
                bindings = (value, path)
            case "shape":
                config.shapes = readShapes(value, at: path)
            case "feedback":
                if let table = table(value, at: path) { config.feedback = readFeedback(table, at: path) }
            default:
                let kind = value.kind == .table || value.array?.allSatisfy({ $0.kind == .table }) == true ? "table" : "key"
                if kind == "key", let message = Self.misplacedBindingKey(key, in: nil) {
                    report(message, at: path, .key)
                    continue
                }
                let hint = Self.placeHint(for: key, outside: nil)
                    ?? Suggestion.clause(for: key, among: Self.topLevelKeys)
                report("unknown \(kind) '\(Excerpt.of(key))'\(hint)", at: path, .key)
            }
        }
        if let (value, path) = bindings { config.bindings = readBindings(value, at: path, pointerButton: config.pointerButton) }
        checkStrokeShapes(known: config.shapes)
        return config
    }

    // MARK: - [recognizer]

    static let topLevelKeys = ["recognizer", "pointer", "touchscreen", "bind", "shape", "feedback"]

    /// A `[recognizer]` key: its settings property, whether 0 makes sense for it, and the
    /// largest value that still does.
    struct Threshold: Sendable {
        var key: String
        var property: any WritableKeyPath<RecognizerSettings, Double> & Sendable
        var zeroAllowed: Bool
        var maximum: Double
        /// Why more than ``maximum`` makes no sense, for the error message.
        var why: String
    }

    /// Every `[recognizer]` key, in docs/config.md's order. 0 is allowed only where it still
    /// means something; each maximum is what a hand on a real screen can use, with room to
    /// spare, and its `why` is the error message's reason.
    static let thresholds: [Threshold] = [
        Threshold(key: "slop_px", property: \.slopPx, zeroAllowed: true, maximum: 1_000,
                  why: "more would let every touch count as a tap"),
        Threshold(key: "tap_max_ms", property: \.tapMaxMs, zeroAllowed: false, maximum: 10_000,
                  why: "a press held longer is no tap"),
        Threshold(key: "multi_tap_interval_ms", property: \.multiTapIntervalMs, zeroAllowed: false, maximum: 10_000,
                  why: "a single tap would wait that long"),
        Threshold(key: "multi_tap_distance_px", property: \.multiTapDistancePx, zeroAllowed: true, maximum: 10_000,
                  why: "that is wider than three 4K screens"),
        Threshold(key: "long_press_ms", property: \.longPressMs, zeroAllowed: false, maximum: 60_000,
                  why: "no one holds a finger still for longer"),
        Threshold(key: "swipe_min_px", property: \.swipeMinPx, zeroAllowed: false, maximum: 10_000,
                  why: "that is wider than three 4K screens"),
        Threshold(key: "swipe_min_velocity", property: \.swipeMinVelocity, zeroAllowed: false, maximum: 100,
                  why: "no hand moves faster than 100 px per ms"),
        Threshold(key: "finger_settle_ms", property: \.fingerSettleMs, zeroAllowed: true, maximum: 1_000,
                  why: "fingers a second apart do not land together"),
        Threshold(key: "pinch_min_scale", property: \.pinchMinScale, zeroAllowed: false, maximum: 10,
                  why: "fingers do not spread more than tenfold"),
        Threshold(key: "rotate_min_degrees", property: \.rotateMinDegrees, zeroAllowed: false, maximum: 360,
                  why: "fingers do not turn more than a full turn"),
        Threshold(key: "edge_px", property: \.edgePx, zeroAllowed: true, maximum: 1_000,
                  why: "more would make most gestures edge gestures"),
        Threshold(key: "stroke_min_score", property: \.strokeMinScore, zeroAllowed: true, maximum: 1,
                  why: "a score is from 0 to 1, and 1 is a path identical to its shape"),
        Threshold(key: "stroke_min_px", property: \.strokeMinPx, zeroAllowed: false, maximum: 10_000,
                  why: "that is wider than three 4K screens"),
    ]

    /// Reads threshold keys of `table` over `start`: `[recognizer]` over the defaults, a
    /// device's table over `[recognizer]`.
    mutating func readRecognizer(
        _ table: TOMLTableView, at path: TOMLPath, over start: RecognizerSettings = RecognizerSettings(),
        tableName: String = "[recognizer]"
    ) -> RecognizerSettings {
        var settings = start
        for (key, value) in table {
            let keyPath = path.appending(key)
            // `[recognizer.touchpad]` …: read once the base values are known.
            if Self.isDeviceTable(key, value) { continue }
            if readMillimetres(key, value, in: table, at: keyPath, into: &settings) { continue }
            guard let threshold = Self.thresholds.first(where: { $0.key == key }) else {
                if tableName == "[recognizer]", value.kind == .table {
                    reportUnknownDeviceTable(key, at: keyPath)
                    continue
                }
                reportUnknownKey(key, in: tableName, among: tableName == "[recognizer]" ? Self.recognizerKeys : Self.thresholdKeys, at: keyPath)
                continue
            }
            if let number = number(value, key: key, at: keyPath, zeroAllowed: threshold.zeroAllowed) {
                guard number <= threshold.maximum else {
                    report("'\(key)' must be at most \(Self.written(threshold.maximum)), not \(Self.written(number)): \(threshold.why)",
                           at: keyPath)
                    continue
                }
                settings[keyPath: threshold.property] = number
                Self.pixelsGiven(key, in: &settings)
            }
        }
        return settings
    }

    // MARK: - [pointer], [touchscreen]

    private mutating func readPointer(_ table: TOMLTableView, at path: TOMLPath) -> Int {
        readOneKeyTable(table, at: path, key: "button", default: Config.defaultPointerButton) { reader, value, keyPath in
            reader.integer(value, key: "button", at: keyPath, in: 0...Action.maximumButton,
                           rangeText: "from 0 (off) to \(Action.maximumButton)")
        }
    }

    /// A table that takes one key: its value as `read` checks it (or `value` when absent or
    /// wrong), every other key reported as unknown.
    private mutating func readOneKeyTable<T>(
        _ table: TOMLTableView, at path: TOMLPath, key: String, default value: T,
        _ read: (inout ConfigReader, TOMLNode, TOMLPath) -> T?
    ) -> T {
        var result = value
        for (name, item) in table {
            let keyPath = path.appending(name)
            guard name == key else {
                reportUnknownKey(name, in: "[\(path)]", among: [key], at: keyPath)
                continue
            }
            if let checked = read(&self, item, keyPath) { result = checked }
        }
        return result
    }

    // MARK: - [[bind]]

    static let bindingKeys = [
        "gesture", "fingers", "direction", "taps", "edge", "device", "app", "on", "repeat_every", "action", "monitor", "hold",
        "shape", "modifiers", "button",
    ]

    /// The fields that make two bindings the same binding (docs/config.md).
    private struct BindingIdentity: Hashable {
        var gesture: GestureKind
        var fingers: Int
        var taps: Int
        var direction: Direction?
        var edge: Edge?
        var device: DeviceKind?
        var app: String?
        var on: FiringPoint
        var monitor: String?
        var shape: String?
        var modifiers: Modifiers?
        /// The button whose press starts the gesture, `[pointer] button` for a pointer binding
        /// that names none: `button = 3` and no `button` beside `[pointer] button = 3` are one
        /// binding twice.
        var button: Int?

        init(_ trigger: Trigger, pointerButton: Int) {
            (gesture, fingers, taps, direction) = (trigger.gesture, trigger.fingers, trigger.taps, trigger.direction)
            (edge, device, app, on) = (trigger.edge, trigger.device, trigger.app, trigger.on)
            (monitor, shape, modifiers) = (trigger.monitor, trigger.shape, trigger.modifiers)
            button = trigger.device == .pointer ? trigger.pointerButton(default: pointerButton) : nil
        }
    }

    /// The tables of an array of tables (`[[bind]]`, `[[shape]]`), each with its path; what is
    /// not one is reported (`plural`: "bindings"; `singular`: "binding").
    mutating func arrayOfTables(_ value: TOMLNode, at path: TOMLPath, plural: String, singular: String) -> [(TOMLPath, TOMLTableView)] {
        let name = path.lastKey ?? "\(path)"
        guard let array = value.array else {
            if value.kind == .table {
                report(Self.arrayOfTablesWrittenAsTable(name, plural: plural), at: path, .key)
            } else {
                report("'\(name)' must be an array of tables ([[\(name)]]), not \(Self.noun(value.kind))", at: path)
            }
            return []
        }
        var tables: [(TOMLPath, TOMLTableView)] = []
        for (index, element) in array.enumerated() {
            let elementPath = path.appending(index: index)
            guard let table = element.table else {
                report("each \(singular) must be a table, not \(Self.noun(element.kind))", at: elementPath)
                continue
            }
            tables.append((elementPath, table))
        }
        return tables
    }

    /// `[bind]` for `[[bind]]`, alone or after `[[bind]]` headers (then TOML refuses it).
    static func arrayOfTablesWrittenAsTable(_ name: String, plural: String) -> String {
        "\(plural) are an array of tables: write [[\(name)]], not [\(name)]"
    }

    private mutating func readBindings(_ value: TOMLNode, at path: TOMLPath, pointerButton: Int) -> [Binding] {
        var bindings: [Binding] = []
        var seen: [BindingIdentity: SourcePosition] = [:]
        var strokesAndPans = StrokePanConflicts(pointerButton: pointerButton)
        for (elementPath, table) in arrayOfTables(value, at: path, plural: "bindings", singular: "binding") {
            guard let binding = readBinding(table, at: elementPath) else { continue }
            let identity = BindingIdentity(binding.trigger, pointerButton: pointerButton)
            if let first = seen[identity] {
                report("duplicate binding: same as the one at \(first.line):\(first.column)", at: elementPath)
                continue
            }
            if let conflict = strokesAndPans.add(binding.trigger, at: binding.source) {
                report(conflict, at: elementPath)
                continue
            }
            seen[identity] = binding.source
            bindings.append(binding)
        }
        return bindings
    }

    /// One binding, or `nil` (with its problems reported) when anything about it is wrong.
    private mutating func readBinding(_ table: TOMLTableView, at path: TOMLPath) -> Binding? {
        let errorsBefore = errors.count
        let source = position(of: path, .value)
        for key in table.keys where !Self.bindingKeys.contains(key) {
            reportUnknownKey(key, in: "[[bind]]", among: Self.bindingKeys, at: path.appending(key))
        }

        var field = BindingFields(table: table, path: path)
        var gesture: GestureKind?
        if field.present("gesture") {
            gesture = choice(field, "gesture", noun: "gesture")
        } else {
            report("missing 'gesture' in [[bind]] (one of: \(Self.list(GestureKind.allCases)))", at: path)
        }

        // Keys that do not fit the gesture are reported at the key, and their values not checked.
        if let gesture {
            for (key, allowed, reason) in Self.gestureOnlyKeys where field.present(key) && !allowed(gesture) {
                report("'\(key)' does not apply to \(gesture.rawValue): \(reason)", at: path.appending(key), .key)
                field.ignore(key)
            }
        }

        let fingers = field.present("fingers")
            ? integer(field.value("fingers"), key: "fingers", at: path.appending("fingers"), in: 1...5, rangeText: "from 1 to 5")
            : nil
        let taps = field.present("taps")
            ? integer(field.value("taps"), key: "taps", at: path.appending("taps"), in: 1...3, rangeText: "1, 2 or 3")
            : nil
        let direction: Direction? = field.present("direction")
            ? choice(field, "direction", noun: "direction", allowed: gesture.map(\.descriptor.directions) ?? Direction.allCases)
            : nil
        let edge: Edge? = field.present("edge") ? choice(field, "edge", noun: "edge") : nil
        var device: DeviceKind?  // nil: any device, or a bad value (reported)
        var deviceInvalid = false
        if field.present("device") {
            if let name = string(field.value("device"), key: "device", at: path.appending("device")) {
                if name != "any" {
                    device = DeviceKind(rawValue: name)
                    if device == nil {
                        let allowed = DeviceKind.allCases.map(\.rawValue) + ["any"]
                        reportUnknownValue(name, noun: "device", allowed: allowed, at: path.appending("device"))
                        deviceInvalid = true
                    }
                }
            } else {
                deviceInvalid = true
            }
        }
        let app = nonEmptyString(field, "app", everything: "every application")
        let monitor = nonEmptyString(field, "monitor", everything: "every monitor")
        let on: FiringPoint? = field.present("on") ? choice(field, "on", noun: "'on' value") : nil
        let repeatEvery = field.present("repeat_every")
            ? number(field.value("repeat_every"), key: "repeat_every", at: path.appending("repeat_every"), zeroAllowed: false)
            : nil

        var actions: ActionList?
        if field.present("action") {
            actions = readActions(field.value("action"), at: path.appending("action"))
        } else {
            report("missing 'action' in [[bind]]", at: path)
        }
        let hold: (combo: KeyCombo, text: String)? = field.present("hold")
            ? readHold(field.value("hold"), on: on, at: path.appending("hold"))
            : nil
        let shape = gesture == .stroke ? readShapeName(field, at: path) : nil
        let modifiers = field.present("modifiers") ? readModifiers(field.value("modifiers"), at: path.appending("modifiers")) : nil
        let button = field.present("button")
            ? readBindingButton(field.value("button"), device: device, deviceInvalid: deviceInvalid, at: path.appending("button"))
            : nil

        if let gesture {
            checkFit(gesture: gesture, fingers: fingers, direction: direction, device: device,
                     on: on, repeatEvery: repeatEvery, path: path)
        }

        guard errors.count == errorsBefore, let gesture, let actions else { return nil }
        let trigger = Trigger(
            gesture: gesture, fingers: fingers, taps: taps ?? 1, direction: direction, edge: edge,
            device: device, app: app, on: on ?? .begin, repeatEvery: repeatEvery, monitor: monitor, shape: shape,
            modifiers: modifiers, button: button)
        return Binding(
            trigger: trigger, actions: actions.actions, actionTexts: actions.texts, isList: actions.isList,
            hold: hold?.combo, holdText: hold?.text, source: source)
    }

    /// Keys that only some gestures take, with the reason given when one is misplaced.
    private static let gestureOnlyKeys: [(key: String, allowed: @Sendable (GestureKind) -> Bool, reason: String)] = [
        ("taps", \.descriptor.countsTaps, "only a tap counts taps"),
        ("direction", { !$0.descriptor.directions.isEmpty },
         "taps, long presses and strokes have no direction (a stroke's shape says where it goes)"),
        ("edge", \.descriptor.startsAtEdges, "only swipes and pans start at an edge"),
        ("on", \.isContinuous, "only continuous gestures (long-press, pan, pinch, rotate) have a beginning and an end"),
        ("repeat_every", \.isContinuous, "only continuous gestures (long-press, pan, pinch, rotate) repeat"),
        ("hold", \.isContinuous, "only continuous gestures (long-press, pan, pinch, rotate) hold keys while they run"),
        ("shape", \.descriptor.isDrawn, "only a stroke is drawn as a shape"),
    ]

    /// A name a binding matches on (`app`, `monitor`): a string, not empty.
    private mutating func nonEmptyString(_ field: BindingFields, _ key: String, everything: String) -> String? {
        guard field.present(key), let name = string(field.value(key), key: key, at: field.path.appending(key)) else { return nil }
        guard !name.isEmpty else {
            report("'\(key)' must not be empty; leave it out to match \(everything)", at: field.path.appending(key))
            return nil
        }
        return name
    }

    /// The checks between a binding's valid values.
    private mutating func checkFit(
        gesture: GestureKind, fingers: Int?, direction: Direction?, device: DeviceKind?,
        on: FiringPoint?, repeatEvery: Double?, path: TOMLPath
    ) {
        if let direction {
            let allowed = gesture.descriptor.directions
            if !allowed.isEmpty, !allowed.contains(direction) {
                report("direction '\(direction.rawValue)' does not fit \(gesture.rawValue) (allowed: \(Self.list(allowed)))",
                       at: path.appending("direction"))
            }
        }
        switch device {
        case .touchpad? where gesture.descriptor.isDrawn:
            // XI 2.4 reports a touchpad's gestures as deltas: there is no path on the screen.
            report("a touchpad draws no stroke (its gestures reach the bridge as movements, not as a path on the screen); "
                       + "write device = \"touchscreen\", \"pointer\" or \"any\"",
                   at: path.appending("device"))
        case .pointer? where !DeviceKind.pointer.canMake(gesture):
            report("a pointer gesture is a 1-finger long-press, swipe, pan or stroke; a pointer never \(Self.verb(gesture))",
                   at: path.appending("device"))
        case .pointer?:
            if let fingers, let most = DeviceKind.pointer.descriptor.mostFingers, fingers > most {
                report("a pointer gesture has \(most) finger, not \(fingers)", at: path.appending("fingers"))
            }
        case .touchpad? where !DeviceKind.touchpad.canMake(gesture):
            // XI 2.4 reports touchpad swipes and pinches; a touchpad's taps arrive as clicks.
            report("a touchpad gesture is a swipe, pan, pinch or rotate; a touchpad's taps and presses are clicks",
                   at: path.appending("device"))
        default:
            break
        }
        if let most = gesture.descriptor.mostFingers, device != .pointer, let fingers, fingers > most {
            report("a \(gesture.rawValue) is drawn with \(most) finger (or the pointer), not \(fingers)", at: path.appending("fingers"))
        }
        if let fingers, fingers < gesture.descriptor.leastFingers {
            report("a \(gesture.rawValue) needs at least \(gesture.descriptor.leastFingers) fingers", at: path.appending("fingers"))
        }
        if repeatEvery != nil, on == .end {
            report("'repeat_every' cannot be combined with on = \"end\": repeats fire while the gesture runs",
                   at: path.appending("repeat_every"), .key)
        } else if let repeatEvery, let limits = gesture.descriptor.repeatStep, !limits.range.contains(repeatEvery) {
            report("'repeat_every' of a \(gesture.rawValue) counts \(limits.unit) and must be from "
                       + "\(Self.written(limits.range.lowerBound)) to \(Self.written(limits.range.upperBound)), "
                       + "not \(Self.written(repeatEvery))",
                   at: path.appending("repeat_every"))
        }
    }

    /// A number as a person would write it: `50`, `0.005`, `1e-15`.
    static func written(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    // MARK: - Values

    /// A binding's table, with keys that were already reported as misplaced left out.
    struct BindingFields {
        let table: TOMLTableView
        let path: TOMLPath
        private var ignored: Set<String> = []

        init(table: TOMLTableView, path: TOMLPath) {
            self.table = table
            self.path = path
        }

        func present(_ key: String) -> Bool { !ignored.contains(key) && table[key] != nil }
        func value(_ key: String) -> TOMLNode { table[key]! }
        mutating func ignore(_ key: String) { ignored.insert(key) }
    }

    mutating func table(_ value: TOMLNode, at path: TOMLPath) -> TOMLTableView? {
        if let table = value.table { return table }
        report("'\(path.lastKey ?? "\(path)")' must be a table, not \(Self.noun(value.kind))", at: path)
        return nil
    }

    mutating func string(_ value: TOMLNode, key: String, at path: TOMLPath) -> String? {
        if let string = value.string { return string }
        report("'\(key)' must be a string, not \(Self.noun(value.kind))", at: path)
        return nil
    }

    mutating func boolean(_ value: TOMLNode, key: String, at path: TOMLPath) -> Bool? {
        if let flag = value.bool { return flag }
        report("'\(key)' must be true or false, not \(Self.noun(value.kind))", at: path)
        return nil
    }

    private mutating func integer(
        _ value: TOMLNode, key: String, at path: TOMLPath, in range: ClosedRange<Int>, rangeText: String
    ) -> Int? {
        guard let integer = value.int else {
            report("'\(key)' must be an integer, not \(Self.noun(value.kind))", at: path)
            return nil
        }
        guard range.contains(integer) else {
            report("'\(key)' must be \(rangeText), not \(integer)", at: path)
            return nil
        }
        return integer
    }

    /// A number (an integer is fine): finite, not negative, and positive unless `zeroAllowed`.
    mutating func number(
        _ value: TOMLNode, key: String, at path: TOMLPath, zeroAllowed: Bool
    ) -> Double? {
        let number: Double
        let written: String
        if let integer = value.int {
            number = Double(integer)
            written = String(integer)
        } else if let double = value.double {
            guard double.isFinite else {
                report("'\(key)' must be a finite number, not \(double)", at: path)
                return nil
            }
            number = double
            written = String(double)
        } else {
            report("'\(key)' must be a number, not \(Self.noun(value.kind))", at: path)
            return nil
        }
        if number < 0 || (number == 0 && !zeroAllowed) {
            report("'\(key)' must be \(zeroAllowed ? "0 or more" : "more than 0"), not \(written)", at: path)
            return nil
        }
        return number
    }

    /// One of an enum's raw values; an unknown one is reported with the `allowed` ones (by
    /// default all of them).
    private mutating func choice<T: RawRepresentable & CaseIterable>(
        _ field: BindingFields, _ key: String, noun: String, allowed: [T]? = nil
    ) -> T? where T.RawValue == String {
        let path = field.path.appending(key)
        guard let text = string(field.value(key), key: key, at: path) else { return nil }
        if let value = T(rawValue: text) { return value }
        reportUnknownValue(text, noun: noun, allowed: (allowed ?? Array(T.allCases)).map(\.rawValue), at: path)
        return nil
    }

    // MARK: - Reporting

    enum Part { case key, value }

    mutating func reportUnknownKey(_ key: String, in table: String, among known: [String], at path: TOMLPath) {
        if let message = Self.misplacedBindingKey(key, in: table) { return report(message, at: path, .key) }
        let hint = Self.placeHint(for: key, outside: table) ?? Suggestion.clause(for: key, among: known)
        report("unknown key '\(Excerpt.of(key))' in \(table)\(hint)", at: path, .key)
    }

    /// A binding's key written where no `[[bind]]` line opened a binding: what a newcomer
    /// writes who starts a config with `gesture = …`. `nil` for other keys, and in `[[bind]]`.
    ///
    /// - Parameters:
    ///   - key: the key as written.
    ///   - table: the table it was found in, as messages name it (`nil`: the top level).
    static func misplacedBindingKey(_ key: String, in table: String?) -> String? {
        // `button` is also [pointer]'s: ``placeHint(for:outside:)`` names both places.
        guard table != "[[bind]]", key != "button", bindingKeys.contains(key) else { return nil }
        let place = table.map { "it is under \($0), not under a [[bind]] line" } ?? "no [[bind]] line comes before it"
        return "'\(key)' is a binding key, but \(place): \(startsABinding)"
    }

    /// How a binding is written, for the messages of the slips that leave out its `[[bind]]`.
    static let startsABinding = "a binding starts with [[bind]] on a line of its own, and its keys follow it"

    /// Where a key that belongs to another table goes, when it is written outside it: a
    /// threshold outside `[recognizer]`, `button` outside `[pointer]` and `[[bind]]` (a
    /// binding's other keys: ``misplacedBindingKey(_:in:)``). `nil` for keys no table takes.
    ///
    /// - Parameters:
    ///   - key: the key as written.
    ///   - table: the table it was found in, as messages name it (`nil`: the top level).
    static func placeHint(for key: String, outside table: String?) -> String? {
        if key == "button", table != "[pointer]" {
            // Both a `[pointer]` key and a binding key; in [[bind]] it is only unknown when misspelt.
            return table == "[[bind]]" ? nil
                : "; 'button' belongs in [pointer] (the trigger button of every pointer binding) or in a pointer "
                    + "[[bind]] (that binding's own): add a [pointer] or [[bind]] line above it"
        }
        if table != "[recognizer]", thresholdKeys.contains(key) {
            return "; '\(key)' belongs in [recognizer]: add a [recognizer] line above it"
        }
        if table?.hasPrefix("[feedback") != true, feedbackKeys.contains(key) {
            return "; '\(key)' belongs in [feedback]: add a [feedback] line above it"
        }
        if table != "[touchscreen]", key == "claim_on_second_finger" {
            return "; 'claim_on_second_finger' belongs in [touchscreen]: add a [touchscreen] line above it"
        }
        if table == nil, key == "output" {
            return "; 'output' belongs in [touchscreen]: add a [touchscreen] line above it"
        }
        return nil
    }

    /// `listing`: what the message says is allowed, when not every one of `allowed`.
    mutating func reportUnknownValue(_ text: String, noun: String, allowed: [String], listing: String? = nil, at path: TOMLPath) {
        report("unknown \(noun) '\(Excerpt.of(text))'\(Suggestion.clause(for: text, among: allowed)) (allowed: \(listing ?? allowed.joined(separator: ", ")))",
               at: path)
    }

    mutating func report(_ message: String, at path: TOMLPath, _ part: Part = .value) {
        errors.append(ConfigError(at: position(of: path, part), message: message))
    }

    /// Where `path` is written, or failing that the nearest enclosing thing that is.
    func position(of path: TOMLPath, _ part: Part) -> SourcePosition {
        var candidate: TOMLPath? = path
        while let current = candidate {
            if let location = locator[current] {
                let position = part == .key ? location.key ?? location.value : location.value
                return SourcePosition(file: file, line: position.line, column: position.column)
            }
            candidate = current.parent
        }
        return SourcePosition(file: file, line: 1, column: 1)
    }

    // MARK: - Wording

    static func noun(_ kind: TOMLKind) -> String { kind.noun }

    static func list<T: RawRepresentable>(_ values: [T]) -> String where T.RawValue == String {
        values.map(\.rawValue).joined(separator: ", ")
    }

    private static func verb(_ gesture: GestureKind) -> String {
        switch gesture {
        case .tap: "taps"
        case .pinch: "pinches"
        case .rotate: "rotates"
        case .longPress, .swipe, .pan, .stroke: "does that"
        }
    }
}
