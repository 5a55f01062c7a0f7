import Foundation
import Testing
@testable import RasterKit

/// Each built-in processor checked on pixels, and each parameter's bad values.
@Suite struct ProcessorTests {
    /// An opaque `color` square of `side` points at `scale`.
    static func square(_ side: Double = 20, scale: Double = 2, color: Color = .red) throws -> RasterImage {
        try TestSupport.solidImage(color, width: side, height: side, scale: scale)
    }

    @Test func roundedCornersClearTheCornersInPoints() throws {
        // 8 points at 2x: a 16-pixel radius.
        let image = try RasterProcessors.RoundedCorners(radius: 8).process(try Self.square())
        #expect(image.pixelWidth == 40 && image.pixelHeight == 40 && image.scale == 2)
        for (x, y) in [(0, 0), (39, 0), (0, 39), (39, 39), (2, 2), (37, 37)] {
            #expect(image.pixel(x: x, y: y).alpha == 0, "corner pixel (\(x), \(y))")
        }
        // Inside the arc, on the straight edges, and the centre stay opaque.
        for (x, y) in [(7, 7), (32, 32), (20, 0), (0, 20), (20, 20)] {
            #expect(image.pixel(x: x, y: y).alpha == 255, "pixel (\(x), \(y))")
        }
        // The arc itself is anti-aliased: partly covered pixels on the diagonal.
        let diagonal = (0..<8).map { Int(image.pixel(x: $0, y: $0).alpha) }
        #expect(diagonal.contains { $0 > 0 && $0 < 255 })
        #expect(image.pixel(x: 20, y: 20).red == 255)
        // At 1x the same radius is 8 pixels: (3, 3) is outside the arc, (4, 4) not entirely.
        let small = try RasterProcessors.RoundedCorners(radius: 8).process(try Self.square(scale: 1))
        #expect(small.pixel(x: 1, y: 1).alpha == 0)
        #expect(small.pixel(x: 3, y: 3).alpha > 0)
    }

    @Test func circleMasksTheCentredCircle() throws {
        let wide = try TestSupport.solidImage(.blue, width: 40, height: 20, scale: 1)
        let image = try RasterProcessors.Circle().process(wide)
        #expect(image.pixelWidth == 40 && image.pixelHeight == 20)
        // Diameter 20 centred at (20, 10).
        #expect(image.pixel(x: 20, y: 10).alpha == 255)
        #expect(image.pixel(x: 20, y: 0).alpha > 100)     // top of the circle
        #expect(image.pixel(x: 8, y: 10).alpha == 0)      // left of it
        #expect(image.pixel(x: 32, y: 10).alpha == 0)
        #expect(image.pixel(x: 11, y: 1).alpha == 0)      // outside the circle's corner
        #expect(image.pixel(x: 0, y: 0).alpha == 0)
        #expect(image.pixel(x: 20, y: 10).blue == 255)
    }

    @Test func tintKeepsAlphaAndReplacesColour() throws {
        // Alpha from 0 to 255 along x, in green.
        let ramp = try RasterImage(size: Size(width: 256, height: 2), scale: 1) { canvas in
            for x in 0..<256 {
                canvas.fill(Path(rect: Rect(x: Double(x), y: 0, width: 1, height: 2)),
                            with: .color(Color(red: 0, green: 1, blue: 0, alpha: Double(x) / 255)))
            }
        }
        let tint = try Color(hex: "#2F6FEB")
        let image = try RasterProcessors.Tint(color: tint).process(ramp)
        for x in stride(from: 0, to: 256, by: 15) {
            let before = ramp.pixel(x: x, y: 1), after = image.pixel(x: x, y: 1)
            #expect(after.alpha == before.alpha, "alpha at \(x)")
            if after.alpha >= 64 {
                #expect(after.isClose(to: RGBA8(red: 0x2F, green: 0x6F, blue: 0xEB, alpha: after.alpha), tolerance: 3), "colour at \(x)")
            }
        }
        // A translucent tint multiplies the alpha.
        let half = try RasterProcessors.Tint(color: tint.withAlpha(0.5)).process(ramp)
        #expect(abs(Int(half.pixel(x: 255, y: 0).alpha) - 128) <= 1)
        #expect(RasterProcessors.Tint(color: tint).keepsNineSliceStretchable)
    }

