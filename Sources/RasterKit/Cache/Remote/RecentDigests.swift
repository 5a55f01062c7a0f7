/// A bounded set of digests: inserting past the capacity forgets the oldest. For remembering
/// what failed (a remote object that did not verify) without letting a stream of failures grow
/// memory.
struct RecentDigests: Sendable {
    private var members: Set<StableDigest> = []
    private var order: [StableDigest] = []
    /// Where the next insertion goes in `order`, once it is full.
    private var next = 0
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "RecentDigests needs room for one digest")
        self.capacity = capacity
    }

    func contains(_ digest: StableDigest) -> Bool { members.contains(digest) }

    mutating func insert(_ digest: StableDigest) {
        guard members.insert(digest).inserted else { return }
        if order.count < capacity {
            order.append(digest)
        } else {
            members.remove(order[next])
            order[next] = digest
            next = (next + 1) % capacity
        }
    }
}
