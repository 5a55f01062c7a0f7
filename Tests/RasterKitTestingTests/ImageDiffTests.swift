import RasterKitTestSupport
import Testing
import RasterKitTesting

@Suite struct ImageDiffTests {
    typealias T = TestImages
    /// Black faded to alpha 0.1: 229.5, truncated as pixelmatch's Uint8Array stores it.
    let faded = RGBA8(red: 229, green: 229, blue: 229, alpha: 255)

    /// The anti-aliased edge with its grey column a different shade, and one isolated pixel changed.
    func edgeWithIsolatedChange() -> RGBABitmap {
        let edge = T.antiAliasedEdge(edge: 64)
        return T.bitmap(width: 10, height: 10) { x, y in x == 1 && y == 5 ? T.white : edge[x, y] }
    }

    @Test func identicalImagesTakeTheFastPath() throws {
        // Two separately built bitmaps, so equality is found by comparing bytes, not storage.
        let result = try ImageDiff.compare(T.antiAliasedEdge(edge: 128), T.antiAliasedEdge(edge: 128))
        #expect(result.isIdentical)
        #expect(result.differentPixels == 0 && result.antiAliasedPixels == 0)
        #expect(result.totalPixels == 100 && result.ratio == 0)
        let diff = try #require(result.diffImage)
        #expect(diff[0, 0] == faded)
        #expect(diff[9, 9] == T.white)

        let mask = try ImageDiff.compare(T.solid(T.black), T.solid(T.black), options: .init(diffMask: true))
        #expect(mask.diffImage == T.solid(T.clear))
        #expect(try ImageDiff.compare(T.solid(T.black), T.solid(T.black), makeDiffImage: false).diffImage == nil)
    }

    @Test func invisibleByteDifferencesDrawTheSameDiffImageAsTheFastPath() throws {
        // Fully transparent pixels of different colours differ in bytes but not in colour distance.
        let a = T.bitmap(width: 6, height: 6) { x, _ in x == 0 ? T.clear : T.black }
        let b = T.bitmap(width: 6, height: 6) { x, _ in
            x == 0 ? RGBA8(red: 255, green: 0, blue: 0, alpha: 0) : T.black
        }
        let slow = try ImageDiff.compare(a, b, options: .init(threshold: 0, includeAA: true))
        #expect(!slow.isIdentical && slow.differentPixels == 0)
        #expect(try ImageDiff.compare(a, a).diffImage == slow.diffImage)
    }

    @Test func thresholdZeroCountsTheSmallestVisibleDifference() throws {
        let a = T.solid(T.black)
        let b = T.bitmap(width: 8, height: 8) { x, y in
            x == 3 && y == 3 ? RGBA8(red: 1, green: 0, blue: 0, alpha: 255) : T.black
        }
        #expect(try ImageDiff.compare(a, b, options: .init(threshold: 0)).differentPixels == 1)
        #expect(try ImageDiff.compare(a, b).differentPixels == 0)
    }

    @Test func thresholdOneAcceptsEvenBlackAgainstWhite() throws {
        let black = T.solid(T.black), white = T.solid(T.white)
        #expect(try ImageDiff.compare(black, white, options: .init(threshold: 1)).differentPixels == 0)
        // Black against white is 0.966 of the largest YIQ distance.
        #expect(try ImageDiff.compare(black, white, options: .init(threshold: 0.95)).differentPixels == 64)
    }

    @Test func antiAliasedEdgesAreExcusedUnlessIncluded() throws {
        let a = T.antiAliasedEdge(edge: 128)
        let b = edgeWithIsolatedChange()
        let excused = try ImageDiff.compare(a, b)
        #expect(excused.differentPixels == 1)
        #expect(excused.antiAliasedPixels == 10)
        let diff = try #require(excused.diffImage)
        #expect(diff[5, 4] == T.yellow)
        #expect(diff[1, 5] == T.red)
        #expect(diff[0, 0] == faded)

        let included = try ImageDiff.compare(a, b, options: .init(includeAA: true))
        #expect(included.differentPixels == 11)
        #expect(included.antiAliasedPixels == 0)
        #expect(included.diffImage?[5, 4] == T.red)
    }

