import RasterKit
/// Outputs arranged for the workers: groups kept together in their first-seen order, and
/// outputs whose paths cannot be written (outside the directory, or twice) set aside.
struct BatchWorkUnits: Sendable {
    /// Indices into the outputs, one array per unit of work.
    var groups: [[Int]] = []
    /// Outputs that fail before rendering, with the reason.
    var rejected: [(Int, String)] = []

    init(_ outputs: [BatchOutput]) {
        var groupIndex: [String: Int] = [:]
        var claimedPaths: [String: String] = [:]
        for (index, output) in outputs.enumerated() {
            let path = output.path
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if path.isEmpty || path.hasPrefix("/") || parts.contains(where: { $0 == ".." || $0.isEmpty }) {
                rejected.append((index, "output path '\(path)' must be relative and stay inside the output directory"))
                continue
            }
            if let other = claimedPaths[path] {
                rejected.append((index, "'\(path)' is also the output of \(other)"))
                continue
            }
            claimedPaths[path] = output.source
            if let group = output.group {
                if let existing = groupIndex[group] {
                    groups[existing].append(index)
                } else {
                    groupIndex[group] = groups.count
                    groups.append([index])
                }
            } else {
                groups.append([index])
            }
        }
    }
}
