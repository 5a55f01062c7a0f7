import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Batches redraw only what changed, share nested children, and run from Swift as from the CLI.
@Suite struct BatchIncrementalTests {
    static func manifest(pressed: String = "#1F54C4", icon: String = "icons/star.svg") -> String {
        """
        components:
          button:
            sizes: ["60x24"]
            scales: [1, 2]
            states:
              normal: {fill: "#2F6FEB"}
              pressed: {fill: "\(pressed)"}
              disabled: {fill: "#E2E8F0"}
            layers:
              - roundedRect: {radius: 6, fill: "$fill", shadow: {blur: 2}}
              - text: {text: Go, color: white, alignment: center, verticalAlignment: center}
          card:
            sizes: ["100x40"]
            scales: [1, 2]
            states: {plain: {}}
            layers:
              - rect: {fill: white}
              - svg: {file: \(icon), frame: [4, 4, 24, 24]}
              - use: {component: button, state: normal, frame: [36, 8, 60, 24]}
        """
    }

    /// A fresh renderer with a disk cache, as each `rasterkit render` process makes.
    private func render(_ manifest: Manifest, into out: URL, cache: URL) throws -> BatchSummary {
        let renderer = BatchRenderer(jobs: 2) { Rasterizer(cache: RasterCache(disk: try DiskCache(at: cache))) }
        let summary = renderer.run(try manifest.plan(), into: out)
        try renderer.rasterizer?.cache.flush()
        return summary
    }

