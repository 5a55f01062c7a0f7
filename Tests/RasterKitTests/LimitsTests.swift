import Testing
@testable import RasterKit

@Suite struct LimitsTests {
    @Test(arguments: [Size(width: 0, height: 10), Size(width: -1, height: 10), Size(width: 10, height: .nan),
                      Size(width: .infinity, height: 10), Size(width: 10, height: -.infinity)])
    func invalidSizesAreTypedErrors(size: Size) {
        let error = #expect(throws: RenderError.self) { _ = try RasterImage(size: size) { _ in } }
        guard case .invalidSize = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test(arguments: [0.0, -2.0, .nan, .infinity])
    func invalidScalesAreTypedErrors(scale: Double) {
        let error = #expect(throws: RenderError.self) { _ = try RasterImage(size: Size(10), scale: scale) { _ in } }
        guard case .invalidScale = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test(arguments: [Size(width: 16_385, height: 1), Size(width: 1e300, height: 1e300), Size(width: 16_384, height: 16_384)])
    func surfacesOverTheDefaultLimitAreRefusedBeforeAllocating(size: Size) {
        // 16384 × 16384 is 268,435,456 pixels: exactly the default limit, so it would be allowed;
        // at scale 1.01 it is not.
        let error = #expect(throws: RenderError.self) { _ = try RasterImage(size: size, scale: 1.01) { _ in } }
        guard case .surfaceTooLarge = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func customLimitsApply() throws {
        let limits = ResourceLimits(pixels: PixelLimits(maximumSide: 100, maximumPixelCount: 5_000))
        #expect(throws: RenderError.self) { _ = try RasterImage(size: Size(width: 101, height: 1), limits: limits) { _ in } }
        #expect(throws: RenderError.self) { _ = try RasterImage(size: Size(width: 100, height: 51), limits: limits) { _ in } }
        _ = try RasterImage(size: Size(width: 100, height: 50), limits: limits) { _ in }
    }

    @Test func fractionalSizesCoverWholePixels() throws {
        #expect(try RasterImage(size: Size(width: 10.2, height: 3), scale: 1) { _ in }.pixelWidth == 11)
        #expect(try RasterImage(size: Size(width: 100.0 / 3, height: 1), scale: 3) { _ in }.pixelWidth == 100)
        #expect(try RasterImage(size: Size(width: 0.1, height: 0.1), scale: 1) { _ in }.pixelWidth == 1)
    }
}
