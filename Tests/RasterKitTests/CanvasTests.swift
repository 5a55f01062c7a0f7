import Foundation
import Testing
@testable import RasterKit

private let red = RGBA8(red: 255, green: 0, blue: 0, alpha: 255)
private let clear = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)

private func render(width: Double = 20, height: Double = 20, scale: Double = 1,
                    _ draw: (Canvas) throws -> Void) throws -> RasterImage {
    try RasterImage(size: Size(width: width, height: height), scale: scale, draw: draw)
}

@Suite struct CanvasShapeTests {
    @Test(arguments: [1.0, 2.0, 3.0])
    func rectOnPixelBoundariesIsExact(scale: Double) throws {
        let image = try render(width: 10, height: 10, scale: scale) { canvas in
            canvas.fill(Path(rect: Rect(x: 2, y: 3, width: 4, height: 5)), with: .color(.red))
        }
        for y in 0..<image.pixelHeight {
            for x in 0..<image.pixelWidth {
                let inside = Double(x) >= 2 * scale && Double(x) < 6 * scale && Double(y) >= 3 * scale && Double(y) < 8 * scale
                #expect(image.pixel(x: x, y: y) == (inside ? red : clear), "pixel \(x),\(y) at \(scale)x")
            }
        }
    }

    @Test func halfTransparentFillRoundTripsThroughPNG() throws {
        let color = Color(red: 0.2, green: 0.6, blue: 1, alpha: 0.5)
        let image = try render(width: 4, height: 4) { canvas in canvas.fillAll(with: .color(color)) }
        let decoded = try RasterImage(pngData: image.pngData())
        // cairo truncates when it premultiplies, so the render is within 2 of the ideal colour;
        // the PNG round trip itself loses nothing.
        #expect(image.pixel(x: 1, y: 1).isClose(to: RGBA8(color), tolerance: 2))
        #expect(decoded.pixel(x: 1, y: 1).isClose(to: image.pixel(x: 1, y: 1), tolerance: 1))
    }

    @Test func premultipliedPixelsSurviveThePNGRoundTripExactly() throws {
        // Every alpha from 0 to 255 against several colours.
        let image = try render(width: 256, height: 4) { canvas in
            for alpha in 0..<256 {
                for (row, color) in [Color.red, Color(red: 0.2, green: 0.6, blue: 1), .white, Color(white: 0.37)].enumerated() {
                    canvas.fill(Path(rect: Rect(x: Double(alpha), y: Double(row), width: 1, height: 1)),
                                with: .color(color.withAlpha(Double(alpha) / 255)))
                }
            }
        }
        let decoded = try RasterImage(pngData: image.pngData())
        #expect(decoded.hasSamePixels(as: image))
    }

    @Test func fillRulesDifferOnNestedShapes() throws {
        var path = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        path.addRect(Rect(x: 3, y: 3, width: 4, height: 4))
        let nonZero = try render(width: 10, height: 10) { $0.fill(path, with: .color(.red)) }
        let evenOdd = try render(width: 10, height: 10) { $0.fill(path, with: .color(.red), rule: .evenOdd) }
        #expect(nonZero.pixel(x: 5, y: 5) == red)
        #expect(evenOdd.pixel(x: 5, y: 5) == clear)
        #expect(evenOdd.pixel(x: 1, y: 1) == red)
    }

    @Test func strokeCoversItsWidth() throws {
        var line = Path()
        line.move(to: Point(x: 0, y: 10))
        line.addLine(to: Point(x: 20, y: 10))
        let image = try render { $0.stroke(line, with: .color(.red), style: StrokeStyle(width: 2)) }
        #expect(image.pixel(x: 5, y: 9) == red && image.pixel(x: 5, y: 10) == red)
        #expect(image.pixel(x: 5, y: 8) == clear && image.pixel(x: 5, y: 11) == clear)
    }

    @Test func dashesAlternate() throws {
        var line = Path()
        line.move(to: Point(x: 0, y: 5))
        line.addLine(to: Point(x: 16, y: 5))
        let image = try render { $0.stroke(line, with: .color(.red), style: StrokeStyle(width: 2, dash: [4, 4])) }
        #expect((0..<4).allSatisfy { image.pixel(x: $0, y: 5) == red })
        #expect((4..<8).allSatisfy { image.pixel(x: $0, y: 5) == clear })
        #expect((8..<12).allSatisfy { image.pixel(x: $0, y: 5) == red })
    }

