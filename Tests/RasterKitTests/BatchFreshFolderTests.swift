import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// A batch into a folder with none of its outputs, with the render store of an earlier run (a CI
/// job on a fresh checkout with the store restored): files are copied from the bytes the store
/// kept, byte-identical to a cold run's, and a damaged or missing entry is drawn again (issue 16).
@Suite struct BatchFreshFolderTests {
    /// A plain, a resizable (nine-patch) and a nested component, at two scales.
    static let manifest = """
        components:
          chip:
            sizes: ["60x24"]
            scales: [1, 2]
            states:
              normal: {fill: "#2F6FEB"}
              pressed: {fill: "#1F54C4"}
            layers:
              - roundedRect: {radius: 6, fill: "$fill", shadow: {blur: 2}}
              - text: {text: Go, color: white, alignment: center, verticalAlignment: center}
          panel:
            sizes: ["80x40"]
            scales: [1, 2]
            caps: {top: 8, left: 8, bottom: 8, right: 8}
            states: {plain: {}}
            layers:
              - roundedRect: {radius: 8, fill: "#F1F5F9", stroke: {color: "#94A3B8", width: 1}}
          card:
            sizes: ["100x40"]
            scales: [1, 2]
            states: {plain: {}}
            layers:
              - rect: {fill: white}
              - use: {component: chip, state: normal, frame: [36, 8, 60, 24]}
        """

    /// One `rasterkit render`-like process: a new renderer and store connection, flushed at the end.
    static func run(_ plan: BatchPlan, into out: URL, store: URL?) throws -> (BatchSummary, RenderStatistics, DiskCacheStatistics?) {
        let renderer = BatchRenderer(jobs: 2) {
            Rasterizer(cache: RasterCache(disk: try store.map { try DiskCache(at: $0) }))
        }
        let summary = renderer.run(plan, into: out)
        try renderer.rasterizer?.cache.flush()
        let disk = try renderer.rasterizer?.cache.diskCache?.statistics
        return (summary, renderer.rasterizer?.statistics ?? RenderStatistics(), disk)
    }

    /// Every file under `folder` but the batch's index, by relative path.
    static func contents(of folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in ManifestFixture.files(in: folder) where !path.hasPrefix(".rasterkit") {
            result[path] = try Data(contentsOf: folder.appendingPathComponent(path))
        }
        return result
    }

    /// Vector documents are drawn from the component, not from a stored render, and are not kept
    /// in the store (see ``vectorDocumentsInANewFolderAreDrawnAgainIdentically()``).
    @Test(arguments: ExportFormat.allCases.filter { ![.pdf, .svg].contains($0) })
    func warmRunsIntoANewFolderCopyTheStoredBytes(format: ExportFormat) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(Self.manifest).plan(format: format)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        let cold = fixture.folder.appendingPathComponent("cold"), fresh = fixture.folder.appendingPathComponent("fresh")

        let (first, _, _) = try Self.run(plan, into: cold, store: store)
        // Not every output is "drawn": the card draws the normal chip inside it, and when the card
        // runs first the chip's own output is that render, served from memory.
        #expect(first.failed == 0 && first.total > 0 && first.drawn > 0 && first.written == first.total)
        let coldFiles = try Self.contents(of: cold)
        // Without any store: the same bytes, so the store changes nothing a file holds.
        let (_, _, _) = try Self.run(plan, into: fixture.folder.appendingPathComponent("nostore"), store: nil)
        #expect(try Self.contents(of: fixture.folder.appendingPathComponent("nostore")) == coldFiles)

        let (warm, statistics, disk) = try Self.run(plan, into: fresh, store: store)
        #expect(warm.drawn == 0 && warm.cached == first.total && warm.failed == 0)
        // Copied: the rasterizer never looked anything up (no decode), the store answered each output.
        #expect(statistics.diskHits == 0 && statistics.memoryHits == 0 && statistics.draws == 0)
        #expect(disk?.hits == first.total)
        #expect(try Self.contents(of: fresh) == coldFiles)