    @Test func semiTransparentPixelsBlendOverTheCheckerboardOrWhite() throws {
        // Half-transparent white over white looks like nothing at all; over the dark
        // checkerboard it does not.
        let translucentWhite = T.solid(RGBA8(red: 255, green: 255, blue: 255, alpha: 128), width: 4, height: 4)
        let transparent = T.solid(T.clear, width: 4, height: 4)
        #expect(try ImageDiff.compare(translucentWhite, transparent).differentPixels == 16)
        let overWhite = ImageDiff.Options(checkerboard: false)
        #expect(try ImageDiff.compare(translucentWhite, transparent, options: overWhite).differentPixels == 0)

        let translucentBlack = T.solid(RGBA8(red: 0, green: 0, blue: 0, alpha: 128), width: 4, height: 4)
        #expect(try ImageDiff.compare(translucentBlack, transparent, options: overWhite).differentPixels == 16)
    }

    @Test func diffMaskDrawsOnlyRealDifferences() throws {
        let a = T.antiAliasedEdge(edge: 128)
        let b = edgeWithIsolatedChange()
        let result = try ImageDiff.compare(a, b, options: .init(diffMask: true))
        #expect(result.differentPixels == 1)
        let diff = try #require(result.diffImage)
        #expect(diff[1, 5] == T.red)
        #expect(diff[5, 4] == T.clear)   // anti-aliasing is left out of a mask
        #expect(diff[0, 0] == T.clear)
    }

    @Test func diffColorAltMarksPixelsThatGotDarker() throws {
        let a = T.black(whiteAt: [(2, 2)])
        let b = T.black(whiteAt: [(7, 7)])
        let alt = try #require(ImageDiff.compare(a, b, options: .init(diffColorAlt: T.green)).diffImage)
        #expect(alt[2, 2] == T.green)   // white → black: darker in the actual image
        #expect(alt[7, 7] == T.red)
        let plain = try #require(ImageDiff.compare(a, b).diffImage)
        #expect(plain[2, 2] == T.red)

        let custom = try #require(ImageDiff.compare(a, b, options: .init(alpha: 0, diffColor: T.green)).diffImage)
        #expect(custom[7, 7] == T.green)
        #expect(custom[0, 0] == T.white)   // alpha 0 fades the background to white
    }

    @Test func largeImagesCompareInBandsWithTheSameCounts() throws {
        // 640×480 is past the size at which rows are split across threads; the block spans bands.
        let a = T.solid(T.black, width: 640, height: 480)
        let b = T.bitmap(width: 640, height: 480) { x, y in
            (300..<320).contains(x) && (230..<250).contains(y) ? T.white : T.black
        }
        let result = try ImageDiff.compare(a, b)
        #expect(result.differentPixels == 400)
        #expect(result.diffImage?[300, 249] == T.red)
        #expect(result.diffImage?[639, 479] == faded)
    }

    @Test func differentSizesAreATypedError() throws {
        let error = #expect(throws: ImageDiffError.self) {
            try ImageDiff.compare(T.solid(T.black, width: 4, height: 3), T.solid(T.black, width: 3, height: 4))
        }
        #expect(error == .sizeMismatch(expected: .init(width: 4, height: 3), actual: .init(width: 3, height: 4)))
        #expect(error?.description == "image sizes differ: expected 4×3, actual 3×4")
    }

    @Test(arguments: [-0.1, 1.1, .nan, .infinity])
    func invalidThresholdsAreRejected(threshold: Double) throws {
        let error = #expect(throws: ImageDiffError.self) {
            try ImageDiff.compare(T.solid(T.black), T.solid(T.white), options: .init(threshold: threshold))
        }
        guard case .invalidThreshold = error else {
            Issue.record("expected invalidThreshold, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: [-1, 1.5, .nan])
    func invalidAlphasAreRejected(alpha: Double) throws {
        let error = #expect(throws: ImageDiffError.self) {
            try ImageDiff.compare(T.solid(T.black), T.solid(T.black), options: .init(alpha: alpha))
        }
        guard case .invalidAlpha = error else {
            Issue.record("expected invalidAlpha, got \(String(describing: error))")
            return
        }
    }
}
