import RasterKit
extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        // A batch has a handful of sizes and scales: comparing them costs less than the runtime's
        // first lookup of a set of a new element type (a conformance search over the binary).
        if count <= 16 {
            var unique: [Element] = []
            for element in self where !unique.contains(element) { unique.append(element) }
            return unique
        }
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
