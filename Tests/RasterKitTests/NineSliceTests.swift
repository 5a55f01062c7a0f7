import Foundation
import RasterKitTesting
import Testing
@testable import RasterKit

/// A resizable panel with a uniform centre: rounded corners, a solid fill and a border.
struct Panel: Rasterizable {
    var fill: Color = Color(red: 0.95, green: 0.96, blue: 0.98)
    var border: Color = Color(red: 0.2, green: 0.4, blue: 0.8)
    var minimumFrame = true
    var draws: Counter?
    static let stateKeyPaths: [PartialKeyPath<Panel> & Sendable] = [\.fill, \.border]

    var capInsets: EdgeInsets? { EdgeInsets(all: 12) }
    var usesMinimumFrameForCaps: Bool { minimumFrame }

    func draw(in canvas: Canvas, size: Size) throws {
        draws?.increment()
        let shape = Path(roundedRect: Rect(size: size).insetBy(dx: 1, dy: 1), cornerRadius: 10)
        canvas.fill(shape, with: .color(fill))
        canvas.stroke(shape, with: .color(border), style: StrokeStyle(width: 2))
    }
}

@Suite struct NineSliceTests {
    @Test func minimumFrameRenderCarriesItsCaps() throws {
        let rasterizer = Rasterizer()
        let image = try rasterizer.image(for: Panel(), size: Size(width: 300, height: 80), scale: 2)
        #expect(image.pixelWidth == 50 && image.pixelHeight == 50)  // (12 + 12 + 1) points × 2
        #expect(image.capInsets == EdgeInsets(all: 12))
    }

    @Test func oneDrawServesEverySize() throws {
        let rasterizer = Rasterizer()
        let draws = Counter()
        for width in [30.0, 60, 200, 1_000] {
            _ = try rasterizer.image(for: Panel(draws: draws), size: Size(width: width, height: 44), scale: 2)
        }
        #expect(draws.count == 1)
    }

    @Test(arguments: [1.0, 2.0, 3.0])
    func stretchedMinimumFrameEqualsAFullSizeRender(scale: Double) throws {
        let rasterizer = Rasterizer()
        for size in [Size(width: 60, height: 40), Size(width: 200, height: 44), Size(width: 33.5, height: 90), Size(25)] {
            let stretched = try rasterizer.image(for: Panel(), size: size, scale: scale).stretched(to: size)
            let direct = try rasterizer.image(for: Panel(minimumFrame: false), size: size, scale: scale)
            #expect(stretched.pixelWidth == direct.pixelWidth && stretched.pixelHeight == direct.pixelHeight)
            let result = try ImageDiff.compare(RGBABitmap(direct), RGBABitmap(stretched), options: .init(threshold: 0.1),
                                               makeDiffImage: false)
            #expect(result.differentPixels == 0, "\(size) @\(scale)x: \(result.differentPixels) pixels differ")
        }
    }

    @Test func fullSizeCapsStayOnTheImage() throws {
        let image = try Rasterizer().image(for: Panel(minimumFrame: false), size: Size(width: 100, height: 50), scale: 1)
        #expect(image.pixelWidth == 100 && image.capInsets == EdgeInsets(all: 12))
    }

    @Test func stretchingKeepsCornersAndFillsTheCentre() throws {
        let source = try Rasterizer().image(for: Panel(), size: Size(width: 100, height: 100), scale: 1)
        let stretched = try source.stretched(to: Size(width: 100, height: 60))
        // Corners are copied pixel for pixel.
        for y in 0..<12 {
            for x in 0..<12 {
                #expect(stretched.pixel(x: x, y: y) == source.pixel(x: x, y: y))
                #expect(stretched.pixel(x: 99 - x, y: 59 - y) == source.pixel(x: 24 - x, y: 24 - y))
            }
        }
        #expect(stretched.pixel(x: 50, y: 30) == source.pixel(x: 12, y: 12))
        #expect(stretched.capInsets == EdgeInsets(all: 12))
    }

