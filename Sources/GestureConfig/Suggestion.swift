/// "Did you mean …?" for misspelt keys, values, action words and keysym names (and, in the
/// executable, subcommand names).
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    ///
    /// Candidates are compared case-insensitively and scored: 0 for the same word in another
    /// case; 1 for a word cut short or run on (`slop` for `slop_px`, `previous` for `prev`,
    /// both at least 3 letters); otherwise the optimal-string-alignment edit distance
    /// (insertions, deletions, substitutions and swaps of neighbours each cost 1), accepted up
    /// to one edit per three letters of `word`. The lowest score wins; ties go to the earlier
    /// candidate, so list the common ones first.
    ///
    /// - Parameters:
    ///   - word: what the user wrote.
    ///   - candidates: the valid spellings.
    /// - Returns: the best candidate, or `nil` when none is close.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        guard !target.isEmpty else { return nil }
        let limit = max(1, (target.count + 2) / 3)
        var best: (candidate: String, score: Int)?
        for candidate in candidates {
            let lowered = Array(candidate.lowercased().unicodeScalars)
            let score: Int
            if lowered == target {
                score = 0
            } else if min(target.count, lowered.count) >= 3,
                lowered.starts(with: target) || target.starts(with: lowered)
            {
                score = 1
            } else {
                // Only a strictly better candidate matters; skip the distance when it cannot be.
                let bound = min(limit, (best?.score ?? .max) - 1)
                guard bound >= 1, abs(lowered.count - target.count) <= bound else { continue }
                score = distance(target, lowered)
                guard score <= bound else { continue }
            }
            if score < (best?.score ?? .max) { best = (candidate, score) }
            if score == 0 { break }
        }
        return best?.candidate
    }

    /// `; did you mean 'x'?` for the closest candidate, or an empty string.
    static func clause(for word: String, among candidates: some Sequence<String>) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Optimal-string-alignment distance between two scalar arrays.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