    @Test func roundedCornersAreCutAndRadiiAreFitted() throws {
        let image = try render { $0.fill(Path(roundedRect: Rect(x: 0, y: 0, width: 20, height: 20), cornerRadius: 8), with: .color(.red)) }
        #expect(image.pixel(x: 0, y: 0) == clear)
        #expect(image.pixel(x: 10, y: 10) == red && image.pixel(x: 10, y: 0) == red)
        // Radii larger than the rectangle shrink together: a 20×10 pill, not a broken shape.
        let pill = CornerRadii(all: 100).fitted(to: Size(width: 20, height: 10))
        #expect(pill == CornerRadii(all: 5))
    }

    @Test func perCornerRadii() throws {
        let radii = CornerRadii(topLeft: 10, topRight: 0, bottomRight: 10, bottomLeft: 0)
        let image = try render { $0.fill(Path(roundedRect: Rect(x: 0, y: 0, width: 20, height: 20), cornerRadii: radii), with: .color(.red)) }
        #expect(image.pixel(x: 0, y: 0) == clear && image.pixel(x: 19, y: 19) == clear)
        #expect(image.pixel(x: 19, y: 0) == red && image.pixel(x: 0, y: 19) == red)
    }

    @Test func ellipseStaysInsideItsRect() throws {
        let image = try render { $0.fill(Path(ellipseIn: Rect(x: 0, y: 0, width: 20, height: 10)), with: .color(.red)) }
        #expect(image.pixel(x: 10, y: 5) == red && image.pixel(x: 0, y: 0) == clear && image.pixel(x: 10, y: 12) == clear)
    }

    @Test func arcsAndCurvesStayInBounds() throws {
        var path = Path()
        path.addArc(center: Point(x: 10, y: 10), radius: 8, startAngle: 0, endAngle: 2 * .pi)
        path.closeSubpath()
        let image = try render { $0.fill(path, with: .color(.red)) }
        #expect(image.pixel(x: 10, y: 10) == red && image.pixel(x: 1, y: 1) == clear)
        let transformed = path.applying(Transform(scaleX: 0.5, y: 0.5))
        let small = try render { $0.fill(transformed, with: .color(.red)) }
        #expect(small.pixel(x: 5, y: 5) == red && small.pixel(x: 12, y: 12) == clear)
    }
}

@Suite struct CanvasPaintTests {
    @Test func linearGradientEndColors() throws {
        let gradient = LinearGradient(gradient: Gradient(colors: [.red, .blue]), start: Point(x: 0, y: 0), end: Point(x: 100, y: 0))
        let image = try render(width: 100, height: 1) { $0.fillAll(with: .linearGradient(gradient)) }
        #expect(image.pixel(x: 0, y: 0).isClose(to: red, tolerance: 2))
        #expect(image.pixel(x: 99, y: 0).isClose(to: RGBA8(red: 0, green: 0, blue: 255, alpha: 255), tolerance: 2))
        #expect(image.pixel(x: 50, y: 0).isClose(to: RGBA8(red: 127, green: 0, blue: 128, alpha: 255), tolerance: 2))
    }

    @Test func radialGradientRunsFromCentreToEdge() throws {
        let gradient = RadialGradient(gradient: Gradient(colors: [.red, .blue]), center: Point(x: 50, y: 50), radius: 50)
        let image = try render(width: 100, height: 100) { $0.fillAll(with: .radialGradient(gradient)) }
        #expect(image.pixel(x: 50, y: 50).isClose(to: red, tolerance: 4))
        #expect(image.pixel(x: 0, y: 0) == RGBA8(red: 0, green: 0, blue: 255, alpha: 255))
    }

    @Test func gradientStopsAreSorted() {
        let gradient = Gradient(stops: [.init(color: .blue, location: 1), .init(color: .red, location: 0)])
        #expect(gradient.stops.map(\.location) == [0, 1])
    }

    @Test func imagePatternTiles() throws {
        let tile = try RasterImage(size: Size(width: 2, height: 1)) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red))
        }
        let pattern = ImagePattern(image: tile, rect: Rect(x: 0, y: 0, width: 2, height: 1), tiles: true, interpolation: .nearest)
        let image = try render(width: 6, height: 1) { $0.fillAll(with: .image(pattern)) }
        #expect(image.allPixels == [red, clear, red, clear, red, clear])
    }

    @Test func imagesScaleWithChosenInterpolation() throws {
        let checker = try RasterImage(size: Size(width: 2, height: 2)) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red))
            canvas.fill(Path(rect: Rect(x: 1, y: 1, width: 1, height: 1)), with: .color(.red))
        }
        let image = try render(width: 4, height: 4) { $0.draw(checker, in: Rect(x: 0, y: 0, width: 4, height: 4), interpolation: .nearest) }
        #expect(image.pixel(x: 0, y: 0) == red && image.pixel(x: 1, y: 1) == red && image.pixel(x: 2, y: 0) == clear)
        #expect(image.pixel(x: 3, y: 3) == red && image.pixel(x: 0, y: 3) == clear)
    }
}

