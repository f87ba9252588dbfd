public import GestureEngine

/// The monitors gestures are judged on, built from RandR's list: what the capture feeds the
/// engine (and `record` writes into the trace), and what `doctor` shows.
///
/// RandR lists every monitor, automatic and `xrandr --setmonitor` ones alike, so one screen
/// split into `left` and `right` still lists the output's own screen-sized monitor too. Taken
/// as it is, with "the first listed monitor that contains the start" (docs/interface.md, «Monitors»), the
/// inner sides of the split would be no edge wherever that big monitor comes first. So:
///
/// 1. monitors of no size are left out;
/// 2. a monitor covered entirely by smaller ones is left out (the split replaces what it
///    splits), and of monitors with the same rectangle (mirrored outputs) only the first stays;
/// 3. a monitor inside another comes before it (a virtual monitor carved out of a bigger one
///    wins where it lies), otherwise RandR's order is kept.
///
/// Two side-by-side outputs (a laptop and its external screen) are kept as they are.
///
/// ```swift
/// MonitorLayout.monitors(from: [screen, left, right])   // [left, right]
/// ```
public enum MonitorLayout {
    /// The built list; empty when RandR gave none (nil: no RandR 1.5), which the engine takes
    /// as one monitor named `screen` covering the root window.
    public static func monitors(from randr: [RandRMonitor]?) -> [Monitor] {
        guard let randr else { return [] }
        let sized = randr.filter { $0.width > 0 && $0.height > 0 }
        var kept: [RandRMonitor] = []
        for (index, m) in sized.enumerated() {
            let area = m.width * m.height
            let smaller = sized.enumerated().filter { other in
                other.offset != index
                    && (other.element.width * other.element.height < area
                        || (other.offset < index && same(other.element, m)))
            }.map(\.element)
            if !covered(m, by: smaller) { kept.append(m) }
        }
        // Stable: the more monitors contain one, the earlier it comes.
        let depth = kept.map { m in kept.filter { $0 != m && contains($0, m) }.count }
        let ordered = kept.indices.sorted { depth[$0] != depth[$1] ? depth[$0] > depth[$1] : $0 < $1 }.map { kept[$0] }
        return ordered.map(\.monitor)
    }

    private static func same(_ a: RandRMonitor, _ b: RandRMonitor) -> Bool {
        a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height
    }

    private static func contains(_ outer: RandRMonitor, _ inner: RandRMonitor) -> Bool {
        inner.x >= outer.x && inner.y >= outer.y
            && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height
    }

    /// Whether the union of `others` covers all of `m`: every cell of the grid their sides cut
    /// `m` into lies in one of them.
    private static func covered(_ m: RandRMonitor, by others: [RandRMonitor]) -> Bool {
        guard !others.isEmpty else { return false }
        func cuts(_ low: Int, _ high: Int, _ sides: [Int]) -> [Int] {
            Array(Set([low, high] + sides.filter { $0 > low && $0 < high })).sorted()
        }
        let xs = cuts(m.x, m.x + m.width, others.flatMap { [$0.x, $0.x + $0.width] })
        let ys = cuts(m.y, m.y + m.height, others.flatMap { [$0.y, $0.y + $0.height] })
        for i in 0..<(xs.count - 1) {
            for j in 0..<(ys.count - 1) {
                let (cx, cy) = (xs[i], ys[j])
                let inside = others.contains { o in
                    cx >= o.x && cx < o.x + o.width && cy >= o.y && cy < o.y + o.height
                }
                if !inside { return false }
            }
        }
        return true
    }
}
