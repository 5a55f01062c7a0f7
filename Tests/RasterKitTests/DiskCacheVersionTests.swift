import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Three levels of nesting: a frame draws a box, which draws a leaf.
struct VersionedLeaf: Rasterizable {
    var number: Int
    static var renderVersion: Int { 2 }
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(ellipseIn: Rect(size: size)), with: .color(.red))
    }
}

struct VersionedBox: Rasterizable {
    var number: Int
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(rect: Rect(size: size)), with: .color(.white))
        try canvas.draw(VersionedLeaf(number: number), in: Rect(x: 2, y: 2, width: 4, height: 4))
    }
}

struct VersionedFrame: Rasterizable {
    var number: Int
    func draw(in canvas: Canvas, size: Size) throws {
        try canvas.draw(VersionedBox(number: number), in: Rect(x: 0, y: 0, width: 8, height: 8))
    }
}

/// Render versions: the entry's own and those of the components drawn inside it.
@Suite struct DiskCacheVersionTests {
    static let leafName = String(reflecting: VersionedLeaf.self)
    static let boxName = String(reflecting: VersionedBox.self)

    @Test func storingAVersionRemovesEntriesOfOtherVersionsOfItsType() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let key = rasterizer.key(for: VersionedLeaf(number: 1), size: Size(4))
        // An entry of the same type drawn by an older build, at render version 1.
        let old = DiskCacheStore.EncodedEntry(
            digest: StableDigest(high: 1, low: 1), typeName: key.typeName, renderVersion: 1, keyDescription: "old",
            pixelWidth: 4, pixelHeight: 4, scale: 1, capInsets: nil, png: try TestSupport.solidImage(.red).pngData(), pngEncoding: nil,
            checksum: 0,
            created: fixture.clock.now, expires: fixture.clock.now + 100, childrenJSON: nil)
        _ = try disk.store.commit([old], touches: [:], deletions: [], byteLimit: .max, now: fixture.clock.now)
        #expect(try disk.entries(typeName: key.typeName).map(\.renderVersion) == [1])

        _ = try rasterizer.image(for: VersionedLeaf(number: 1), size: Size(4))
        try disk.flush()
        #expect(try disk.entries(typeName: key.typeName).map(\.renderVersion) == [2])
    }

    @Test func nestedComponentsAreRecordedWithTheirVersions() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        _ = try Rasterizer(cache: RasterCache(disk: disk)).image(for: VersionedBox(number: 1), size: Size(8), scale: 2)
        try disk.flush()
        let box = try #require(try disk.entries(typeName: Self.boxName).first)
        #expect(box.children == [ComponentVersion(typeName: Self.leafName, renderVersion: 2)])
        #expect(try disk.entries(typeName: Self.leafName).first?.children == [])
    }

    @Test func aChildServedFromDiskPassesItsChildrenToItsParent() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        do {
            let disk = try fixture.open()
            _ = try Rasterizer(cache: RasterCache(disk: disk)).image(for: VersionedBox(number: 3), size: Size(8))
        }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        _ = try rasterizer.image(for: VersionedFrame(number: 3), size: Size(8))
        #expect(rasterizer.statistics.diskHits == 1 && rasterizer.statistics.draws == 1)
        try disk.flush()
        let frame = try #require(try disk.entries(typeName: String(reflecting: VersionedFrame.self)).first)
        #expect(Set(frame.children) == [ComponentVersion(typeName: Self.leafName, renderVersion: 2),
                                         ComponentVersion(typeName: Self.boxName, renderVersion: 0)])
    }

    @Test func aChildServedFromMemoryPassesItsChildrenToItsParent() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        _ = try rasterizer.image(for: VersionedBox(number: 4), size: Size(8))    // the box is now in memory
        _ = try rasterizer.image(for: VersionedFrame(number: 4), size: Size(8))
        #expect(rasterizer.statistics.memoryHits == 1)
        try disk.flush()
        let frame = try #require(try disk.entries(typeName: String(reflecting: VersionedFrame.self)).first)
        #expect(Set(frame.children) == [ComponentVersion(typeName: Self.leafName, renderVersion: 2),
                                         ComponentVersion(typeName: Self.boxName, renderVersion: 0)])
    }

    @Test func anEntryDrawnWithAnotherVersionOfAKnownChildIsAMissAndIsReplaced() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let box = VersionedBox(number: 7)
        let key = rasterizer.key(for: box, size: Size(8))
        _ = rasterizer.key(for: VersionedLeaf(number: 0), size: Size(4))   // makes the leaf type known
        // Stored by a build whose leaf was at render version 1 (this build's is 2).
        disk.store(StoredRender(image: try TestSupport.solidImage(.red, width: 8, height: 8),
                                children: [ComponentVersion(typeName: Self.leafName, renderVersion: 1)]), for: key, lifetime: nil)
        try disk.flush()
        #expect(disk.image(for: key) == nil)
        try disk.flush()
        #expect(!disk.contains(key), "the outdated entry was deleted")
        // The rasterizer draws it again, and stores the new render.
        #expect(try rasterizer.render(RenderRequest(box, size: Size(8))).origin == .drawn)
        try disk.flush()
        #expect(try disk.entries(typeName: Self.boxName).first?.children == [ComponentVersion(typeName: Self.leafName, renderVersion: 2)])

        // A child type this process has never seen cannot be checked: the entry is served.
        let other = rasterizer.key(for: VersionedBox(number: 8), size: Size(8))
        disk.store(StoredRender(image: try TestSupport.solidImage(.red, width: 8, height: 8),
                                children: [ComponentVersion(typeName: "Elsewhere.Unknown", renderVersion: 9)]), for: other, lifetime: nil)
        try disk.flush()
        #expect(disk.image(for: other) != nil)
    }

    @Test func registeredTypesAreKnownBeforeTheirFirstKey() {
        struct NeverKeyed: Rasterizable {
            static var renderVersion: Int { 4 }
            func draw(in canvas: Canvas, size: Size) throws {}
        }
        // A local type: known by the address-free name keys and nested canvases both use.
        let name = TypeIdentity.stableName(of: NeverKeyed.self)
        #expect(ComponentVersions.renderVersion(of: name) == nil)
        ComponentVersions.register(NeverKeyed.self)
        #expect(ComponentVersions.renderVersion(of: name) == 4)
    }
}