@Suite struct CanvasStateTests {
    @Test func clipLimitsDrawingUntilStateIsRestored() throws {
        let image = try render(width: 10, height: 10) { canvas in
            canvas.withState {
                canvas.clip(to: Rect(x: 2, y: 2, width: 4, height: 4))
                canvas.fillAll(with: .color(.red))
            }
            canvas.fill(Path(rect: Rect(x: 8, y: 8, width: 2, height: 2)), with: .color(.blue))
        }
        #expect(image.pixel(x: 3, y: 3) == red && image.pixel(x: 1, y: 1) == clear)
        #expect(image.pixel(x: 9, y: 9) == RGBA8(red: 0, green: 0, blue: 255, alpha: 255))
    }

    @Test func transformsMoveScaleAndRotate() throws {
        let image = try render(width: 10, height: 10) { canvas in
            canvas.withState {
                canvas.translateBy(x: 5, y: 5)
                #expect(canvas.transform == Transform(translationX: 5, y: 5))
                canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red))
            }
            #expect(canvas.transform == .identity)
            canvas.withState {
                canvas.scaleBy(x: 2, y: 2)
                canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red))
            }
            canvas.withState {
                // A quarter turn clockwise maps (x, y) to (-y, x).
                canvas.rotate(by: .pi / 2)
                canvas.fill(Path(rect: Rect(x: 8, y: -1, width: 1, height: 1)), with: .color(.red))
            }
        }
        #expect(image.pixel(x: 5, y: 5) == red && image.pixel(x: 6, y: 6) == clear)
        #expect(image.pixel(x: 1, y: 1) == red && image.pixel(x: 2, y: 2) == clear)
        #expect(image.pixel(x: 0, y: 8) == red)
    }

    @Test func transformIsRelativeToTheCanvasScale() throws {
        _ = try render(width: 10, height: 10, scale: 3) { canvas in
            #expect(canvas.transform == .identity)
            #expect(canvas.scale == 3)
        }
    }

    @Test func layerOpacityAppliesToTheGroup() throws {
        let image = try render(width: 10, height: 10) { canvas in
            canvas.withLayer(opacity: 0.5) {
                canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 6, height: 10)), with: .color(.red))
                canvas.fill(Path(rect: Rect(x: 4, y: 0, width: 6, height: 10)), with: .color(.red))
            }
        }
        // The overlap is no darker than the rest: the layer is faded as a whole.
        #expect(image.pixel(x: 5, y: 5) == image.pixel(x: 1, y: 5))
        #expect(abs(Int(image.pixel(x: 5, y: 5).alpha) - 128) <= 1)
    }

    @Test func gradientMaskFadesTheLayer() throws {
        let fade = LinearGradient(gradient: Gradient(colors: [.clear, .black]), start: .zero, end: Point(x: 100, y: 0))
        let image = try render(width: 100, height: 1) { canvas in
            canvas.withLayer(mask: .linearGradient(fade)) { canvas.fillAll(with: .color(.red)) }
        }
        #expect(image.pixel(x: 0, y: 0).alpha <= 3)
        #expect(image.pixel(x: 99, y: 0).alpha >= 252)
        #expect(abs(Int(image.pixel(x: 50, y: 0).alpha) - 128) <= 3)
    }

    @Test func imageMaskKeepsOnlyItsOpaquePart() throws {
        let mask = try RasterImage(size: Size(width: 10, height: 4)) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 5, height: 4)), with: .color(.black))
        }
        let image = try render(width: 10, height: 4) { canvas in
            canvas.withLayer(opacity: 0.5, mask: .image(mask, in: Rect(x: 0, y: 0, width: 10, height: 4))) {
                canvas.fillAll(with: .color(.red))
            }
        }
        #expect(abs(Int(image.pixel(x: 1, y: 1).alpha) - 128) <= 1)
        #expect(image.pixel(x: 8, y: 1).alpha == 0)
    }

    @Test func blendModesCombineWithTheBackdrop() throws {
        let image = try render(width: 4, height: 2) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 2, height: 2)), with: .color(Color(red: 1, green: 1, blue: 0)))
            canvas.fill(Path(rect: Rect(x: 2, y: 0, width: 2, height: 2)), with: .color(.blue))
            canvas.withState {
                canvas.blendMode = .multiply
                #expect(canvas.blendMode == .multiply)
                canvas.fillAll(with: .color(.red))
            }
        }
        #expect(image.pixel(x: 0, y: 0) == red)
        #expect(image.pixel(x: 3, y: 0) == RGBA8(red: 0, green: 0, blue: 0, alpha: 255))
    }

    @Test func everyBlendModeDraws() throws {
        for mode in BlendMode.allCases {
            let image = try render(width: 2, height: 2) { canvas in
                canvas.fillAll(with: .color(.white))
                canvas.withLayer(blendMode: mode) { canvas.fillAll(with: .color(Color(red: 0.5, green: 0.2, blue: 0.9))) }
            }
            #expect(image.pixelWidth == 2, "\(mode)")
        }
    }
}

