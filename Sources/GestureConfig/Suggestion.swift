import Synchronization

/// "Did you mean …?" for misspelt keys, values, action words and keysym names (and, in the
/// executable, subcommand names).
///
/// A search compares the word with every candidate, and some candidate lists are long (2,000
/// keysym names, every `[[shape]]` of the config): a config of 19,000 unknown key names took
/// 7 s to check when each got its search. So one config read makes at most
/// ``searchesPerRead`` searches (``whileReading(_:)``); the problems after them are reported
/// without a suggestion. A config with a few typos gets every one.
public enum Suggestion {
    /// The most "did you mean" searches one config read makes: far more than a config written
    /// by hand has typos, and few enough that the longest lists cost a fraction of docs/reliability.md's
    /// second (each search over the keysym table takes well under a millisecond).
    static let searchesPerRead = 100

    /// The searches a config read has left.
    final class Allowance: Sendable {
        let remaining = Atomic(Suggestion.searchesPerRead)

        /// Takes one search; false once none are left.
        func take() -> Bool {
            remaining.subtract(1, ordering: .relaxed).newValue >= 0
        }
    }

    /// The searches left to the config read in progress on this thread; nil outside one
    /// (every search is made).
    @TaskLocal static var allowance: Allowance?

    /// Runs `body` (the reading of one config) with its own ``searchesPerRead``.
    static func whileReading<R>(_ body: () -> R) -> R {
        $allowance.withValue(Allowance(), operation: body)
    }

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
    /// - Returns: the best candidate, or `nil` when none is close (or the config read has made
    ///   its ``searchesPerRead``).
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        guard !target.isEmpty, allowance?.take() ?? true else { return nil }
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