    @Test func anUnchangedManifestDrawsNothingTheSecondTime() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/star.svg")
        let cache = fixture.folder.appendingPathComponent("renders.sqlite")
        let out = fixture.folder.appendingPathComponent("out")
        let first = try render(try fixture.load(Self.manifest()), into: out, cache: cache)
        #expect(first.total == 8 && first.drawn == 8 && first.failed == 0)
        let second = try render(try fixture.load(Self.manifest()), into: out, cache: cache)
        #expect(second.drawn == 0 && second.cached == 8)
        // Into another folder the renders come from the disk cache: still nothing drawn.
        let elsewhere = try render(try fixture.load(Self.manifest()), into: fixture.folder.appendingPathComponent("other"),
                                   cache: cache)
        #expect(elsewhere.drawn == 0 && elsewhere.cached == 8)
        #expect(ManifestFixture.files(in: out) == ManifestFixture.files(in: fixture.folder.appendingPathComponent("other")))
    }

    @Test func changingOneStateRedrawsOnlyThatState() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/star.svg")
        let cache = fixture.folder.appendingPathComponent("renders.sqlite")
        let out = fixture.folder.appendingPathComponent("out")
        _ = try render(try fixture.load(Self.manifest()), into: out, cache: cache)
        let before = try Data(contentsOf: out.appendingPathComponent("button-pressed@2x.png"))
        let stamps = try modificationDates(in: out)

        let changed = try render(try fixture.load(Self.manifest(pressed: "#D93B3B")), into: out, cache: cache)
        #expect(changed.drawn == 2 && changed.cached == 6, "button-pressed at 1x and 2x")
        #expect(try Data(contentsOf: out.appendingPathComponent("button-pressed@2x.png")) != before)
        let after = try modificationDates(in: out)
        let rewritten = after.keys.filter { after[$0] != stamps[$0] }.sorted()
        #expect(rewritten == ["button-pressed.png", "button-pressed@2x.png"])
    }

    /// Editing an SVG redraws exactly the states that draw it.
    @Test func changingAnAssetRedrawsItsUsers() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/star.svg", color: "red")
        let cache = fixture.folder.appendingPathComponent("renders.sqlite")
        let out = fixture.folder.appendingPathComponent("out")
        _ = try render(try fixture.load(Self.manifest()), into: out, cache: cache)
        try fixture.writeSVG("icons/star.svg", color: "blue")
        let changed = try render(try fixture.load(Self.manifest()), into: out, cache: cache)
        #expect(changed.drawn == 2 && changed.cached == 6, "card-plain at 1x and 2x")
        let card = try RasterImage(pngData: Data(contentsOf: out.appendingPathComponent("card-plain.png")))
        #expect(card.pixel(x: 16, y: 16) == RGBA8(red: 0, green: 0, blue: 255, alpha: 255))
    }

    private func modificationDates(in folder: URL) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for file in ManifestFixture.files(in: folder) {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)
            dates[file] = attributes[.modificationDate] as? Date
        }
        return dates
    }

    /// Many outputs that nest the same child, rendered in parallel: the child is drawn once per
    /// scale, however many workers ask for it at once.
    @Test func sharedChildrenAreDrawnOncePerScale() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let states = (0..<24).map { "s\($0): {label: \"\($0)\"}" }.joined(separator: ", ")
        let manifest = try fixture.load("""
            components:
              shared:
                layers:
                  - ellipse: {fill: {radial: {colors: [white, "#2F6FEB"]}}, shadow: {blur: 6}}
              tile:
                sizes: ["64x64"]
                scales: [1, 2]
                states: {\(states)}
                layers:
                  - use: {component: shared, frame: [8, 8, 32, 32]}
                  - text: {text: "$label", frame: [0, 44, 64, 20], alignment: center}
            """)
        let rasterizer = Rasterizer()
        let summary = BatchRenderer(rasterizer: rasterizer, jobs: 4).run(try manifest.plan(),
                                                                          into: fixture.folder.appendingPathComponent("out"))
        #expect(summary.total == 48 && summary.failed == 0 && summary.drawn == 48)
        let statistics = rasterizer.statistics
        #expect(statistics.draws == 48 + 2, "48 tiles, and the shared child once at 1x and once at 2x")
        #expect(statistics.memoryHits + statistics.coalesced == 46, "every other request for the child was served")
    }

    // MARK: The library API

    /// A component made in Swift, batched with the CLI's names, formats and summary.
    struct Pill: Rasterizable {
        var tint: Color
        var capInsets: EdgeInsets? { EdgeInsets(all: 6) }
        func draw(in canvas: Canvas, size: Size) throws {
            canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: 6), with: .color(tint))
        }
    }

    @Test func batchingSwiftComponents() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = [("blue", Color.blue), ("red", Color.red)].map { name, tint in
            BatchItem(name: "pill", state: name, component: Pill(tint: tint), sizes: [Size(width: 80, height: 24)],
                      scales: [1, 2, 3])
        }
        let renderer = BatchRenderer(rasterizer: Rasterizer(), jobs: 2)
        let png = try renderer.run(items, format: .png, into: folder)
        #expect(png.total == 6 && png.drawn == 6 && png.failed == 0)
        let catalog = try renderer.run(items, format: .xcassets, catalogName: "Pills", into: folder)
        #expect(catalog.total == 6 && catalog.drawn == 0 && catalog.cached == 6, "the same renders, from memory")
        let android = try renderer.run(items, format: .ninepatch, shard: Shard(index: 0, count: 1), into: folder)
        #expect(android.total == 6)
        #expect(ManifestFixture.files(in: folder).filter { $0.hasPrefix("pill-") } == [
            "pill-blue.png", "pill-blue@2x.png", "pill-blue@3x.png", "pill-red.png", "pill-red@2x.png", "pill-red@3x.png",
        ])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Pills.xcassets/pill-red.imageset/Contents.json").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("drawable-xxhdpi/pill_red.9.png").path))
        // Caps make the PNG the minimum frame, with its caps kept in the file.
        let small = try RasterImage(pngData: Data(contentsOf: folder.appendingPathComponent("pill-red@2x.png")))
        #expect(small.pixelWidth == 26 && small.capInsets == EdgeInsets(all: 6))
        let retina = BatchItem(name: "x", component: Pill(tint: .red), sizes: [Size(20)], scales: [4])
        #expect(throws: BatchPlanError.unsupportedScale(format: .xcassets, scale: 4, item: "x/default")) {
            try renderer.run([retina], format: .xcassets, into: folder)
        }
    }

    /// A catalog file that cannot be written is a failure in the summary; the images still go out.
    @Test func unwritableFilesAreFailures() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder where the catalog's root Contents.json should go.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Kit.xcassets/Contents.json"),
                                                withIntermediateDirectories: true)
        let item = BatchItem(name: "pill", component: Pill(tint: .red), sizes: [Size(20)], scales: [1])
        let summary = try BatchRenderer(rasterizer: Rasterizer()).run([item], format: .xcassets, catalogName: "Kit",
                                                                      into: folder)
        #expect(summary.total == 2 && summary.drawn == 1 && summary.failed == 1)
        #expect(summary.failures.first?.output == "Kit.xcassets/Contents.json")
    }
}
