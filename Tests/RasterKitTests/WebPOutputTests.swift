import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// `webp` outputs through libwebp (issue 20): lossless decodes to exactly the PNG's pixels, the
/// same render gives the same bytes, lossy honours its quality, bad qualities are refused.
@Suite struct WebPOutputTests {
    @Test func losslessWebPHoldsExactlyThePNGsPixels() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(BatchFreshFolderTests.manifest)
        let png = fixture.folder.appendingPathComponent("png"), webp = fixture.folder.appendingPathComponent("webp")
        let renderer = BatchRenderer(rasterizer: Rasterizer(), jobs: 2)
        #expect(renderer.run(try manifest.plan(format: .png), into: png).failed == 0)
        let summary = renderer.run(try manifest.plan(format: .webp), into: webp)
        #expect(summary.failed == 0 && summary.total == 8)
        for name in ManifestFixture.files(in: png) {
            let webpName = String(name.dropLast(4)) + ".webp"
            let decoded = try WebPBatchEncoder.decode(try Data(contentsOf: webp.appendingPathComponent(webpName)))
            let expected = try RGBABitmap(pngData: try Data(contentsOf: png.appendingPathComponent(name)))
            #expect(decoded.width == expected.width && decoded.height == expected.height, "\(name)")
            // Straight RGBA, compared where visible: libwebp may keep any colour under alpha 0.
            let same = Self.visiblePixelsMatch(decoded, expected)
            #expect(same, "\(name): lossless WebP differs from the PNG")
        }
    }

    /// Straight RGBA compared where visible: libwebp may keep any colour under alpha 0.
    static func visiblePixelsMatch(_ first: RGBABitmap, _ second: RGBABitmap) -> Bool {
        let a: [UInt8] = first.withUnsafeBytes { Array($0) }
        let b: [UInt8] = second.withUnsafeBytes { Array($0) }
        guard a.count == b.count else { return false }
        for i in stride(from: 0, to: a.count, by: 4) {
            guard a[i + 3] == b[i + 3] else { return false }
            if b[i + 3] != 0, a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] { return false }
        }
        return true
    }

    @Test func theSameRenderGivesTheSameBytesAndQualityChangesThem() throws {
        let image = try Rasterizer().image(for: TransferTile(number: 7), size: Size(width: 40, height: 24), scale: 2)
        let lossless = WebPBatchEncoder()
        #expect(try lossless.encode(image) == (try lossless.encode(image)))
        let low = try WebPBatchEncoder(quality: 10).encode(image), high = try WebPBatchEncoder(quality: 95).encode(image)
        #expect(low != high)
        #expect(try WebPBatchEncoder.decode(low).width == image.pixelWidth)
        #expect(WebPBatchEncoder(quality: 10).identifier != WebPBatchEncoder(quality: 95).identifier)
        #expect(lossless.identifier.hasSuffix("lossless"))
    }

    @Test(arguments: [0, 101, -5, Int.max])
    func badQualitiesAreRefused(quality: Int) throws {
        #expect(throws: WebPError.badQuality(quality)) { try WebPBatchEncoder.validate(quality: quality) }
        let image = try Rasterizer().image(for: TransferTile(number: 1), size: Size(8))
        #expect(throws: WebPError.badQuality(quality)) { try WebPBatchEncoder(quality: quality).encode(image) }
    }

    @Test func garbageIsNotWebP() {
        #expect(throws: WebPError.notWebP) { try WebPBatchEncoder.decode(Data("RIFF....WEBPVP8 nope".utf8)) }
        #expect(throws: WebPError.notWebP) { try WebPBatchEncoder.decode(Data()) }
    }

    @Test func aManifestCanAskForWebPAndTheStoreKeepsIt() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let text = BatchFreshFolderTests.manifest.replacingOccurrences(of: "    sizes: [\"60x24\"]", with: "    sizes: [\"60x24\"]\n    outputs: [webp]")
        let plan = try fixture.load(text).plan()
        #expect(plan.outputs.filter { $0.path.hasSuffix(".webp") }.count == 4)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        let (cold, _, _) = try BatchFreshFolderTests.run(plan, into: fixture.folder.appendingPathComponent("cold"), store: store)
        let (warm, statistics, _) = try BatchFreshFolderTests.run(plan, into: fixture.folder.appendingPathComponent("warm"), store: store)
        #expect(cold.failed == 0 && warm.drawn == 0 && statistics.diskHits == 0, "copied from the store")
        #expect(try BatchFreshFolderTests.contents(of: fixture.folder.appendingPathComponent("warm"))
            == (try BatchFreshFolderTests.contents(of: fixture.folder.appendingPathComponent("cold"))))
    }
}