    @Test func opacityScalesEveryChannel() throws {
        let source = try Self.square(color: Color(red: 1, green: 0.5, blue: 0.25))
        let image = try RasterProcessors.Opacity(0.5).process(source)
        let pixel = image.pixel(x: 5, y: 5)
        #expect(abs(Int(pixel.alpha) - 128) <= 1)
        #expect(pixel.isClose(to: RGBA8(red: 255, green: 128, blue: 64, alpha: pixel.alpha), tolerance: 2))
        #expect(try RasterProcessors.Opacity(0).process(source).pixel(x: 3, y: 3).alpha == 0)
        #expect(try RasterProcessors.Opacity(1).process(source) == source)
    }

    @Test func resizeGivesTheRequestedSizeAtTheImagesScale() throws {
        let source = try Self.square()   // 20 pt, 40 px
        let fitted = try RasterProcessors.Resize(size: Size(width: 10, height: 5)).process(source)
        #expect(fitted.pixelWidth == 20 && fitted.pixelHeight == 10 && fitted.scale == 2)
        // Fitted: a 5-point square centred, transparent beside it.
        #expect(fitted.pixel(x: 10, y: 5).alpha == 255)
        #expect(fitted.pixel(x: 1, y: 5).alpha == 0)
        let stretched = try RasterProcessors.Resize(size: Size(width: 10, height: 5), contentMode: .stretch).process(source)
        #expect(stretched.pixel(x: 1, y: 5).alpha == 255)
        let grown = try RasterProcessors.Resize(size: Size(64)).process(source)
        #expect(grown.pixelWidth == 128 && grown.pixel(x: 64, y: 64).red == 255)
    }

