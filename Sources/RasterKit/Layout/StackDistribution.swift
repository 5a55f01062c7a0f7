/// How a row or column shares its length among its children: pure arithmetic over each
/// child's ideal length, bounds and share, kept apart from measuring so it can be tested alone.
struct StackDistribution {
    /// One child's claim on the stack's length, and the length it gets.
    struct Claim {
        /// Its ideal length: its content's, or its fixed length.
        var ideal: Double
        /// The shortest it may be made.
        var minimum: Double
        /// The longest it may be made.
        var maximum: Double
        /// Its share of leftover space.
        var grow: Double
        /// The length it gets: its ideal, until ``StackDistribution/distribute(_:spacing:available:)``
        /// shares the stack's length out.
        var length: Double
        /// Whether it may still take or give space in the sharing under way.
        fileprivate var isOpen = false

        init(ideal: Double, minimum: Double, maximum: Double, grow: Double) {
            (self.ideal, self.minimum, self.maximum, self.grow, length) = (ideal, minimum, maximum, grow, ideal)
        }
    }

    /// Sets each claim's length for the children and the spacing between them sharing
    /// `available` points (nil: each keeps its ideal). Leftover space goes to children that grow,
    /// in proportion to their shares, until each reaches its maximum; missing space is taken
    /// from children above their minimum, in proportion to their ideal lengths. When no child
    /// can take more or give more, the lengths overflow or fall short of `available`. The
    /// claims are shared out in place (a stack passes a buffer on its own call stack), so
    /// arranging a stack allocates nothing here.
    static func distribute(_ claims: UnsafeMutableBufferPointer<Claim>, spacing: Double, available: Double?) {
        guard let available, !claims.isEmpty else { return }
        let gaps = spacing * Double(claims.count - 1)
        var remaining = available - gaps - claims.reduce(0) { $0 + $1.length }
        // Each pass either places all that remains or pins one child at a bound, so a pass per
        // child ends it; a thousandth of a point is as close as pixels can tell.
        let tolerance = 1e-3
        if remaining > tolerance {
            open(claims) { $0.grow > 0 && $0.length < $0.maximum }
            while remaining > tolerance {
                let shares = claims.reduce(0) { $0 + ($1.isOpen ? $1.grow : 0) }
                guard shares > 0 else { break }
                var placed = 0.0
                var pinned = false
                for index in claims.indices where claims[index].isOpen {
                    let room = claims[index].maximum - claims[index].length
                    let offered = remaining * claims[index].grow / shares
                    let given = min(offered, room)
                    if offered >= room { (claims[index].isOpen, pinned) = (false, true) }
                    claims[index].length += given
                    placed += given
                }
                remaining -= placed
                if !pinned { break }
            }
        } else if remaining < -tolerance {
            open(claims) { $0.length > $0.minimum && $0.ideal > 0 }
            while remaining < -tolerance {
                let weights = claims.reduce(0) { $0 + ($1.isOpen ? $1.ideal : 0) }
                guard weights > 0 else { break }
                var taken = 0.0
                var pinned = false
                for index in claims.indices where claims[index].isOpen {
                    let room = claims[index].length - claims[index].minimum
                    let asked = -remaining * claims[index].ideal / weights
                    let given = min(asked, room)
                    if asked >= room { (claims[index].isOpen, pinned) = (false, true) }
                    claims[index].length -= given
                    taken += given
                }
                remaining += taken
                if !pinned { break }
            }
        }
    }

    /// Marks the claims that pass `test` as open to taking or giving space.
    private static func open(_ claims: UnsafeMutableBufferPointer<Claim>, where test: (Claim) -> Bool) {
        for index in claims.indices { claims[index].isOpen = test(claims[index]) }
    }
}
