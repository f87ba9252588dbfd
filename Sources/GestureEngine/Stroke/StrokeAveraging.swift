/// Templates averaged from many drawings of one shape: how the built-in shapes' templates were
/// made from people's drawings (`stroke-accuracy templates` in Benchmarks/, docs/performance.md).
///
/// The drawings are grouped by the ways they are drawn — k-means with the matcher's own quick
/// measure (`StrokeFeatures.similarity`), started from the drawing most like the others and then
/// each time from the one least like any group so far — and each group of at least
/// `minimumGroup` drawings becomes one template: the mean of its drawings, each resampled,
/// centred, scaled and turned onto the group's current template. A template is thus never one
/// person's drawing, but what a way of drawing the shape has in common.
///
/// ```swift
/// let templates = StrokeAveraging.templates(from: drawingsOfCircles, ways: 8)
/// let circle = StrokeShape(name: "circle", templates: templates)
/// ```
public enum StrokeAveraging {
    /// Rounds of regrouping and averaging: the groups no longer change after about 10.
    static let rounds = 15

    /// Up to `ways` templates (each `StrokeFeatures.pointCount` points, centred on the origin,
    /// at a root-mean-square distance of 100 from it) averaged from `drawings`, the largest group first;
    /// groups smaller than `minimumGroup` are left out. Drawings with fewer than 2 distinct
    /// points are ignored.
    public static func templates(from drawings: [[Point]], ways: Int, minimumGroup: Int = 5) -> [[Point]] {
        var scratch = StrokeScratch()
        var shapes: [[Point]] = [], features: [StrokeFeatures] = [], prepared = StrokeTemplateSet()
        for drawing in drawings where StrokeFeatures.extract(drawing, resampled: &scratch.resampled, into: &scratch.features) {
            shapes.append(normalized(scratch.resampled))
            features.append(scratch.features)
            prepared.append(scratch.features)
        }
        guard !shapes.isEmpty, ways > 0 else { return [] }

        var centres = initialCentres(features, prepared, count: min(ways, shapes.count)).map { shapes[$0] }
        for _ in 0..<rounds {
            let (groups, centreFeatures) = assign(features, to: centres, scratch: &scratch)
            var next: [[Point]] = []
            for (c, group) in groups.enumerated() where group.count >= min(minimumGroup, shapes.count) {
                next.append(mean(of: group.map { index -> [Point] in
                    let (_, turn) = centreFeatures.similarity(features[index], to: c)
                    return shapes[index].map { p in
                        let (x, y) = turn.apply(p.x, p.y)
                        return Point(x: x, y: y)
                    }
                }))
            }
            if next.isEmpty || next == centres { break }
            centres = next
        }
        let sizes = assign(features, to: centres, scratch: &scratch).groups.map(\.count)
        let scale = 100 * Double(StrokeFeatures.pointCount).squareRoot()
        return centres.indices.sorted { sizes[$0] > sizes[$1] }.map { centres[$0].map { $0 * scale } }
    }

    /// Each drawing in the group of the centre it is most like, and the centres' features.
    private static func assign(_ features: [StrokeFeatures], to centres: [[Point]], scratch: inout StrokeScratch)
        -> (groups: [[Int]], centres: StrokeTemplateSet)
    {
        var centreFeatures = StrokeTemplateSet()
        for centre in centres where StrokeFeatures.extract(centre, resampled: &scratch.resampled, into: &scratch.features) {
            centreFeatures.append(scratch.features)
        }
        var groups = [[Int]](repeating: [], count: centres.count)
        for (index, drawing) in features.enumerated() {
            var best = 0, bestSimilarity = -Double.infinity
            for c in 0..<centreFeatures.count {
                let (similarity, _) = centreFeatures.similarity(drawing, to: c)
                if similarity > bestSimilarity { (best, bestSimilarity) = (c, similarity) }
            }
            groups[best].append(index)
        }
        return (groups, centreFeatures)
    }

    /// The drawing most like all the others, then repeatedly the drawing least like any chosen
    /// so far: starting groups spread over the ways the shape is drawn.
    private static func initialCentres(_ features: [StrokeFeatures], _ prepared: StrokeTemplateSet, count: Int) -> [Int] {
        var total = [Double](repeating: 0, count: features.count)
        for i in features.indices {
            for j in features.indices where j != i { total[i] += prepared.similarity(features[i], to: j).0 }
        }
        var chosen = [total.indices.max { total[$0] < total[$1] }!]
        var closest = features.map { prepared.similarity($0, to: chosen[0]).0 }
        while chosen.count < count {
            let next = closest.indices.min { closest[$0] < closest[$1] }!
            chosen.append(next)
            for i in features.indices { closest[i] = max(closest[i], prepared.similarity(features[i], to: next).0) }
        }
        return chosen
    }

    /// `points` about their centroid, scaled so that their vector has length 1 (as the matcher
    /// sees them).
    private static func normalized(_ points: [Point]) -> [Point] {
        var centroid = Point.zero
        for p in points { centroid = centroid + p }
        centroid = centroid / Double(points.count)
        var norm = 0.0
        for p in points { norm += (p - centroid).length * (p - centroid).length }
        let k = norm > 0 ? 1 / norm.squareRoot() : 1
        return points.map { ($0 - centroid) * k }
    }

    /// The point-by-point mean of equally long point lists, normalized.
    private static func mean(of lists: [[Point]]) -> [Point] {
        var sum = [Point](repeating: .zero, count: lists[0].count)
        for list in lists { for i in list.indices { sum[i] = sum[i] + list[i] } }
        return normalized(sum.map { $0 / Double(lists.count) })
    }
}