    @Test func cropKeepsTheRectangleInPoints() throws {
        let source = try RasterImage(size: Size(20), scale: 2) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 10, height: 20)), with: .color(.red))
            canvas.fill(Path(rect: Rect(x: 10, y: 0, width: 10, height: 20)), with: .color(.blue))
        }
        let image = try RasterProcessors.Crop(rect: Rect(x: 8, y: 5, width: 4, height: 3)).process(source)
        #expect(image.pixelWidth == 8 && image.pixelHeight == 6 && image.scale == 2)
        #expect(image.pixel(x: 0, y: 0) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(image.pixel(x: 7, y: 5) == RGBA8(red: 0, green: 0, blue: 255, alpha: 255))
        // Past the image: transparent.
        let past = try RasterProcessors.Crop(rect: Rect(x: 15, y: -5, width: 10, height: 10)).process(source)
        #expect(past.pixelWidth == 20 && past.pixelHeight == 20)
        #expect(past.pixel(x: 0, y: 19).blue == 255)
        #expect(past.pixel(x: 19, y: 19).alpha == 0)
        #expect(past.pixel(x: 0, y: 0).alpha == 0)
        let outside = try RasterProcessors.Crop(rect: Rect(x: 1e9, y: 1e9, width: 5, height: 5)).process(source)
        #expect(outside.allPixels.allSatisfy { $0.alpha == 0 })
    }

    @Test func paddingGrowsTheImageByTheInsets() throws {
        let image = try RasterProcessors.Padding(EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)).process(try Self.square())
        #expect(image.pixelWidth == 40 + 12 && image.pixelHeight == 40 + 8 && image.scale == 2)
        #expect(image.size == Size(width: 26, height: 24))
        #expect(image.pixel(x: 3, y: 5).alpha == 0)
        #expect(image.pixel(x: 4, y: 2).alpha == 255)
        #expect(image.pixel(x: 43, y: 41).alpha == 255)
        #expect(image.pixel(x: 44, y: 41).alpha == 0)
        #expect(image.pixel(x: 43, y: 42).alpha == 0)
    }

    /// Alpha along the middle row of a 96-pixel-wide image, opaque left of x = 48.
    static func blurredEdge(radius: Double, scale: Double = 1, edges: RasterProcessors.GaussianBlur.Edges = .transparent) throws -> [Int] {
        let source = try RasterImage(size: Size(width: 96 / scale, height: 32 / scale), scale: scale) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 48 / scale, height: 32 / scale)), with: .color(.black))
        }
        let image = try RasterProcessors.GaussianBlur(radius: radius, edges: edges).process(source)
        #expect(image.pixelWidth == 96 && image.pixelHeight == 32)
        return (0..<96).map { Int(image.pixel(x: $0, y: 16).alpha) }
    }

    @Test(arguments: [(4.0, 1.0), (2.0, 2.0), (0.6, 1.0), (1.5, 1.0)])
    func blurSpreadsAnEdgeSymmetrically(radius: Double, scale: Double) throws {
        let alpha = try Self.blurredEdge(radius: radius, scale: scale)
        // What the blur takes from one side of the edge it gives to the other.
        for distance in 0..<12 {
            #expect(abs(alpha[47 - distance] + alpha[48 + distance] - 255) <= 2, "±\(distance) px for radius \(radius) @\(scale)x")
        }
        #expect(alpha[47] < 255 && alpha[48] > 0)
        #expect(zip(alpha[24..<72], alpha[25..<73]).allSatisfy { $0 >= $1 })
        // σ = radius × scale pixels: about 84% of the full alpha one σ inside the edge.
        let sigma = Int((radius * scale).rounded())
        #expect(abs(alpha[48 - sigma] - 214) <= 16, "one σ inside: \(alpha[48 - sigma])")
    }

    @Test func blurEdgesFadeOrExtend() throws {
        let faded = try Self.blurredEdge(radius: 4)
        let extended = try Self.blurredEdge(radius: 4, edges: .extend)
        #expect(faded[0] < 200)
        #expect(extended[0] == 255)
        #expect(extended[95] == 0)
    }

    @Test func blurKeepsColourOnPremultipliedPixels() throws {
        let source = try RasterImage(size: Size(width: 40, height: 10), scale: 1) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 20, height: 10)), with: .color(.red))
        }
        let image = try RasterProcessors.GaussianBlur(radius: 3).process(source)
        for x in 15..<30 where image.pixel(x: x, y: 5).alpha > 16 {
            let pixel = image.pixel(x: x, y: 5)
            #expect(pixel.red >= 245 && pixel.green <= 8 && pixel.blue <= 8, "no dark fringe at \(x): \(pixel)")
        }
    }

    @Test func dropShadowFallsUnderTheImage() throws {
        let source = try RasterImage(size: Size(40), scale: 1) { canvas in
            canvas.fill(Path(rect: Rect(x: 10, y: 10, width: 20, height: 20)), with: .color(.white))
        }
        let image = try RasterProcessors.DropShadow(Shadow(color: .black, offset: Point(x: 0, y: 4), blur: 2)).process(source)
        #expect(image.pixelWidth == 40 && image.pixelHeight == 40)
        let below = image.pixel(x: 20, y: 32), above = image.pixel(x: 20, y: 8)
        #expect(below.alpha > 100 && below.red < 40)
        #expect(above.alpha < below.alpha)
        #expect(image.pixel(x: 20, y: 20) == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
    }

    @Test func anonymousRunsItsClosure() throws {
        let flip = RasterProcessors.Anonymous(identifier: "tests.clear.v1") { image in
            try RasterProcessors.Opacity(0).process(image)
        }
        #expect(flip.identifier == "tests.clear.v1")
        #expect(try flip.process(try Self.square()).pixel(x: 1, y: 1).alpha == 0)
    }

    // MARK: Bad parameters

    static func expectInvalid(_ processor: any RasterProcessor, _ parameter: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let source = try square()
        do {
            _ = try processor.process(source)
            Issue.record("\(processor.identifier) accepted a bad \(parameter)", sourceLocation: sourceLocation)
        } catch let ProcessorError.invalidParameter(_, name, _, _) {
            #expect(name == parameter, sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(processor.identifier): unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func badParametersThrowTypedErrors() throws {
        for bad in [-1, .nan, .infinity, -.infinity] as [Double] {
            try Self.expectInvalid(RasterProcessors.RoundedCorners(radius: bad), "radius")
            try Self.expectInvalid(RasterProcessors.Opacity(bad), "value")
            try Self.expectInvalid(RasterProcessors.GaussianBlur(radius: bad), "radius")
            try Self.expectInvalid(RasterProcessors.Padding(EdgeInsets(top: 0, left: bad, bottom: 0, right: 0)), "insets.left")
            try Self.expectInvalid(RasterProcessors.Resize(size: Size(width: bad, height: 4)), "size")
            try Self.expectInvalid(RasterProcessors.Crop(rect: Rect(x: 0, y: 0, width: 4, height: bad)), "rect")
            if !bad.isFinite { try Self.expectInvalid(RasterProcessors.Crop(rect: Rect(x: bad, y: 0, width: 4, height: 4)), "rect") }
            try Self.expectInvalid(RasterProcessors.Tint(color: Color(red: bad, green: 0, blue: 0)), "color")
            try Self.expectInvalid(RasterProcessors.DropShadow(Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: bad))), "shadow.color")
        }
        try Self.expectInvalid(RasterProcessors.Opacity(1.01), "value")
        try Self.expectInvalid(RasterProcessors.Resize(size: Size(width: 0, height: 4)), "size")
        try Self.expectInvalid(RasterProcessors.Crop(rect: Rect(x: 0, y: 0, width: 0, height: 4)), "rect")
        try Self.expectInvalid(RasterProcessors.GaussianBlur(radius: 1_001), "radius")
        try Self.expectInvalid(RasterProcessors.Tint(color: Color(red: 2, green: 0, blue: 0)), "color")
    }

    @Test func hugeResultsAreRefusedBeforeAllocating() throws {
        let source = try Self.square()
        let huge: [any RasterProcessor] = [
            RasterProcessors.Resize(size: Size(width: 1e6, height: 1e6)),
            RasterProcessors.Resize(size: Size(width: 9_000, height: 9_000)),
            RasterProcessors.Padding(EdgeInsets(all: 1e12)),
            RasterProcessors.Padding(EdgeInsets(all: 9_000)),
            RasterProcessors.Crop(rect: Rect(x: 0, y: 0, width: 1e300, height: 4)),
        ]
        for processor in huge {
            #expect(throws: RenderError.self, "\(processor.identifier)") { try processor.process(source) }
        }
        // A shadow over the limits is refused by the canvas's own checks.
        #expect(throws: RenderError.self) {
            try RasterProcessors.DropShadow(Shadow(color: .black, blur: 1e9)).process(source)
        }
    }

    @Test func stagesInARenderUseItsLimits() throws {
        var limits = ResourceLimits.default
        limits.pixels = PixelLimits(maximumSide: 100, maximumPixelCount: 10_000)
        let rasterizer = Rasterizer(limits: limits)
        let padded = Swatch(color: .red).processed(RasterProcessors.Padding(EdgeInsets(all: 20)))
        // 20 pt + 40 pt at 2x is 120 pixels a side: over the rasterizer's limit, not the default one.
        #expect(throws: RenderError.self) { try rasterizer.image(for: padded, size: Size(20), scale: 2) }
        #expect(try rasterizer.image(for: padded, size: Size(20), scale: 1).pixelWidth == 60)
    }

    @Test func badIdentifiersAreRefused() throws {
        let rasterizer = Rasterizer()
        for identifier in ["", "has space", "tab\t", String(repeating: "x", count: 201)] {
            let component = Swatch(color: .red).processed(RasterProcessors.Anonymous(identifier: identifier) { $0 })
            do {
                _ = try rasterizer.image(for: component, size: Size(4))
                Issue.record("identifier \(identifier.debugDescription) accepted")
            } catch let RenderError.drawFailed(_, _, underlying) {
                #expect(underlying as? ProcessorError == .invalidIdentifier(identifier))
            }
        }
    }
}

/// A solid square of one colour, counting its draws.
struct Swatch: Rasterizable {
    var color: Color
    var draws: Counter? = nil
    static let stateKeyPaths: [PartialKeyPath<Swatch> & Sendable] = [\.color]

    func draw(in canvas: Canvas, size: Size) throws {
        draws?.increment()
        canvas.fillAll(with: .color(color))
    }
}
