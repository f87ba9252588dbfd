import GestureConfig
import GestureEngine

/// The keys held down for running gestures (`hold`, docs/config.md): which gesture holds
/// which key, and which keys are down.
///
/// A gesture holds the union of the `hold` keys of every binding that fired in it, in the order
/// they first went down, each spelled as in the first `hold` that named it; its `ended` or
/// `cancelled` phase releases them (``end(_:)``). Two gestures at once (a pointer pan and a
/// touchscreen long press) may hold the same key: it goes down once, when the first one takes
/// it, and up when the last one that holds it ends, so neither loses it while it runs.
///
/// Gestures are told apart by device and kind, as ``LiveLog`` does: one device runs one gesture
/// group at a time, the continuous gestures of one group (a pinch and a rotate together) are of
/// different kinds, and a gesture's `ended` or `cancelled` always comes before the next gesture
/// of its device and kind begins.
///
/// ```swift
/// var held = HeldKeys()
/// let down = held.take(binding.hold!.keys, spelled: binding.holdSpellings, for: report)  // keys to press now
/// // … the gesture's ended phase:
/// let (release, up) = held.end(report)   // "alt", keys to release now (in reverse order)
/// ```
struct HeldKeys {
    /// A running gesture.
    struct Gesture: Hashable {
        var device: DeviceKind
        var gesture: GestureKind
        init(_ report: GestureReport) { (device, gesture) = (report.device, report.gesture) }
    }

    /// The keys each running gesture holds, in the order it took them, with their spelling.
    private var byGesture: [Gesture: [(key: KeyCombo.Key, spelling: String)]] = [:]
    /// The keys down, in press order, with how many gestures hold each.
    private(set) var down: [(key: KeyCombo.Key, holders: Int)] = []

    /// Whether no gesture holds any key.
    var isEmpty: Bool { byGesture.isEmpty }

    /// Whether `keysym` is down for some gesture.
    func isDown(_ keysym: UInt32) -> Bool { down.contains { $0.key.keysym == keysym } }

    /// The gesture of `report` takes `keys` (a binding that holds them fired at it); returns the
    /// keys that are not down yet, to press now in this order. A key the gesture already holds
    /// changes nothing.
    mutating func take(_ keys: [KeyCombo.Key], spelled spellings: [String], for report: GestureReport) -> [KeyCombo.Key] {
        let gesture = Gesture(report)
        var holding = byGesture[gesture] ?? []
        var press: [KeyCombo.Key] = []
        for (index, key) in keys.enumerated() where !holding.contains(where: { $0.key.keysym == key.keysym }) {
            holding.append((key, index < spellings.count ? spellings[index] : key.name))
            if let at = down.firstIndex(where: { $0.key.keysym == key.keysym }) {
                down[at].holders += 1
            } else {
                down.append((key, 1))
                press.append(key)
            }
        }
        byGesture[gesture] = holding
        return press
    }

    /// The gesture of `report` ended or was cancelled: what it held, as `release` names it
    /// (`nil` when it held nothing), and the keys no gesture holds any more, to release now in
    /// this order (the reverse of the order they went down).
    mutating func end(_ report: GestureReport) -> (release: String?, up: [KeyCombo.Key]) {
        guard let holding = byGesture.removeValue(forKey: Gesture(report)) else { return (nil, []) }
        var up: [KeyCombo.Key] = []
        for entry in holding.reversed() {
            guard let at = down.firstIndex(where: { $0.key.keysym == entry.key.keysym }) else { continue }
            down[at].holders -= 1
            if down[at].holders == 0 {
                up.append(entry.key)
                down.remove(at: at)
            }
        }
        return (holding.map(\.spelling).joined(separator: "+"), up)
    }

    /// Forgets every gesture and returns every key down, to release now in this order (the
    /// reverse of the order they went down).
    mutating func endAll() -> [KeyCombo.Key] {
        let up = down.reversed().map(\.key)
        byGesture = [:]
        down = []
        return up
    }
}