        // Into the same folder again: up to date, untouched, identical.
        let (same, _, _) = try Self.run(plan, into: cold, store: store)
        #expect(same.drawn == 0)
        #expect(try Self.contents(of: cold) == coldFiles)
    }

    @Test(arguments: [ExportFormat.pdf, .svg])
    func vectorDocumentsInANewFolderAreDrawnAgainIdentically(format: ExportFormat) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(Self.manifest).plan(format: format)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        let cold = fixture.folder.appendingPathComponent("cold"), fresh = fixture.folder.appendingPathComponent("fresh")
        let (first, _, _) = try Self.run(plan, into: cold, store: store)
        #expect(first.failed == 0 && first.total > 0)
        let (warm, _, _) = try Self.run(plan, into: fresh, store: store)
        #expect(warm.failed == 0 && warm.drawn == first.total)
        #expect(try Self.contents(of: fresh) == Self.contents(of: cold))
        let (same, _, _) = try Self.run(plan, into: cold, store: store)
        #expect(same.drawn == 0, "an unchanged folder is left alone")
    }

    @Test func aDamagedEntryIsDrawnAgainNotCopied() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(Self.manifest).plan(format: .png)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        let (first, _, _) = try Self.run(plan, into: fixture.folder.appendingPathComponent("cold"), store: store)
        let coldFiles = try Self.contents(of: fixture.folder.appendingPathComponent("cold"))

        // One flipped byte in the middle of one stored PNG, and one entry gone.
        let queue = try StoreFile(path: store.path)
        try queue.transaction { db in
            let ids = try db.values("SELECT id FROM entries WHERE png_encoding IS NOT NULL ORDER BY id LIMIT 2")
            try #require(ids.count == 2)
            var png = try #require(try db.value("SELECT png FROM entries WHERE id = ?", [ids[0]])?.data)
            png[png.count / 2] ^= 0x40
            try db.execute("UPDATE entries SET png = ? WHERE id = ?", [.blob(png), ids[0]])
            try db.execute("DELETE FROM entries WHERE id = ?", [ids[1]])
        }
        queue.close()

        let fresh = fixture.folder.appendingPathComponent("fresh")
        let (warm, _, disk) = try Self.run(plan, into: fresh, store: store)
        #expect(warm.failed == 0 && warm.total == first.total)
        #expect(warm.drawn == 2, "the damaged and the missing render are drawn again")
        #expect((disk?.integrityFailures ?? 0) >= 1)
        #expect(try Self.contents(of: fresh) == coldFiles)
        // Drawn again and kept again: the next fresh folder copies everything.
        let (again, _, _) = try Self.run(plan, into: fixture.folder.appendingPathComponent("again"), store: store)
        #expect(again.drawn == 0)
    }

    @Test func aDamagedNinePatchIsMadeAgainFromItsRender() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(Self.manifest).plan(format: .ninepatch)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        _ = try Self.run(plan, into: fixture.folder.appendingPathComponent("cold"), store: store)
        let coldFiles = try Self.contents(of: fixture.folder.appendingPathComponent("cold"))
        #expect(coldFiles.keys.contains { $0.hasSuffix(".9.png") })

        let queue = try StoreFile(path: store.path)
        let kept = try queue.transaction { try $0.value("SELECT count(*) FROM encoded_outputs") }
        #expect(kept == 2, "one nine-patch per scale of the resizable panel")
        try queue.transaction { db in
            try db.execute("UPDATE encoded_outputs SET bytes = substr(bytes, 1, length(bytes) - 9)")
        }
        queue.close()

        let fresh = fixture.folder.appendingPathComponent("fresh")
        let (warm, _, disk) = try Self.run(plan, into: fresh, store: store)
        // The render itself is intact: decoded, not drawn, and the nine-patch made from it.
        #expect(warm.drawn == 0 && warm.failed == 0)
        #expect(disk?.integrityFailures == 2)
        #expect(try Self.contents(of: fresh) == coldFiles)
    }

    @Test func keptBytesGoWithTheirEntry() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(Self.manifest).plan(format: .ninepatch)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        _ = try Self.run(plan, into: fixture.folder.appendingPathComponent("cold"), store: store)

        let queue = try StoreFile(path: store.path)
        defer { queue.close() }
        try queue.transaction { db in
            // Replaced (as the store replaces a render of the same key), then deleted.
            let id = try #require(try db.value("SELECT entry_id FROM encoded_outputs LIMIT 1"))
            try db.execute("""
                INSERT OR REPLACE INTO entries SELECT * FROM entries WHERE id = ?
                """, [id])
            #expect(try db.value("SELECT count(*) FROM encoded_outputs WHERE entry_id = ?", [id]) == 0)
            try db.execute("DELETE FROM entries")
            #expect(try db.value("SELECT count(*) FROM encoded_outputs") == 0)
        }
    }

    @Test func svgBatchesCopyTooAndStayIdentical() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/a.svg", color: "red")
        try fixture.writeSVG("icons/nested/b.svg", color: "blue")
        let batch = SVGBatch(inputs: [fixture.folder.appendingPathComponent("icons")], sizes: [16, 24], scales: [1, 2])
        let outputs = try batch.outputs()
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        func run(into name: String) throws -> (BatchSummary, RenderStatistics) {
            let renderer = BatchRenderer(jobs: 2) { Rasterizer(cache: RasterCache(disk: try DiskCache(at: store))) }
            let summary = renderer.run(outputs, into: fixture.folder.appendingPathComponent(name))
            try renderer.rasterizer?.cache.flush()
            return (summary, renderer.rasterizer?.statistics ?? RenderStatistics())
        }
        let (cold, _) = try run(into: "cold")
        #expect(cold.drawn == 8 && cold.failed == 0)
        let (warm, statistics) = try run(into: "fresh")
        #expect(warm.drawn == 0 && warm.cached == 8 && statistics.diskHits == 0)
        #expect(try Self.contents(of: fixture.folder.appendingPathComponent("fresh"))
            == (try Self.contents(of: fixture.folder.appendingPathComponent("cold"))))
    }

    @Test func anEntryTheStoreEncodedItselfIsReplacedByTheFilesBytes() throws {
        // Rendered outside a batch first: the store encodes the PNG its own (faster) way.
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        let component = BatchTestBadge(label: "seven")
        do {
            let rasterizer = Rasterizer(cache: RasterCache(disk: try DiskCache(at: store)))
            _ = try rasterizer.image(for: component, size: Size(width: 40, height: 20), scale: 2)
            try rasterizer.cache.flush()
        }
        let outputs = [BatchOutput(path: "seven@2x.png", source: "seven", size: Size(width: 40, height: 20), scale: 2) {
            component
        }]
        func run(into name: String) throws -> (BatchSummary, RenderStatistics) {
            let renderer = BatchRenderer(jobs: 1) { Rasterizer(cache: RasterCache(disk: try DiskCache(at: store))) }
            let summary = renderer.run(outputs, into: fixture.folder.appendingPathComponent(name))
            try renderer.rasterizer?.cache.flush()
            return (summary, renderer.rasterizer?.statistics ?? RenderStatistics())
        }
        let (first, firstStatistics) = try run(into: "first")
        #expect(first.drawn == 0 && firstStatistics.diskHits == 1, "decoded once and encoded as files are")
        let (second, secondStatistics) = try run(into: "second")
        #expect(second.drawn == 0 && secondStatistics.diskHits == 0, "then copied")
        let expected = try component.renderedPNG(size: Size(width: 40, height: 20), scale: 2)
        #expect(try Data(contentsOf: fixture.folder.appendingPathComponent("second/seven@2x.png")) == expected)
        #expect(try Data(contentsOf: fixture.folder.appendingPathComponent("first/seven@2x.png")) == expected)
    }

    static func inode(of url: URL) throws -> UInt64 {
        var info = stat()
        try #require(stat(url.path, &info) == 0)
        return UInt64(info.st_ino)
    }

    @Test func identicalFilesAreLeftUntouchedAndChangedOnesReplaced() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let out = fixture.folder.appendingPathComponent("out")
        let outputs = ["one", "two"].map { label in
            BatchOutput(path: "\(label).png", source: label, size: Size(width: 40, height: 20), scale: 1) { BatchTestBadge(label: label) }
        }
        let renderer = BatchRenderer(rasterizer: Rasterizer(), jobs: 1, reusesUpToDateOutputs: false)
        #expect(renderer.run(outputs, into: out).failed == 0)
        let oneInode = try Self.inode(of: out.appendingPathComponent("one.png"))
        // Another file's bytes where `two.png` goes: replaced; `one.png` already right: kept.
        try Data("not a png".utf8).write(to: out.appendingPathComponent("two.png"))
        let twoInode = try Self.inode(of: out.appendingPathComponent("two.png"))
        let second = BatchRenderer(rasterizer: Rasterizer(), jobs: 1, reusesUpToDateOutputs: false).run(outputs, into: out)
        #expect(second.failed == 0 && second.drawn == 2)
        #expect(try Self.inode(of: out.appendingPathComponent("one.png")) == oneInode)
        #expect(try Self.inode(of: out.appendingPathComponent("two.png")) != twoInode)
        #expect(try Data(contentsOf: out.appendingPathComponent("two.png"))
            == (try BatchTestBadge(label: "two").renderedPNG(size: Size(width: 40, height: 20), scale: 1)))
    }
}

/// A component written the way a user writes one, for batches built in Swift.
struct BatchTestBadge: Rasterizable {
    var label: String
    static let stateKeyPaths: [PartialKeyPath<BatchTestBadge> & Sendable] = [\.label]

    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: 4), with: .color(Color(red: 0.2, green: 0.4, blue: 0.9)))
        canvas.draw(text: label, in: Rect(size: size), style: TextStyle(font: "DejaVu Sans 10", color: .white, alignment: .center))
    }

    /// What a batch writes for it: RasterKit's PNG of a fresh render.
    func renderedPNG(size: Size, scale: Double) throws -> Data {
        try Rasterizer().image(for: self, size: size, scale: scale).pngData()
    }
}
