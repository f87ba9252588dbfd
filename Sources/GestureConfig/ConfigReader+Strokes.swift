import GestureEngine
import TOML

// Strokes (docs/interface.md, «Strokes»): a stroke binding's `shape`, the `[[shape]]` tables, and the
// rule that a stroke and a pan may not compete for the same gestures.

extension ConfigReader {
    /// The keys of a `[[shape]]` table: `points` (one way of drawing it) or `templates` (several).
    static let shapeKeys = ["name", "points", "templates"]

    /// The most points a template of a `[[shape]]` may list: `gesture-bridge learn` writes 48,
    /// the built-in templates have 64; more only slows loading down.
    static let maximumShapePoints = 1_000

    /// The most templates a `[[shape]]` may have: each one is compared with every stroke that
    /// could be this shape, and 16 keep that comparison within the time docs/performance.md
    /// measures for the built-in shapes (which have 8 each).
    static let maximumShapeTemplates = 16

    /// The largest coordinate (absolute) of a shape's point. Only a shape's form matters, not
    /// its size; this keeps the arithmetic of the comparison far from overflowing.
    static let maximumShapeCoordinate = 1_000_000.0

    /// The most shape names a message about an unknown shape lists: the built-in ones and the
    /// first `[[shape]]`s. All of a config's thousands in each message made the output grow
    /// with the square of the config.
    static let listedShapes = 40

    /// A stroke binding's `shape`: required, a non-empty string; whether it names a shape is
    /// checked once every `[[shape]]` is read (``checkStrokeShapes(known:)``).
    mutating func readShapeName(_ field: BindingFields, at path: TOMLPath) -> String? {
        guard field.present("shape") else {
            report("missing 'shape' in a stroke binding (a built-in shape such as \"circle\", or the name of a [[shape]])",
                   at: path)
            return nil
        }
        let shapePath = path.appending("shape")
        guard let name = string(field.value("shape"), key: "shape", at: shapePath) else { return nil }
        guard !name.isEmpty else {
            report("'shape' must not be empty: name a built-in shape such as \"circle\", or a [[shape]]", at: shapePath)
            return nil
        }
        shapeReferences.append((shapePath, name))
        return name
    }

    /// Every stroke binding's shape must be a built-in shape or one of `shapes`; a `[[shape]]`
    /// that no stroke binding names is valid but has no effect, which a note says.
    mutating func checkStrokeShapes(known shapes: [StrokeShape]) {
        let names = StrokeShape.builtIn.map(\.name) + shapes.map(\.name).filter { name in
            !StrokeShape.builtIn.contains { $0.name == name }
        }
        // Sets, not the lists: thousands of shapes and strokes must not cost their product.
        let known = Set(names)
        // Each message lists the shapes; with thousands of [[shape]]s, the first of them.
        let listing = names.count <= Self.listedShapes ? nil
            : names.prefix(Self.listedShapes).joined(separator: ", ") + " and \(names.count - Self.listedShapes) more"
        for (path, name) in shapeReferences where !known.contains(name) {
            reportUnknownValue(name, noun: "shape", allowed: names, listing: listing, at: path)
        }
        let referenced = Set(shapeReferences.map(\.name))
        for (name, position) in shapeNames where !referenced.contains(name) {
            notes.append(ConfigError(
                at: position,
                message: "[[shape]] '\(Excerpt.of(name))' has no effect: no stroke binding names it "
                    + "(add one with gesture = \"stroke\" and shape = \"\(Excerpt.of(name))\")"))
        }
    }

