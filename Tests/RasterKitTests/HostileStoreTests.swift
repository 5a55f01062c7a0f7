import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Issue 46: bytes from a shared remote store, or from a store file someone handed over, are
/// untrusted input — bounded before they are read, checked against the key's render before a
/// pixel is decoded, and never able to run code in SQLite.
@Suite struct HostileStoreTests {
    private func machine(_ remote: FakeRemote, fixture: DiskFixture? = nil, options: RemoteCacheOptions = RemoteCacheOptions(),
                         limits: ResourceLimits = .default) throws -> Rasterizer {
        Rasterizer(cache: RasterCache(memoryLimit: 8 << 20, disk: try fixture?.open(), remote: remote, remoteOptions: options,
                                      respondsToMemoryPressure: false), limits: limits)
    }

    /// A well-framed object (right digest, right checksum) holding `png`.
    private func forgedObject(_ png: Data, for key: CacheKey) -> Data {
        RemoteCacheObject.encode(digest: key.value, png: png, children: [])
    }

    private func png(width: Int, height: Int, scale: Double = 1) throws -> Data {
        try RasterImage(size: Size(width: Double(width) / scale, height: Double(height) / scale), scale: scale) { canvas in
            canvas.fillAll(with: .color(.green))
        }.pngData()
    }

    @Test func aRemoteObjectOfAnotherSizeIsRejectedBeforeItIsDecoded() throws {
        let remote = FakeRemote()
        let component = Counted(label: "forged", draws: Counter())
        let rasterizer = try machine(remote)
        let key = rasterizer.key(for: component, size: Size(24), scale: 1)
        let name = RemoteObjectName(key: key).description
        // A 48×48 image, and one at another scale, under a 24-point key at 1x.
        for forged in [try png(width: 48, height: 48), try png(width: 48, height: 48, scale: 2)] {
            remote.replace(name, with: forgedObject(forged, for: key))
            let other = try machine(remote)
            let rendered = try other.render(RenderRequest(component, size: Size(24), scale: 1))
            #expect(rendered.origin == .drawn && rendered.image.pixelWidth == 24)
            #expect(other.cache.remoteStatistics?.rejected == 1)
        }
    }

    @Test func anObjectOverThePixelLimitsIsNeverDecoded() throws {
        let remote = FakeRemote()
        let component = Counted(label: "huge", draws: Counter())
        var limits = ResourceLimits.default
        limits.pixels = PixelLimits(maximumSide: 64, maximumPixelCount: 64 * 64)
        let key = try machine(remote).key(for: component, size: Size(24), scale: 1)
        // A PNG header claiming 16384² (IHDR only: decoding it would need 1 GiB).
        var header = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        header.append(contentsOf: [0, 0, 0x40, 0, 0, 0, 0x40, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0])
        remote.replace(RemoteObjectName(key: key).description, with: forgedObject(header, for: key))
        let rasterizer = try machine(remote, limits: limits)
        #expect(try rasterizer.render(RenderRequest(component, size: Size(24), scale: 1)).origin == .drawn)
        #expect(rasterizer.cache.remoteStatistics?.rejected == 1)
        let expected = try ExpectedRender(for: component, size: Size(24), scale: 1, limits: limits)
        #expect(expected.mismatch(try StoredRenderGeometry(png: header)) != nil)
    }

