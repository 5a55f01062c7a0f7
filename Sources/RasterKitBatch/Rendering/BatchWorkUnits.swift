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
        // Outputs whose paths were all claimed together (an SVG batch's, or some of them, each
        // once) cannot conflict; checking them again was half a millisecond of a warm batch of 400.
        let claimedTogether = OutputPathClaimToken.claimedTogether(outputs)
        var claims = OutputPathClaims(capacity: claimedTogether ? 0 : outputs.count)
        // By index: an output is a large value with closures, and only two fields are needed.
        for index in outputs.indices {
            do {
                if !claimedTogether { try claims.claim(outputs[index].path, by: outputs[index].source) }
            } catch {
                rejected.append((index, error.description))
                continue
            }
            if let group = outputs[index].group {
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
