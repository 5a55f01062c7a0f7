import Foundation

/// The pixel memory a rasterizer's renders hold at once while they draw, kept under
/// ``ResourceLimits/memoryBudget``. Each surface a render allocates — its own, and the shadow
/// layers and masks it draws through — reserves its bytes here first. Intermediate surfaces give
/// them back when freed; a render's own surface gives them back when the render ends, since the
/// finished image then belongs to its caller and to the cache, which has its own limit.
///
/// A render's own surface waits, when other renders hold memory, until there is room for it and
/// as much again for the intermediate surfaces it may need; so parallel batch jobs of very large
/// components take turns instead of together exhausting the machine. Intermediate surfaces never
/// wait (a render holding memory while waiting for more could wait on another doing the same):
/// one that does not fit fails its render with ``RenderError/memoryBudgetExceeded(requested:budget:)``.
/// So does any surface larger than the whole budget.
///
/// Every ``Rasterizer`` keeps one; a standalone ``RasterImage`` render keeps its own.
final class MemoryBudget: @unchecked Sendable {
    /// The most bytes that may be held at once; nil counts without limiting.
    let limit: Int?
    private let condition = NSCondition()
    private var used = 0

    init(limit: Int?) {
        self.limit = limit
    }

    /// Bytes reserved now, for tests and statistics.
    var bytesInUse: Int {
        condition.lock()
        defer { condition.unlock() }
        return used
    }

    /// Reserves `bytes`. `waits` is true for a render's own surface, false for intermediate
    /// ones; a render started while the calling thread is drawing another (a nested component,
    /// an image drawn inside a draw) never waits, since the render it is inside holds memory.
    func reserve(_ bytes: Int, waits requested: Bool) throws -> MemoryReservation {
        let waits = requested && Self.rendersOnThisThread.value == 0
        condition.lock()
        defer { condition.unlock() }
        if let limit {
            guard bytes <= limit else { throw RenderError.memoryBudgetExceeded(requested: bytes, budget: limit) }
            if waits {
                // Room for this surface and as much again, unless nothing else is held.
                while used > 0, used + 2 * bytes > limit { condition.wait() }
            } else if used + bytes > limit {
                throw RenderError.memoryBudgetExceeded(requested: bytes, budget: limit)
            }
        }
        used += bytes
        return MemoryReservation(bytes: bytes, budget: self)
    }

    /// Runs `body` as a render on this thread: renders it starts count as nested.
    static func rendering<Result>(_ body: () throws -> Result) rethrows -> Result {
        rendersOnThisThread.value += 1
        defer { rendersOnThisThread.value -= 1 }
        return try body()
    }

    private static let rendersOnThisThread = ThreadLocalCount()

    fileprivate func release(_ bytes: Int) {
        condition.lock()
        used -= bytes
        condition.broadcast()
        condition.unlock()
    }
}

/// Bytes reserved in a ``MemoryBudget``, given back when the reservation is freed (with the
/// pixels it was made for).
final class MemoryReservation: Sendable {
    let bytes: Int
    private let budget: MemoryBudget

    fileprivate init(bytes: Int, budget: MemoryBudget) {
        self.bytes = bytes
        self.budget = budget
    }

    deinit { budget.release(bytes) }
}