    /// The `[[shape]]` tables, in file order; each problem reported at its place.
    mutating func readShapes(_ value: TOMLNode, at path: TOMLPath) -> [StrokeShape] {
        var shapes: [StrokeShape] = []
        var seen: [String: SourcePosition] = [:]
        for (elementPath, table) in arrayOfTables(value, at: path, plural: "shapes", singular: "shape") {
            let errorsBefore = errors.count
            for key in table.keys where !Self.shapeKeys.contains(key) {
                reportUnknownKey(key, in: "[[shape]]", among: Self.shapeKeys, at: elementPath.appending(key))
            }
            // A misspelt key is one mistake: its key is not reported missing as well.
            let misspelt = errors.count > errorsBefore
            var name: String?
            if let node = table["name"] {
                let namePath = elementPath.appending("name")
                if let text = string(node, key: "name", at: namePath) {
                    if text.isEmpty {
                        report("a shape's 'name' must not be empty", at: namePath)
                    } else if let first = seen[text] {
                        report("duplicate shape '\(Excerpt.of(text))': already defined at \(first.line):\(first.column)", at: namePath)
                    } else {
                        seen[text] = position(of: namePath, .value)
                        shapeNames.append((text, position(of: namePath, .value)))
                        name = text
                    }
                }
            } else if !misspelt {
                report("missing 'name' in [[shape]]", at: elementPath)
            }
            let templates = readTemplates(table, at: elementPath, misspelt: misspelt)
            if errors.count == errorsBefore, let name, let templates {
                shapes.append(StrokeShape(name: name, templates: templates))
            }
        }
        return shapes
    }

    /// A `[[shape]]`'s templates: `points = [[x, y], ...]` (one), or `templates = [[[x, y], ...], ...]`
    /// (1 to ``maximumShapeTemplates``), not both.
    private mutating func readTemplates(_ table: TOMLTableView, at path: TOMLPath, misspelt: Bool) -> [[Point]]? {
        switch (table["points"], table["templates"]) {
        case (let node?, nil):
            return readPoints(node, at: path.appending("points")).map { [$0] }
        case (nil, let node?):
            let templatesPath = path.appending("templates")
            guard let array = node.array else {
                report("'templates' must be an array of point lists ([[[x, y], ...], ...]), not \(Self.noun(node.kind))",
                       at: templatesPath)
                return nil
            }
            guard (1...Self.maximumShapeTemplates).contains(array.count) else {
                report("a shape has 1 to \(Self.maximumShapeTemplates) templates, not \(array.count)", at: templatesPath)
                return nil
            }
            var templates: [[Point]] = []
            for (index, element) in array.enumerated() {
                let templatePath = templatesPath.appending(index: index)
                // `[x, y]` where a template goes: the brackets of one level are missing.
                if let pair = element.array, pair.count == 2, pair.allSatisfy({ $0.int != nil || $0.double != nil }) {
                    report("each template is a list of [x, y] pairs, not one point: templates = [[[x, y], ...], ...]", at: templatePath)
                    continue
                }
                if let points = readPoints(element, at: templatePath) { templates.append(points) }
            }
            return templates.count == array.count ? templates : nil
        case (_?, _?):
            report("a [[shape]] has 'points' (one way of drawing it) or 'templates' (several), not both",
                   at: path.appending("templates"), .key)
            return nil
        case (nil, nil):
            if !misspelt {
                report("missing 'points' in [[shape]] (points = [[x, y], ...], at least 2 different points; "
                           + "or templates = [[[x, y], ...], ...] for several ways of drawing it)", at: path)
            }
            return nil
        }
    }

