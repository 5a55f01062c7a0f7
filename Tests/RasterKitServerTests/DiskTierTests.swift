import Foundation
import RasterKitTestSupport
import RasterKit
@testable import RasterKitServer
import Testing

@Suite("Cache tiers") struct DiskTierTests {
    /// A render drawn by one server is served from the shared store by the next, undrawn, with
    /// the same tag: the server uses RasterKit's keys and tiers, not a cache of its own.
    @Test func aRestartedServerServesFromTheDiskStore() async throws {
        let folder = TestScratch.path("rasterkit-serve-disk")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("renders.sqlite")
        let first = try await TestServer.start(rasterizer: Rasterizer(cache: RasterCache(memoryLimit: 8 << 20, disk: try DiskCache(at: store))),
                                               folder: folder)
        let drawn = try await first.request("/icons/star.png?size=40&scale=2&tint=1F9D55")
        #expect(drawn.header("X-RasterKit-Origin") == "drawn")
        try first.service.rasterizer.cache.flush()
        try await first.stop(keepingFolder: true)

        let second = try await TestServer.start(rasterizer: Rasterizer(cache: RasterCache(memoryLimit: 8 << 20, disk: try DiskCache(at: store))),
                                                folder: folder)
        let stored = try await second.request("/icons/star.png?size=40&scale=2&tint=1F9D55")
        #expect(stored.status == 200)
        #expect(stored.header("X-RasterKit-Origin") == "disk")
        #expect(stored.header("ETag") == drawn.header("ETag"))
        #expect(stored.body == drawn.body)
        #expect(second.service.rasterizer.statistics.draws == 0)
        try await second.stop(keepingFolder: true)
    }
}