    @Test func stretchingBlendsOnlyWithinTheCentre() throws {
        // A 3-pixel image: red cap, blue centre, green cap. However far it stretches, no red or
        // green reaches the centre.
        let image = try RasterImage(size: Size(width: 3, height: 1)) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red))
            canvas.fill(Path(rect: Rect(x: 1, y: 0, width: 1, height: 1)), with: .color(.blue))
            canvas.fill(Path(rect: Rect(x: 2, y: 0, width: 1, height: 1)), with: .color(.green))
        }.withCapInsets(EdgeInsets(top: 0, left: 1, bottom: 0, right: 1))
        let wide = try image.stretched(to: Size(width: 40, height: 1))
        #expect(wide.pixel(x: 0, y: 0) == RGBA8(.red) && wide.pixel(x: 39, y: 0) == RGBA8(.green))
        #expect((1..<39).allSatisfy { wide.pixel(x: $0, y: 0) == RGBA8(.blue) })
    }

    @Test func nonUniformCentresInterpolateSmoothly() throws {
        let image = try RasterImage(size: Size(width: 4, height: 1)) { canvas in
            canvas.fill(Path(rect: Rect(x: 1, y: 0, width: 1, height: 1)), with: .color(.black))
            canvas.fill(Path(rect: Rect(x: 2, y: 0, width: 1, height: 1)), with: .color(.white))
        }.withCapInsets(EdgeInsets(top: 0, left: 1, bottom: 0, right: 1))
        let wide = try image.stretched(to: Size(width: 22, height: 1))
        let greys = (1..<21).map { Int(wide.pixel(x: $0, y: 0).red) }
        #expect(greys == greys.sorted())
        #expect(greys.first == 0 && greys.last == 255)
    }

    @Test func canvasDrawsNineSliceImagesAndComponents() throws {
        let rasterizer = Rasterizer()
        let panel = try rasterizer.image(for: Panel(), size: Size(100), scale: 2)
        let direct = try rasterizer.image(for: Panel(minimumFrame: false), size: Size(width: 80, height: 50), scale: 2)
        struct Host: Rasterizable {
            func draw(in canvas: Canvas, size: Size) throws {
                try canvas.draw(Panel(), in: Rect(x: 0, y: 0, width: 80, height: 50))
            }
        }
        let hosted = try rasterizer.image(for: Host(), size: Size(width: 80, height: 50), scale: 2)
        #expect(try ImageDiff.compare(RGBABitmap(direct), RGBABitmap(hosted), options: .init(threshold: 0.1)).differentPixels == 0)
        let drawn = try RasterImage(size: Size(width: 80, height: 50), scale: 2) { canvas in
            canvas.draw(panel, in: Rect(x: 0, y: 0, width: 80, height: 50))
        }
        #expect(drawn.hasSamePixels(as: hosted))
    }

    @Test(arguments: [EdgeInsets(top: -1, left: 0, bottom: 0, right: 0), EdgeInsets(top: .nan, left: 0, bottom: 0, right: 0),
                      EdgeInsets(top: 0, left: .infinity, bottom: 0, right: 0), EdgeInsets(all: 30)])
    func badCapsAreTypedErrors(insets: EdgeInsets) throws {
        struct Bad: Rasterizable {
            var insets: EdgeInsets
            var capInsets: EdgeInsets? { insets }
            func draw(in canvas: Canvas, size: Size) throws {}
        }
        let error = #expect(throws: RenderError.self) { _ = try Rasterizer().image(for: Bad(insets: insets), size: Size(50)) }
        guard case .invalidCapInsets = error else { Issue.record("\(String(describing: error))"); return }
        #expect(throws: RenderError.self) { _ = try TestSupport.solidImage(.red, width: 10, height: 10).withCapInsets(insets) }
    }

    @Test func stretchingNeedsCapsThatFit() throws {
        let image = try Rasterizer().image(for: Panel(), size: Size(100), scale: 1)
        #expect(throws: RenderError.self) { _ = try image.stretched(to: Size(width: 20, height: 100)) }
        #expect(throws: RenderError.self) { _ = try TestSupport.solidImage(.red).stretched(to: Size(10)) }
    }
}
