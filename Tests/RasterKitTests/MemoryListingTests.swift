import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// What the memory cache lists for debugging: keys, bytes, stored and last-use times.
@Suite struct MemoryListingTests {
    @Test func theMemoryCacheListsKeysBytesAndLastUse() throws {
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 1 << 20, respondsToMemoryPressure: false))
        let small = Counted(label: "small", draws: Counter())
        let large = Counted(label: "large", draws: Counter())
        let before = Date()
        _ = try rasterizer.image(for: small, size: Size(4))
        _ = try rasterizer.image(for: large, size: Size(10), scale: 2)
        #expect(rasterizer.statistics.memoryEntries.isEmpty)  // the cheap snapshot lists nothing

        let listed = rasterizer.statistics(listingMemory: true).memoryEntries
        #expect(listed.map(\.key) == [rasterizer.key(for: small, size: Size(4)),
                                      rasterizer.key(for: large, size: Size(10), scale: 2)])
        #expect(listed.map(\.byteCount) == [64, 1_600])
        #expect(listed.map(\.pixelWidth) == [4, 20] && listed.allSatisfy { !$0.isMarkedRecent })
        #expect(listed.allSatisfy { $0.stored >= before.addingTimeInterval(-1) && $0.stored <= Date().addingTimeInterval(1) })
        #expect(listed[0].key.description.contains("small"))

        // A hit a while later moves the last use on and marks the entry, without reordering.
        usleep(200_000)
        _ = try rasterizer.image(for: small, size: Size(4))
        let after = rasterizer.cache.memory.entries
        #expect(after[0].isMarkedRecent && !after[1].isMarkedRecent)
        #expect(after[0].lastUse.timeIntervalSince(listed[0].lastUse) > 0.1)
        #expect(abs(after[1].lastUse.timeIntervalSince(listed[1].lastUse)) < 0.05)
        #expect(after.map(\.key) == listed.map(\.key))
    }
}
