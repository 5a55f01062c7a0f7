/// The closest of `candidates` to `word`, when it is close enough to be a likely typo: the
/// did-you-mean of every surface that reads a word (manifests, command lines, the server).
package enum Suggestion {
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best else { return nil }
        // One edit in four characters, and at least one: "fil" → "fill", not "x" → "fill".
        return distance <= max(1, min(word.count, candidate.count) / 3) ? candidate : nil
    }

    /// ` (did you mean "fill"?)`, or nothing.
    package static func hint(for word: String, in candidates: some Sequence<String>, prefix: String = "") -> String {
        closest(to: word, in: candidates).map { " (did you mean \"\(prefix)\($0)\"?)" } ?? ""
    }

    /// Levenshtein distance, with a swap of neighbours counting as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
