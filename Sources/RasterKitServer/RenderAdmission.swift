import Synchronization

/// The bounded render queue: how many requests memory could not serve may wait for, or be in,
/// a draw at once. Past the limit a request is refused at once (503 with `Retry-After`)
/// instead of queueing, so an overload costs clients a retry, not the server its memory.
final class RenderAdmission: Sendable {
    private let limit: Int
    private let count = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// Requests admitted and not yet finished.
    var outstanding: Int { count.load(ordering: .relaxed) }

    /// Runs `body` when there is room; nil (and `body` not run) when the queue is full.
    func withSlot<T: Sendable>(_ body: () async throws -> T) async rethrows -> T? {
        let (admitted, _) = count.wrappingAdd(1, ordering: .acquiring)
        guard admitted <= limit else {
            count.wrappingSubtract(1, ordering: .releasing)
            return nil
        }
        defer { count.wrappingSubtract(1, ordering: .releasing) }
        return try await body()
    }
}
