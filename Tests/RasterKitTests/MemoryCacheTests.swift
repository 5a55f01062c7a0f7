import Testing
@testable import RasterKit

private func key(_ n: Int) -> CacheKey {
    CacheKey(value: StableDigest(high: 0, low: UInt64(n)), typeName: "T", renderVersion: 0, size: nil, scale: 1) { "\(n)" }
}

/// A 10×10 image: 400 bytes.
private func image() throws -> RasterImage { try TestSupport.solidImage(.red, width: 10, height: 10) }

@Suite struct MemoryCacheTests {
    @Test func evictsTheLeastRecentlyUsedFirst() throws {
        let cache = MemoryCache(costLimit: 1_200, itemCostLimit: 1_200)
        for n in 1...3 { cache.insert(try image(), for: key(n)) }
        _ = cache.image(for: key(1))                 // 1 is now the most recent
        cache.insert(try image(), for: key(4))       // over the limit: 2 goes
        #expect(cache.image(for: key(2)) == nil)
        #expect(cache.image(for: key(1)) != nil && cache.image(for: key(3)) != nil && cache.image(for: key(4)) != nil)
        #expect(cache.statistics.evictions == 1)
        #expect(cache.statistics.totalCost == 1_200 && cache.statistics.count == 3)
    }

    @Test func itemsOverTheItemLimitAreNotKept() throws {
        let cache = MemoryCache(costLimit: 10_000, itemCostLimit: 399)
        #expect(!cache.insert(try image(), for: key(1)))
        #expect(cache.image(for: key(1)) == nil)
        #expect(cache.totalCost == 0)
    }

    @Test func trimAndRemoveAll() throws {
        let cache = MemoryCache(costLimit: 10_000)
        for n in 1...5 { cache.insert(try image(), for: key(n)) }
        cache.trim(toCost: 800)
        #expect(cache.statistics.count == 2 && cache.contains(key(5)) && cache.contains(key(4)))
        cache.removeImage(for: key(5))
        #expect(!cache.contains(key(5)))
        cache.removeAll()
        #expect(cache.statistics.count == 0 && cache.totalCost == 0)
        #expect(cache.statistics.evictions == 3)
    }

    @Test func countsHitsAndMisses() throws {
        let cache = MemoryCache()
        cache.insert(try image(), for: key(1))
        _ = cache.image(for: key(1))
        _ = cache.image(for: key(2))
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
    }

    @Test func replacingAKeyUpdatesItsCost() throws {
        let cache = MemoryCache(costLimit: 10_000)
        cache.insert(try image(), for: key(1))
        cache.insert(try TestSupport.solidImage(.blue, width: 5, height: 5), for: key(1))
        #expect(cache.totalCost == 100 && cache.statistics.count == 1)
    }

    @Test func staysBoundedUnderManyInsertions() throws {
        let cache = MemoryCache(costLimit: 4_000)
        let shared = try image()
        for n in 0..<10_000 { cache.insert(shared, for: key(n)) }
        #expect(cache.totalCost <= 4_000 && cache.statistics.count == 10)
    }

    @Test func concurrentUseIsSafe() async throws {
        let cache = MemoryCache(costLimit: 40_000)
        let shared = try image()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 0..<2_000 {
                        cache.insert(shared, for: key((n * 7 + task) % 300))
                        _ = cache.image(for: key(n % 300))
                    }
                }
            }
        }
        #expect(cache.totalCost <= 40_000)
        #expect(cache.statistics.count == cache.totalCost / 400)
    }
}

@Suite struct MemoryCacheRecencyTests {
    @Test func anImageHitSinceItWasStoredOutlivesOnesThatWereNot() throws {
        let cache = MemoryCache(costLimit: 2_000, itemCostLimit: 2_000)
        for n in 1...5 { cache.insert(try image(), for: key(n)) }
        _ = cache.image(for: key(1))
        _ = cache.image(for: key(3))
        cache.insert(try image(), for: key(6))       // one must go: 2, the oldest not hit
        cache.insert(try image(), for: key(7))       // then 4
        #expect(!cache.contains(key(2)) && !cache.contains(key(4)))
        #expect([1, 3, 5, 6, 7].allSatisfy { cache.contains(key($0)) })
        // Their second chance used, 1 and 3 are now the oldest again.
        cache.insert(try image(), for: key(8))
        #expect(!cache.contains(key(5)))
    }

    @Test func removedKeysLeaveNoTraceInLookups() throws {
        let cache = MemoryCache(costLimit: 1 << 20)
        for n in 0..<500 { cache.insert(try image(), for: key(n)) }
        for n in stride(from: 0, to: 500, by: 2) { cache.removeImage(for: key(n)) }
        for n in 500..<700 { cache.insert(try image(), for: key(n)) }   // reuses freed entries, rebuilds the index
        #expect((0..<700).allSatisfy { cache.contains(key($0)) == ($0 >= 500 || $0 % 2 == 1) })
        #expect(cache.statistics.count == 450 && cache.totalCost == 450 * 400)
    }

    @Test func hitsFromManyThreadsWhileOthersInsertAndTrim() async throws {
        let cache = MemoryCache(costLimit: 40_000)
        let shared = try image()
        for n in 0..<100 { cache.insert(shared, for: key(n)) }
        let hits = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var hits = 0
                    for step in 0..<5_000 {
                        if task < 2 {
                            cache.insert(shared, for: key(100 + (step * 7 + task) % 400))
                            if step % 500 == 0 { cache.trim(toCost: 20_000) }
                        } else if let image = cache.image(for: key(step % 500)) {
                            hits += image.byteCount == 400 ? 1 : 0
                        }
                    }
                    return hits
                }
            }
            return await group.reduce(0, +)
        }
        #expect(hits > 0)
        let statistics = cache.statistics
        #expect(statistics.totalCost <= 40_000 && statistics.count * 400 == statistics.totalCost)
        #expect(statistics.hits + statistics.misses == 6 * 5_000)
    }
}