    @Test func aRejectedObjectIsFetchedAndCountedOnce() throws {
        let remote = FakeRemote()
        let component = Counted(label: "once", draws: Counter())
        let key = try machine(remote).key(for: component, size: Size(8), scale: 1)
        remote.replace(RemoteObjectName(key: key).description, with: Data("junk".utf8))
        // Nothing kept in memory, so every request asks the tiers below it.
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 0, remote: remote, respondsToMemoryPressure: false))
        for _ in 0..<3 { #expect(try rasterizer.render(RenderRequest(component, size: Size(8), scale: 1)).origin == .drawn) }
        #expect(remote.gets.count == 1)
        #expect(rasterizer.cache.remoteStatistics?.rejected == 1)
    }

    @Test func answersAreBoundedBeforeTheyAreRead() throws {
        let remote = FakeRemote()
        let component = Counted(label: "long", draws: Counter())
        let key = try machine(remote).key(for: component, size: Size(8), scale: 1)
        // Far longer than any 8×8 render can be.
        remote.replace(RemoteObjectName(key: key).description, with: Data(count: 8 << 20))
        let rasterizer = try machine(remote)
        #expect(try rasterizer.render(RenderRequest(component, size: Size(8), scale: 1)).origin == .drawn)
        #expect(rasterizer.cache.remoteStatistics?.lookupFailures.keys.contains { $0.contains("over") } == true)
        #expect(ExpectedRender(pixelSize: (8, 8), scale: 1, capInsets: .some(nil), limits: .default).maximumObjectBytes < 2 << 20)
    }

    @Test func withASecretOnlySignedObjectsAreRead() throws {
        let remote = FakeRemote()
        var signed = RemoteCacheOptions()
        signed.signingKey = Data("shared secret".utf8)
        let component = Counted(label: "signed", draws: Counter())
        let first = try machine(remote, options: signed)
        _ = try first.image(for: component, size: Size(8))
        #expect(first.cache.flushUploads(timeout: 10))
        let key = first.key(for: component, size: Size(8), scale: 1)
        let name = RemoteObjectName(key: key).description
        let stored = try #require(remote.object(name))
        #expect(stored.starts(with: Array("RKS1".utf8)))
        // Another machine with the secret reads it; one with another secret does not.
        let second = try machine(remote, options: signed)
        #expect(try second.render(RenderRequest(component, size: Size(8), scale: 1)).origin == .remote)
        var otherSecret = RemoteCacheOptions()
        otherSecret.signingKey = Data("another secret".utf8)
        let third = try machine(remote, options: otherSecret)
        #expect(try third.render(RenderRequest(component, size: Size(8), scale: 1)).origin == .drawn)
        // An unsigned object (one anyone could write) is rejected by a machine with the secret.
        remote.replace(name, with: forgedObject(try png(width: 8, height: 8), for: key))
        let fourth = try machine(remote, options: signed)
        #expect(try fourth.render(RenderRequest(component, size: Size(8), scale: 1)).origin == .drawn)
        #expect(fourth.cache.remoteStatistics?.rejected == 1)
        // A signed object moved under another name fails its signature too.
        let seal = RemoteObjectSeal(key: signed.signingKey)
        let object = seal.seal(forgedObject(try png(width: 8, height: 8), for: key), name: RemoteObjectName(key: key))
        #expect(seal.open(object, name: RemoteObjectName(key: key)) != nil)
        #expect(seal.open(object, name: RemoteObjectName(digest: StableDigest(high: 1, low: 2))) == nil)
    }

    @Test func aForgedStoredEntryIsRemovedBeforeItIsDecoded() throws {
        let fixture = try DiskFixture()
        let component = Counted(label: "stored", draws: Counter())
        do {
            let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open(), respondsToMemoryPressure: false))
            _ = try rasterizer.image(for: component, size: Size(24), scale: 1)
            try rasterizer.cache.flush()
        }
        // Someone rewrites the entry with a larger image, its columns and checksum to match.
        let key = Rasterizer().key(for: component, size: Size(24), scale: 1)
        let forged = try png(width: 48, height: 48)
        let queue = try StoreFile(path: fixture.url.path)
        try queue.transaction { db in
            try db.execute("UPDATE entries SET png = ?, pixel_width = 48, pixel_height = 48, checksum = ? WHERE id = ?",
                           [.blob(forged), .integer(DiskCacheChecksum.of(digest: key.value, png: forged)),
                            .integer(key.value.storedID)])
        }
        queue.close()
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open(), respondsToMemoryPressure: false))
        let rendered = try rasterizer.render(RenderRequest(component, size: Size(24), scale: 1))
        #expect(rendered.origin == .drawn && rendered.image.pixelWidth == 24)
        #expect(try #require(rasterizer.cache.diskCache).statistics.decodeFailures == 1)
    }

    // MARK: Importing a store

    /// A store file with `statements` run on it after it is made, for `cache import`.
    private func craftedStore(_ fixture: DiskFixture, _ statements: String) throws -> URL {
        let url = fixture.directory.appendingPathComponent("crafted.sqlite")
        do {
            let store = try DiskCache(at: url)
            let rasterizer = Rasterizer(cache: RasterCache(disk: store, respondsToMemoryPressure: false))
            for index in 0..<3 { _ = try rasterizer.image(for: Counted(label: "entry\(index)", draws: Counter()), size: Size(8)) }
            try store.close()
        }
        let queue = try StoreFile(path: url.path)
        try queue.execute(statements)
        queue.close()
        return url
    }

    @Test func aStoreWhoseSchemaIsNotAStoresIsRefusedBeforeARowIsRead() throws {
        let crafted = [
            "ALTER TABLE entries ADD COLUMN huge BLOB GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL",
            "CREATE TRIGGER noisy AFTER INSERT ON entries BEGIN SELECT 1; END",
            "CREATE VIEW everything AS SELECT * FROM entries",
            "CREATE INDEX entries_by_png ON entries (png)",
            "CREATE TABLE extra (x)",
        ]
        for statements in crafted {
            let fixture = try DiskFixture("import-\(crafted.firstIndex(of: statements)!)")
            let source = try craftedStore(fixture, statements)
            let target = try DiskCache(at: fixture.directory.appendingPathComponent("target.sqlite"))
            #expect(throws: DiskCacheError.self, "\(statements)") { try target.importEntries(from: source) }
            #expect(try target.statistics.count == 0)
        }
        // And a store left as it was is imported.
        let fixture = try DiskFixture("import-plain")
        let source = try craftedStore(fixture, "SELECT 1")
        let target = try DiskCache(at: fixture.directory.appendingPathComponent("target.sqlite"))
        #expect(try target.importEntries(from: source).imported == 3)
    }

    @Test func importedEntriesWhoseHeaderIsNotTheirSizeAreLeftOut() throws {
        let fixture = try DiskFixture()
        let forged = try png(width: 48, height: 48)
        let source = try craftedStore(fixture, "SELECT 1")
        let queue = try StoreFile(path: source.path)
        try queue.transaction { db in
            let row = try #require(try db.rows("SELECT id, digest FROM entries LIMIT 1").first)
            let digest = try #require(row[1].data.flatMap(StableDigest.init(storedBytes:)))
            try db.execute("UPDATE entries SET png = ?, checksum = ? WHERE id = ?",
                           [.blob(forged), .integer(DiskCacheChecksum.of(digest: digest, png: forged)), row[0]])
        }
        queue.close()
        let target = try DiskCache(at: fixture.directory.appendingPathComponent("target.sqlite"))
        let report = try target.importEntries(from: source)
        #expect(report.imported == 2 && report.damaged == 1)
    }
}

/// SHA-256 and HMAC-SHA-256 against the standards' test vectors (FIPS 180-4 examples, RFC 4231).
@Suite struct HMACSHA256Tests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    private func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    @Test func sha256() {
        #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var million = SHA256()
        for _ in 0..<1_000 { million.update([UInt8](repeating: 0x61, count: 1_000)) }
        #expect(hex(million.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hmacRFC4231() {
        let cases: [(key: [UInt8], data: [UInt8], tag: String)] = [
            ([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            ([UInt8](repeating: 0xAA, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ]
        for (key, data, tag) in cases {
            #expect(hex(HMACSHA256(key: key).tag(data)) == tag)
            // In parts, the same.
            #expect(hex(HMACSHA256(key: key).tag(Array(data.prefix(3)), Array(data.dropFirst(3)))) == tag)
            #expect(HMACSHA256.matches(bytes(tag), HMACSHA256(key: key).tag(data)))
        }
        #expect(!HMACSHA256.matches([1, 2, 3], [1, 2, 4]) && !HMACSHA256.matches([1, 2], [1, 2, 3]))
    }
}
