import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Optical insets (issue 20): red layout-bound ticks in `.9.png` files, read back by Debian's
/// `aapt` (a real Android packager) into its `npLb` chunk, and `alignment-insets` in an asset
/// catalog.
@Suite struct OpticalInsetsTests {
    static func manifest(optical: String = "[2, 3, 6, 3]") -> String {
        """
        components:
          card:
            sizes: [{width: 120, height: 80, caps: [16, 16, 16, 16]}]
            scales: [1, 2]
            opticalInsets: \(optical)
            layers:
              - roundedRect: {inset: [2, 3, 6, 3], radius: 10, fill: white, stroke: "#D0D5DD",
                              shadow: {color: "#00000040", offset: [0, 2], blur: 4}}
        """
    }

    /// The chunks of a PNG file by type.
    static func chunks(_ data: Data) -> [String: Data] {
        var chunks: [String: Data] = [:]
        var offset = 8
        let bytes = [UInt8](data)
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { break }
            chunks[type] = Data(bytes[offset + 8..<offset + 8 + length])
            offset += 12 + length
        }
        return chunks
    }

    /// Runs `aapt singleCrunch` on `file` and returns the crunched PNG.
    static func crunch(_ file: URL, in folder: URL) throws -> Data {
        let output = folder.appendingPathComponent(UUID().uuidString + ".png")
        try ExternalTool.run("aapt", ["singleCrunch", "-i", file.path, "-o", output.path])
        return try Data(contentsOf: output)
    }

    @Test func ticksAreRedAtTheEndsOfTheBottomAndRightLines() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let out = fixture.folder.appendingPathComponent("out")
        let plan = try fixture.load(Self.manifest()).plan(format: .ninepatch)
        #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(plan, into: out).failed == 0)
        let file = try RasterImage(pngData: Data(contentsOf: out.appendingPathComponent("drawable-xhdpi/card_default.9.png")))
        let width = file.pixelWidth, height = file.pixelHeight   // 240 + 2 by 160 + 2
        let red = RGBA8(red: 255, green: 0, blue: 0, alpha: 255), black = RGBA8(red: 0, green: 0, blue: 0, alpha: 255)
        let bottom = (0..<width).map { file.pixel(x: $0, y: height - 1) }
        let right = (0..<height).map { file.pixel(x: width - 1, y: $0) }
        // 2x: left and right 6 pixels, top 4, bottom 12; the content area (inside the 32-pixel caps) is black.
        #expect(bottom[1...6].allSatisfy { $0 == red } && bottom[7] != red)
        #expect(bottom[(width - 7)...(width - 2)].allSatisfy { $0 == red } && bottom[width - 8] != red)
        #expect(right[1...4].allSatisfy { $0 == red } && right[5] != red)
        #expect(right[(height - 13)...(height - 2)].allSatisfy { $0 == red } && right[height - 14] != red)
        #expect(bottom[33...(width - 34)].allSatisfy { $0 == black })
        #expect(right[33...(height - 34)].allSatisfy { $0 == black })
        #expect(bottom[0].alpha == 0 && bottom[width - 1].alpha == 0, "the corners stay empty")
    }

    @Test func aaptReadsTheLayoutBoundsAndAcceptsEveryNinePatch() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let out = fixture.folder.appendingPathComponent("out")
        let plan = try fixture.load(Self.manifest()).plan(format: .ninepatch)
        #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(plan, into: out).failed == 0)
        for (density, scale) in [("mdpi", 1), ("xhdpi", 2)] {
            let crunched = Self.chunks(try Self.crunch(out.appendingPathComponent("drawable-\(density)/card_default.9.png"),
                                                       in: fixture.folder))
            #expect(crunched["npTc"] != nil, "aapt compiled the nine-patch")
            // npLb: left, top, right, bottom as aapt writes them (little-endian 32-bit).
            let bounds = try #require(crunched["npLb"], "layout bounds read")
            let values = stride(from: 0, to: 16, by: 4).map { offset in
                bounds[bounds.startIndex + offset..<bounds.startIndex + offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            }
            #expect(values == [3, 2, 3, 6].map { $0 * scale })
        }
        // The showcase's nine-patches, which have no optical insets: accepted, without npLb.
        let showcase = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/showcase.yaml")
        let showcaseOut = fixture.folder.appendingPathComponent("showcase")
        let showcasePlan = try Manifest(contentsOf: showcase).plan(format: .ninepatch)
        #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(showcasePlan, into: showcaseOut).failed == 0)
        let ninePatches = showcasePlan.outputs.map(\.path).filter { $0.hasSuffix(".9.png") }
        #expect(ninePatches.count >= 12, "panel's states, light and night, at every density")
        for path in ninePatches {
            let crunched = Self.chunks(try Self.crunch(showcaseOut.appendingPathComponent(path), in: fixture.folder))
            #expect(crunched["npTc"] != nil && crunched["npLb"] == nil, "\(path)")
        }
    }

    @Test func theCatalogGetsAlignmentInsetsInEachImagesPixels() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let out = fixture.folder.appendingPathComponent("out")
        #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 1)
            .run(try fixture.load(Self.manifest()).plan(format: .xcassets), into: out).failed == 0)
        let contents = try Data(contentsOf: out.appendingPathComponent("manifest.xcassets/card-default.imageset/Contents.json"))
        let images = try #require((try JSONSerialization.jsonObject(with: contents) as? [String: Any])?["images"] as? [[String: Any]])
        let insets = images.map { $0["alignment-insets"] as? [String: Int] }
        #expect(insets == [["top": 2, "left": 3, "bottom": 6, "right": 3], ["top": 4, "left": 6, "bottom": 12, "right": 6]])
    }

    @Test func theEncoderIdentifierNamesTheInsets() {
        let plain = NinePatchBatchEncoder(), optical = NinePatchBatchEncoder(opticalInsets: EdgeInsets(all: 2))
        #expect(plain.identifier != optical.identifier)
        #expect(!plain.identifier.contains("optical"))
    }

    @Test(arguments: [
        ("[20, 3, 6, 3]", "reach into the content area"),
        ("[-1, 0, 0, 0]", "opticalInsets"),
        ("[50, 0, 40, 0]", "leave nothing"),
        ("wide", "opticalInsets"),
    ])
    func badOpticalInsetsArePositioned(optical: String, message: String) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let error = #expect(throws: ManifestError.self) { try fixture.load(Self.manifest(optical: optical)) }
        let problem = try #require(error?.problems.first)
        #expect(problem.line == 5, "\(problem)")
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test func opticalInsetsOverlappingTheContentFailTheOutputNotTheProcess() throws {
        let image = try RasterImage(size: Size(width: 40, height: 40), scale: 1) { $0.fillAll(with: .color(.white)) }
            .withCapInsets(EdgeInsets(all: 8))
        #expect(throws: RenderError.self) { try image.ninePatchPNGData(opticalInsets: EdgeInsets(all: 10)) }
        #expect((try? image.ninePatchPNGData(opticalInsets: EdgeInsets(all: 8))) != nil)
    }
}
