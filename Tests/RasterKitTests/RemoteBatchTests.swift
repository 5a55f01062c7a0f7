import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// A batch sharded over machines through the remote store (issue 22): the PNG a batch writes goes
/// up with the render, named by its encoder, so a machine with an empty store writes those very
/// bytes instead of decoding and encoding again.
@Suite struct RemoteBatchTests {
    static let manifest = """
        components:
          chip:
            sizes: ["60x24"]
            scales: [1, 2]
            states:
              a: {fill: "#2F6FEB"}
              b: {fill: "#1F9D55"}
              c: {fill: "#D93B3B"}
            layers:
              - roundedRect: {radius: 12, fill: "$fill", stroke: {color: "#0F172A", width: 1}}
              - text: {text: Chip, font: DejaVu Sans Bold 11, color: white, alignment: center, verticalAlignment: center}
        """

    static func machine(_ remote: FakeRemote, disk: DiskFixture) throws -> Rasterizer {
        var options = RemoteCacheOptions()
        // Long enough that the batch always hands its PNG over before the upload.
        options.uploadDelay = 1
        return Rasterizer(cache: RasterCache(memoryLimit: 8 << 20, disk: try disk.open(), remote: remote,
                                             remoteOptions: options, respondsToMemoryPressure: false))
    }

    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".png") {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// The second machine keeps the remote PNGs without decoding them: what its store records of
    /// each (size, scale, nine-slice caps, children) is read from the PNG and must be what the
    /// first machine recorded from the pixels.
    @Test func rendersKeptWithoutDecodingRecordWhatTheirPixelsWould() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(BatchFreshFolderTests.manifest).plan(format: .png)
        let remote = FakeRemote()
        let firstDisk = try DiskFixture(), secondDisk = try DiskFixture()
        defer { try? FileManager.default.removeItem(at: firstDisk.directory); try? FileManager.default.removeItem(at: secondDisk.directory) }
        let first = try Self.machine(remote, disk: firstDisk)
        #expect(BatchRenderer(rasterizer: first, jobs: 2).run(plan, into: fixture.folder.appendingPathComponent("first")).failed == 0)
        #expect(first.cache.flushUploads(timeout: 20))
        try first.cache.flush()

        let second = try Self.machine(remote, disk: secondDisk)
        let summary = BatchRenderer(rasterizer: second, jobs: 2).run(plan, into: fixture.folder.appendingPathComponent("second"))
        #expect(summary.failed == 0 && summary.drawn == 0 && second.statistics.draws == 0)
        try second.cache.flush()

        let keys = Set(plan.outputs.compactMap { try? $0.renderKey?().digest })
        func recorded(_ disk: DiskCache?) throws -> [String: DiskCacheEntryInfo] {
            let entries = try #require(disk).entries(olderThan: -3600)
            return Dictionary(entries.filter { keys.contains($0.digest) }.map { ($0.digest, $0) }) { a, _ in a }
        }
        let drawn = try recorded(first.cache.diskCache), copied = try recorded(second.cache.diskCache)
        #expect(copied.count == keys.count && drawn.count == keys.count)
        #expect(drawn.values.contains { $0.capInsets != nil } && drawn.values.contains { $0.scale == 2 })
        for (digest, entry) in drawn {
            let other = try #require(copied[digest])
            #expect(other.pixelWidth == entry.pixelWidth && other.pixelHeight == entry.pixelHeight, "\(entry.keyDescription)")
            #expect(other.scale == entry.scale && other.capInsets == entry.capInsets, "\(entry.keyDescription)")
            #expect(other.children == entry.children, "\(entry.keyDescription)")
        }
        // And a lookup decodes them to the same pixels.
        for output in plan.outputs {
            let key = try #require(try output.renderKey?())
            let a = try #require(first.cache.disk?.image(for: key)), b = try #require(second.cache.disk?.image(for: key))
            #expect(try a.pngData() == b.pngData() && a.capInsets == b.capInsets && a.scale == b.scale)
        }
    }

    @Test func aSecondMachineWritesTheFirstMachinesBytes() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(Self.manifest).plan(format: .png)
        let remote = FakeRemote()
        let firstDisk = try DiskFixture(), secondDisk = try DiskFixture()
        defer { try? FileManager.default.removeItem(at: firstDisk.directory); try? FileManager.default.removeItem(at: secondDisk.directory) }

        let first = try Self.machine(remote, disk: firstDisk)
        let firstOut = fixture.folder.appendingPathComponent("first")
        #expect(BatchRenderer(rasterizer: first, jobs: 2).run(plan, into: firstOut).failed == 0)
        #expect(first.cache.flushUploads(timeout: 20))
        let written = try Self.files(in: firstOut)
        #expect(written.count == 6)
        // Every object holds the PNG the batch wrote, named by its encoder.
        let pngs = Set(written.values)
        #expect(remote.names.count == 6)
        for name in remote.names {
            let object = try #require(remote.object(name))
            let key = try #require(plan.outputs.compactMap { try? $0.renderKey?() }.first { RemoteObjectName(key: $0).description == name })
            let contents = try #require(RemoteCacheObject.decode(object, digest: key.value))
            #expect(contents.encoding == PNGBatchEncoder().identifier)
            #expect(pngs.contains(contents.png))
        }

        let second = try Self.machine(remote, disk: secondDisk)
        let secondOut = fixture.folder.appendingPathComponent("second")
        let summary = BatchRenderer(rasterizer: second, jobs: 2).run(plan, into: secondOut)
        #expect(summary.failed == 0 && summary.drawn == 0)
        #expect(second.statistics.remoteHits == 6 && second.statistics.draws == 0)
        #expect(try Self.files(in: secondOut) == written)
        // The second machine's store now holds the same bytes under the same name: a third run
        // into a new folder copies them without asking the remote.
        try second.cache.flush()
        let third = Rasterizer(cache: RasterCache(memoryLimit: 8 << 20, disk: try secondDisk.open(), respondsToMemoryPressure: false))
        let thirdOut = fixture.folder.appendingPathComponent("third")
        #expect(BatchRenderer(rasterizer: third, jobs: 1).run(plan, into: thirdOut).drawn == 0)
        #expect(third.statistics.draws == 0 && third.statistics.diskHits == 0, "copied, never decoded")
        #expect(try Self.files(in: thirdOut) == written)
    }

    @Test func objectsWithoutAnEncodingAreStillRead() throws {
        let image = try RasterImage(size: Size(8), scale: 1) { $0.fillAll(with: .color(.white)) }
        let png = try image.pngData(compression: .fast)
        let digest = StableDigest(high: 1, low: 2)
        // Version 2 with and without an encoding.
        let named = RemoteCacheObject.encode(digest: digest, png: png, children: [], encoding: "png1")
        #expect(RemoteCacheObject.decode(named, digest: digest)?.encoding == "png1")
        let plain = RemoteCacheObject.encode(digest: digest, png: png, children: [])
        #expect(RemoteCacheObject.decode(plain, digest: digest)?.encoding == nil)
        // A version-1 object, as machines before the encoding field wrote them.
        var old = Data(RemoteCacheObject.magic)
        old.append(1)
        for value in [digest.high, digest.low, RemoteCacheObject.checksum(digest: digest, encoding: nil, children: Data(), png: png)] {
            withUnsafeBytes(of: value.bigEndian) { old.append(contentsOf: $0) }
        }
        withUnsafeBytes(of: UInt32(0).bigEndian) { old.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(png.count).bigEndian) { old.append(contentsOf: $0) }
        old.append(png)
        let contents = try #require(RemoteCacheObject.decode(old, digest: digest))
        #expect(contents.png == png && contents.encoding == nil)
        // The encoding is under the checksum: changing it makes the object damaged.
        var forged = named
        let at = RemoteCacheObject.headerSize - 4 + 1   // first byte of the encoding's name
        forged[at] ^= 0x01
        #expect(RemoteCacheObject.decode(forged, digest: digest) == nil)
    }
}