@Suite struct CanvasShadowTests {
    @Test func dropShadowFallsUnderAndBesideTheShape() throws {
        let shadow = Shadow(color: .black, offset: Point(x: 0, y: 10), blur: 0)
        let image = try render(width: 60, height: 60) { canvas in
            canvas.fillAll(with: .color(.white))
            canvas.withShadow(shadow) { canvas.fill(Path(rect: Rect(x: 10, y: 10, width: 20, height: 20)), with: .color(.red)) }
        }
        #expect(image.pixel(x: 20, y: 20) == red)
        #expect(image.pixel(x: 20, y: 35) == RGBA8(red: 0, green: 0, blue: 0, alpha: 255))
        #expect(image.pixel(x: 20, y: 45) == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(image.pixel(x: 35, y: 20) == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
    }

    @Test func blurSpreadsTheShadowSoftly() throws {
        let shadow = Shadow(color: .black, offset: .zero, blur: 8)
        let image = try render(width: 60, height: 60) { canvas in
            canvas.withShadow(shadow) { canvas.fill(Path(rect: Rect(x: 20, y: 20, width: 20, height: 20)), with: .color(.red)) }
        }
        let near = image.pixel(x: 41, y: 30).alpha, further = image.pixel(x: 45, y: 30).alpha, far = image.pixel(x: 55, y: 30).alpha
        #expect(near > further && further > far)
        #expect(near < 255 && far == 0)
    }

    @Test func shadowFromOutsideTheClipStillFallsInside() throws {
        let image = try render(width: 20, height: 20) { canvas in
            canvas.clip(to: Rect(x: 0, y: 10, width: 20, height: 10))
            canvas.withShadow(Shadow(color: .black, offset: Point(x: 0, y: 8), blur: 0)) {
                canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 20, height: 6)), with: .color(.red))
            }
        }
        #expect(image.pixel(x: 5, y: 11).alpha == 255)
        #expect(image.pixel(x: 5, y: 2).alpha == 0)
    }

    @Test func innerShadowDarkensInsideTheEdge() throws {
        let rect = Rect(x: 10, y: 10, width: 40, height: 40)
        let image = try render(width: 60, height: 60) { canvas in
            canvas.fill(Path(rect: rect), with: .color(.white))
            canvas.drawInnerShadow(Shadow(color: .black, offset: Point(x: 0, y: 4), blur: 0), in: Path(rect: rect))
        }
        #expect(image.pixel(x: 30, y: 11) == RGBA8(red: 0, green: 0, blue: 0, alpha: 255))
        #expect(image.pixel(x: 30, y: 30) == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(image.pixel(x: 30, y: 5).alpha == 0)
    }
}

@Suite struct CanvasErrorTests {
    @Test func anInvalidImagePatternFailsTheDraw() {
        let error = #expect(throws: RenderError.self) {
            let tile = try TestSupport.solidImage(.red)
            _ = try RasterImage(size: Size(width: 4, height: 4)) { canvas in
                canvas.fillAll(with: .image(ImagePattern(image: tile, rect: Rect(x: 0, y: 0, width: 0, height: 2))))
            }
        }
        guard case .invalidSize = error else { Issue.record("unexpected \(String(describing: error))"); return }
    }

    @Test func errorsThrownByTheDrawAreRethrown() {
        struct Oops: Error {}
        #expect(throws: Oops.self) { _ = try RasterImage(size: Size(width: 1, height: 1)) { _ in throw Oops() } }
    }

    @Test func nonFiniteTextRectIsReported() {
        #expect(throws: RenderError.self) {
            _ = try RasterImage(size: Size(width: 4, height: 4)) { canvas in
                canvas.draw(text: "x", in: Rect(x: .nan, y: 0, width: 4, height: 4), style: TextStyle())
            }
        }
    }
}