    /// `points = [[x, y], ...]` (or one template of `templates`): pairs of finite numbers, at
    /// least two of them different.
    private mutating func readPoints(_ node: TOMLNode, at path: TOMLPath) -> [Point]? {
        guard let array = node.array else {
            report("\(Self.pointsNoun(path)) must be an array of [x, y] pairs, not \(Self.noun(node.kind))", at: path)
            return nil
        }
        guard array.count <= Self.maximumShapePoints else {
            report("\(path.lastKey == "points" ? "a shape" : "a template") has at most \(Self.maximumShapePoints) points, not \(array.count)",
                   at: path)
            return nil
        }
        var points: [Point] = []
        var valid = true
        for (index, element) in array.enumerated() {
            let pointPath = path.appending(index: index)
            guard let pair = element.array, pair.count == 2 else {
                let what = element.array.map { "\($0.count) numbers" } ?? Self.noun(element.kind)
                report("each point is a pair of numbers [x, y], not \(what)", at: pointPath)
                valid = false
                continue
            }
            var xy: [Double] = []
            for (k, coordinate) in pair.enumerated() {
                let coordinatePath = pointPath.appending(index: k)
                let value = coordinate.int.map(Double.init) ?? coordinate.double
                guard let value else {
                    report("a point's coordinates are numbers, not \(Self.noun(coordinate.kind))", at: coordinatePath)
                    valid = false
                    continue
                }
                guard value.isFinite, abs(value) <= Self.maximumShapeCoordinate else {
                    report("a point's coordinates must be finite and at most \(Self.written(Self.maximumShapeCoordinate)) "
                               + "from 0, not \(value)", at: coordinatePath)
                    valid = false
                    continue
                }
                xy.append(value)
            }
            if xy.count == 2 { points.append(Point(x: xy[0], y: xy[1])) }
        }
        guard valid else { return nil }
        guard let first = points.first, points.contains(where: { $0 != first }) else {
            report("a shape needs at least 2 different points, not \(points.count == 0 ? "none" : "only \(Self.written(points[0].x)), \(Self.written(points[0].y))")",
                   at: path)
            return nil
        }
        return points
    }

    /// What a point list is called in a message: `'points'`, or the template it is.
    private static func pointsNoun(_ path: TOMLPath) -> String {
        path.lastKey == "points" ? "'points'" : "each template"
    }
}

/// The stroke and pan bindings seen so far, to refuse a pair that would compete for the same
/// gestures: a pan begins as soon as the finger moves past `slop_px`, long before the stroke
/// is drawn, so the stroke could never fire (docs/interface.md, «Strokes»).
///
/// Two bindings compete when some gesture could match both: the same fingers, a device both
/// apply to (`any`, or no `device`, overlaps every device; the pointer only with the same
/// trigger button), an app both apply to (a binding without `app` overlaps every app), a
/// monitor both apply to (likewise) and modifiers both match (likewise). A pan's `edge` or
/// `direction` does not separate them: the stroke applies at the edges too, and a pan's
/// direction is only known once it has begun.
///
/// Each binding costs a bounded number of hash look-ups, never a walk over the bindings before
/// it: a config of 20,000 strokes and pans for different apps took 28 s to check when each was
/// compared with every other (docs/reliability.md). Every binding added is filed under each way
/// a later binding of the other kind could meet it — per device it applies to, its app as
/// written or "any", and the same for its monitor and modifiers — and with the app or monitor left out, for
/// a later binding that has none (it meets every app). A binding looks up the few keys that
/// can meet it and takes the earliest binding found, the one a walk in file order would name.
struct StrokePanConflicts {
    /// `[pointer] button`: the trigger button of the pointer bindings that name none.
    let pointerButton: Int

    /// A binding's app, monitor or modifiers as a key: what a binding gives, a binding that
    /// gives none (and meets every value), or left out of the key (asked by a binding that
    /// gives none).
    private enum Name<Value: Hashable>: Hashable {
        case named(Value)
        case any
        case ignored
    }

    /// Where a binding can meet another: its kind, fingers, one device it applies to (with the
    /// trigger button on the pointer: different buttons never meet), its app, monitor and
    /// modifiers (as ``Name``s).
    private struct Meeting: Hashable {
        var gesture: GestureKind
        var fingers: Int
        var device: DeviceKind
        var button: Int
        var app: Name<String>
        var monitor: Name<String>
        var modifiers: Name<Modifiers>
    }

    /// The earliest binding filed under each meeting place, with its place in file order.
    private var filed: [Meeting: (order: Int, trigger: Trigger, source: SourcePosition)] = [:]
    private var count = 0

