import Testing
@testable import RasterKit
@testable import RasterKitBatch

@Suite struct ContactSheetTests {
    /// Issue 24, finding 11: previews are scaled down to what the sheet shows as they are made,
    /// so a sheet holds small previews, not every full-size render.
    @Test func thumbnailsHoldOnlyThePixelsTheSheetShows() throws {
        let large = try RasterImage(size: Size(width: 2_000, height: 1_000), scale: 1) { $0.fillAll(with: .color(.red)) }
        let thumbnail = try ContactSheet.thumbnail(of: large, maximumSide: 400, scale: 2)
        #expect(thumbnail.size == Size(width: 400, height: 200))
        #expect(thumbnail.pixelWidth == 800 && thumbnail.pixelHeight == 400)
        #expect(RGBABitmap(thumbnail)[400, 200] == RGBABitmap(large)[1_000, 500])

        // A retina render shown at its size in points keeps only the sheet's scale.
        let retina = try RasterImage(size: Size(100), scale: 4) { $0.fillAll(with: .color(.blue)) }
        #expect(try ContactSheet.thumbnail(of: retina, maximumSide: 400, scale: 2).pixelWidth == 200)
        // Small images are used as they are.
        let small = try RasterImage(size: Size(24), scale: 2) { $0.fillAll(with: .color(.blue)) }
        #expect(try ContactSheet.thumbnail(of: small, maximumSide: 400, scale: 2).pixelWidth == 48)
    }
}
