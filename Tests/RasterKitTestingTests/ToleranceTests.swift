import RasterKitTestSupport
import Testing
import RasterKitTesting

@Suite struct ToleranceTests {
    typealias T = TestImages

    /// A 10×10 comparison with `count` isolated different pixels.
    func result(differing count: Int, tolerance: Tolerance = Tolerance()) throws -> ImageDiff.Result {
        let points = [(1, 1), (4, 1), (7, 1), (1, 4), (4, 4), (7, 4)].prefix(count)
        return try ImageDiff.compare(T.black(whiteAt: []), T.black(whiteAt: Array(points)),
                                     options: tolerance.options())
    }

    @Test func defaultAllowsNoDifferentPixel() throws {
        let tolerance = Tolerance()
        #expect(tolerance.threshold == 0.1 && tolerance.maxDifferentPixels == nil && tolerance.maxDifferentRatio == nil)
        #expect(tolerance.accepts(try result(differing: 0)))
        #expect(!tolerance.accepts(try result(differing: 1)))
    }

    @Test func pixelLimitIsInclusive() throws {
        let tolerance = Tolerance(maxDifferentPixels: 3)
        #expect(tolerance.accepts(try result(differing: 3)))
        #expect(!tolerance.accepts(try result(differing: 4)))
    }

    @Test func ratioLimitIsInclusive() throws {
        let tolerance = Tolerance(maxDifferentRatio: 0.03)
        #expect(tolerance.accepts(try result(differing: 3)))          // 3 of 100 is exactly 0.03
        #expect(!tolerance.accepts(try result(differing: 4)))
        #expect(!Tolerance(maxDifferentPixels: 100, maxDifferentRatio: 0.02).accepts(try result(differing: 3)))
    }

    @Test func aLimitLeftOutDoesNotApply() throws {
        let fifty = try result(differing: 50)
        #expect(Tolerance(maxDifferentPixels: 50).accepts(fifty))        // ratio 0.5, but no ratio limit
        #expect(Tolerance(maxDifferentRatio: 0.5).accepts(fifty))        // 50 pixels, but no count limit
        #expect(!Tolerance(maxDifferentPixels: 0).accepts(try result(differing: 1)))
    }

    @Test func bothLimitsMustHold() throws {
        let three = try result(differing: 3)
        #expect(!Tolerance(maxDifferentPixels: 2, maxDifferentRatio: 1).accepts(three))
        #expect(!Tolerance(maxDifferentPixels: 100, maxDifferentRatio: 0.01).accepts(three))
    }

    @Test func exactCountsAntiAliasingAndTheSmallestChange() throws {
        let a = T.antiAliasedEdge(edge: 128), b = T.antiAliasedEdge(edge: 127)
        #expect(Tolerance().accepts(try ImageDiff.compare(a, b, options: Tolerance().options())))
        #expect(!Tolerance.exact.accepts(try ImageDiff.compare(a, b, options: Tolerance.exact.options())))
        #expect(Tolerance.exact.options(.init(alpha: 0.5))
            == ImageDiff.Options(threshold: 0, includeAA: true, antiAliasing: .color, alpha: 0.5))
    }
}
