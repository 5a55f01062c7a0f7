/// How a row or column shares its length among its children: pure arithmetic over each
/// child's ideal length, bounds and share, kept apart from measuring so it can be tested alone.
struct StackDistribution {
    /// One child's claim on the stack's length.
    struct Claim {
        /// Its ideal length: its content's, or its fixed length.
        var ideal: Double
        /// The shortest it may be made.
        var minimum: Double
        /// The longest it may be made.
        var maximum: Double
        /// Its share of leftover space.
        var grow: Double
    }

    /// The length each child gets when the children and the spacing between them share
    /// `available` points (nil: each gets its ideal). Leftover space goes to children that grow,
    /// in proportion to their shares, until each reaches its maximum; missing space is taken
    /// from children above their minimum, in proportion to their ideal lengths. When no child
    /// can take more or give more, the lengths overflow or fall short of `available`.
    /// The claims may be any buffer (a stack passes one on its own call stack), indexed from 0.
    static func lengths<Claims: RandomAccessCollection<Claim>>(for claims: Claims, spacing: Double,
                                                                available: Double?) -> [Double] where Claims.Index == Int {
        var lengths = claims.map(\.ideal)
        guard let available, !claims.isEmpty else { return lengths }
        let gaps = spacing * Double(claims.count - 1)
        var remaining = available - gaps - lengths.reduce(0, +)
        // Each pass either places all that remains or pins one child at a bound, so a pass per
        // child ends it; a thousandth of a point is as close as pixels can tell.
        let tolerance = 1e-3
        if remaining > tolerance {
            var open = claims.indices.filter { claims[$0].grow > 0 && lengths[$0] < claims[$0].maximum }
            while remaining > tolerance, !open.isEmpty {
                let shares = open.reduce(0) { $0 + claims[$1].grow }
                var placed = 0.0
                var pinned: Set<Int> = []
                for index in open {
                    let room = claims[index].maximum - lengths[index]
                    let offered = remaining * claims[index].grow / shares
                    let given = min(offered, room)
                    if offered >= room { pinned.insert(index) }
                    lengths[index] += given
                    placed += given
                }
                remaining -= placed
                open.removeAll { pinned.contains($0) }
                if pinned.isEmpty { break }
            }
        } else if remaining < -tolerance {
            var open = claims.indices.filter { lengths[$0] > claims[$0].minimum && claims[$0].ideal > 0 }
            while remaining < -tolerance, !open.isEmpty {
                let weights = open.reduce(0) { $0 + claims[$1].ideal }
                var taken = 0.0
                var pinned: Set<Int> = []
                for index in open {
                    let room = lengths[index] - claims[index].minimum
                    let asked = -remaining * claims[index].ideal / weights
                    let given = min(asked, room)
                    if asked >= room { pinned.insert(index) }
                    lengths[index] -= given
                    taken += given
                }
                remaining += taken
                open.removeAll { pinned.contains($0) }
                if pinned.isEmpty { break }
            }
        }
        return lengths
    }
}