    init(pointerButton: Int) {
        self.pointerButton = pointerButton
    }

    /// Adds a binding's trigger; returns the problem when it competes with a stroke or pan
    /// added before.
    mutating func add(_ trigger: Trigger, at source: SourcePosition) -> String? {
        guard trigger.gesture == .stroke || trigger.gesture == .pan else { return nil }
        let other: GestureKind = trigger.gesture == .pan ? .stroke : .pan
        if let (_, earlier, position) = earliestMeeting(trigger, of: other) {
            let devices = sharedDevices(trigger, earlier).map(\.rawValue).joined(separator: " and ")
            return "this \(trigger.gesture.rawValue) competes with the \(other.rawValue) at \(position.line):\(position.column) "
                + "for \(trigger.fingers)-finger gestures on the \(devices): a pan begins before a stroke is drawn, so the "
                + "stroke could never fire; bind them for different devices, apps, monitors, modifiers or buttons "
                + "(device = \"any\" or no device overlaps every device, no app every app, no modifiers every modifier)"
        }
        let entry = (order: count, trigger: trigger, source: source)
        count += 1
        // Filed under what it names and under "none named", and with each left out.
        let places = meetings(
            of: trigger, as: trigger.gesture, apps: [trigger.app.map(Name.named) ?? .any, .ignored],
            monitors: [trigger.monitor.map(Name.named) ?? .any, .ignored],
            modifierSets: [trigger.modifiers.map(Name.named) ?? .any, .ignored])
        for place in places where filed[place] == nil { filed[place] = entry }
        return nil
    }

    /// Every meeting place of `trigger`'s fingers as a `gesture`, for each device it applies to
    /// (with its trigger button on the pointer) and each of the app, monitor and modifier names.
    private func meetings(
        of trigger: Trigger, as gesture: GestureKind, apps: [Name<String>], monitors: [Name<String>], modifierSets: [Name<Modifiers>]
    ) -> [Meeting] {
        var places: [Meeting] = []
        for device in Self.devices(trigger) {
            let button = device == .pointer ? trigger.pointerButton(default: pointerButton) : 0
            for app in apps {
                for monitor in monitors {
                    for modifiers in modifierSets {
                        places.append(Meeting(
                            gesture: gesture, fingers: trigger.fingers, device: device, button: button,
                            app: app, monitor: monitor, modifiers: modifiers))
                    }
                }
            }
        }
        return places
    }

    /// The earliest binding of kind `other` that some gesture could match together with `trigger`.
    private func earliestMeeting(_ trigger: Trigger, of other: GestureKind) -> (order: Int, trigger: Trigger, source: SourcePosition)? {
        // A binding without an app meets every app: it asks with the app left out. One with an
        // app meets those with the same app and those without one; likewise for monitors and
        // modifiers. On the pointer, only bindings of the same trigger button meet.
        let places = meetings(
            of: trigger, as: other, apps: trigger.app.map { [.named($0), .any] } ?? [.ignored],
            monitors: trigger.monitor.map { [.named($0), .any] } ?? [.ignored],
            modifierSets: trigger.modifiers.map { [.named($0), .any] } ?? [.ignored])
        var earliest: (order: Int, trigger: Trigger, source: SourcePosition)?
        for place in places {
            if let found = filed[place], found.order < earliest?.order ?? .max { earliest = found }
        }
        return earliest
    }

    private static func devices(_ t: Trigger) -> [DeviceKind] {
        DeviceKind.allCases.filter { t.applies(to: $0) }
    }

    /// The devices on which some gesture could match both `a` and `b` (which meet).
    private func sharedDevices(_ a: Trigger, _ b: Trigger) -> [DeviceKind] {
        let theirs = Self.devices(b)
        let differentButtons = a.pointerButton(default: pointerButton) != b.pointerButton(default: pointerButton)
        return Self.devices(a).filter { theirs.contains($0) && !($0 == .pointer && differentButtons) }
    }
}
