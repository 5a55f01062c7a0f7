import Foundation
import RasterKitTesting
import Testing

/// Reviewed pictures of every Canvas feature, in Goldens/CanvasGoldenTests/.
@Suite struct CanvasGoldenTests {
    private func sketch(width: Double = 200, height: Double = 120, _ draw: (Canvas) throws -> Void) throws -> RasterImage {
        try RasterImage(size: Size(width: width, height: height), scale: 2) { canvas in
            canvas.fillAll(with: .color(Color(white: 0.98)))
            try draw(canvas)
        }
    }

    private let blue = Color(red: 0.18, green: 0.44, blue: 0.92), coral = Color(red: 0.95, green: 0.4, blue: 0.35)

    @Test func shapes() throws {
        try assertGolden(image: sketch { canvas in
            canvas.fill(Path(rect: Rect(x: 10, y: 10, width: 40, height: 40)), with: .color(blue))
            canvas.fill(Path(roundedRect: Rect(x: 60, y: 10, width: 60, height: 40),
                             cornerRadii: CornerRadii(topLeft: 20, topRight: 4, bottomRight: 20, bottomLeft: 4)), with: .color(coral))
            canvas.fill(Path(ellipseIn: Rect(x: 130, y: 10, width: 60, height: 40)), with: .color(.green))
            var pie = Path()
            pie.move(to: Point(x: 40, y: 85))
            pie.addArc(center: Point(x: 40, y: 85), radius: 28, startAngle: -.pi / 2, endAngle: .pi)
            pie.closeSubpath()
            canvas.fill(pie, with: .color(blue))
            canvas.fill(try Path(svgPathData: "M110 60l7 15 16 2-12 11 3 16-14-8-14 8 3-16-12-11 16-2z"), with: .color(Color(red: 1, green: 0.7, blue: 0.1)))
            canvas.fill(try Path(svgPathData: "M135 70q15-20 30 0t30 0M135 100c10-30 30 30 55 0"), with: .color(coral.withAlpha(0.6)))
        })
    }

    @Test func strokes() throws {
        try assertGolden(image: sketch { canvas in
            for (row, cap) in StrokeStyle.LineCap.allCases.enumerated() {
                var line = Path()
                line.move(to: Point(x: 20, y: 20 + Double(row) * 18))
                line.addLine(to: Point(x: 90, y: 20 + Double(row) * 18))
                canvas.stroke(line, with: .color(blue), style: StrokeStyle(width: 10, cap: cap))
            }
            for (column, join) in StrokeStyle.LineJoin.allCases.enumerated() {
                var corner = Path()
                let x = 110 + Double(column) * 30
                corner.move(to: Point(x: x, y: 50))
                corner.addLine(to: Point(x: x + 10, y: 15))
                corner.addLine(to: Point(x: x + 20, y: 50))
                canvas.stroke(corner, with: .color(coral), style: StrokeStyle(width: 7, join: join))
            }
            canvas.stroke(Path(roundedRect: Rect(x: 20, y: 80, width: 160, height: 28), cornerRadius: 14), with: .color(Color(white: 0.3)),
                          style: StrokeStyle(width: 2, cap: .round, dash: [8, 5, 1, 5]))
        })
    }

    @Test func fillRules() throws {
        let star = try Path(svgPathData: "M50 10l24 80-64-50h80l-64 50z")
        try assertGolden(image: sketch { canvas in
            canvas.fill(star, with: .color(blue))
            canvas.translateBy(x: 100, y: 0)
            canvas.fill(star, with: .color(coral), rule: .evenOdd)
        })
    }

    @Test func gradients() throws {
        try assertGolden(image: sketch { canvas in
            let stops = Gradient(stops: [.init(color: blue, location: 0), .init(color: .white, location: 0.5),
                                         .init(color: coral, location: 1)])
            canvas.fill(Path(roundedRect: Rect(x: 10, y: 10, width: 85, height: 100), cornerRadius: 10),
                        with: .linearGradient(LinearGradient(gradient: stops, start: Point(x: 10, y: 10), end: Point(x: 95, y: 110))))
            canvas.fill(Path(ellipseIn: Rect(x: 105, y: 10, width: 85, height: 100)),
                        with: .radialGradient(RadialGradient(gradient: Gradient(colors: [.white, blue, Color(red: 0.05, green: 0.1, blue: 0.3)]),
                                                             startCenter: Point(x: 130, y: 40), startRadius: 2,
                                                             endCenter: Point(x: 147, y: 60), endRadius: 50)))
        })
    }

    @Test func repeatingGradients() throws {
        try assertGolden(image: sketch(height: 60) { canvas in
            let stripes = Gradient(colors: [blue, .white], extend: .reflect)
            canvas.fill(Path(rect: Rect(x: 10, y: 10, width: 180, height: 40)),
                        with: .linearGradient(LinearGradient(gradient: stripes, start: Point(x: 10, y: 0), end: Point(x: 25, y: 0))))
        })
    }

    @Test func text() throws {
        try assertGolden(image: sketch(width: 260, height: 150) { canvas in
            canvas.draw(text: "RasterKit draws text through Pango, wrapped to a width and aligned as asked.",
                        in: Rect(x: 10, y: 10, width: 150, height: 80),
                        style: TextStyle(font: "DejaVu Sans 12", color: Color(white: 0.15), lineSpacing: 2))
            canvas.draw(text: "Centred", in: Rect(x: 170, y: 10, width: 80, height: 20),
                        style: TextStyle(font: "DejaVu Sans Bold 13", color: blue, alignment: .center))
            canvas.draw(text: "Right", in: Rect(x: 170, y: 32, width: 80, height: 20),
                        style: TextStyle(font: "DejaVu Serif 13", color: coral, alignment: .right))
            canvas.draw(text: "mono 0O1l", in: Rect(x: 170, y: 54, width: 80, height: 20),
                        style: TextStyle(font: "DejaVu Sans Mono 11", color: Color(white: 0.2)))
            canvas.draw(text: "A label too long for its two lines ends with an ellipsis, however long it goes on",
                        in: Rect(x: 10, y: 100, width: 240, height: 40),
                        style: TextStyle(font: "DejaVu Sans 12", color: Color(white: 0.3), maxLines: 2))
        })
    }

    @Test func dropShadows() throws {
        try assertGolden(image: sketch(width: 240, height: 110) { canvas in
            for (index, blur) in [0.0, 4, 12].enumerated() {
                let card = Rect(x: 15 + Double(index) * 75, y: 20, width: 60, height: 60)
                canvas.withShadow(Shadow(color: Color(white: 0, alpha: 0.4), offset: Point(x: 0, y: 6), blur: blur)) {
                    canvas.fill(Path(roundedRect: card, cornerRadius: 10), with: .color(.white))
                }
            }
        })
    }

    @Test func innerShadows() throws {
        try assertGolden(image: sketch(height: 90) { canvas in
            let well = Path(roundedRect: Rect(x: 15, y: 20, width: 80, height: 50), cornerRadius: 12)
            canvas.fill(well, with: .color(Color(white: 0.9)))
            canvas.drawInnerShadow(Shadow(color: Color(white: 0, alpha: 0.45), offset: Point(x: 0, y: 3), blur: 6), in: well)
            let pill = Path(roundedRect: Rect(x: 110, y: 25, width: 75, height: 40), cornerRadius: 20)
            canvas.fill(pill, with: .color(blue))
            canvas.drawInnerShadow(Shadow(color: Color(white: 1, alpha: 0.6), offset: Point(x: 0, y: 2), blur: 1), in: pill)
        })
    }

    @Test func masksAndOpacity() throws {
        let checker = try RasterImage(size: Size(width: 8, height: 8)) { canvas in
            for y in 0..<8 { for x in 0..<8 where (x + y) % 2 == 0 {
                canvas.fill(Path(rect: Rect(x: Double(x), y: Double(y), width: 1, height: 1)), with: .color(.black))
            } }
        }
        try assertGolden(image: sketch(width: 240) { canvas in
            let fade = LinearGradient(gradient: Gradient(colors: [.black, .clear]), start: Point(x: 10, y: 0), end: Point(x: 80, y: 0))
            canvas.withLayer(mask: .linearGradient(fade)) {
                canvas.fill(Path(rect: Rect(x: 10, y: 10, width: 70, height: 100)), with: .color(coral))
            }
            canvas.withLayer(mask: .image(checker, in: Rect(x: 90, y: 10, width: 64, height: 64))) {
                canvas.fill(Path(ellipseIn: Rect(x: 90, y: 10, width: 64, height: 64)), with: .color(blue))
            }
            canvas.withLayer(opacity: 0.5) {
                canvas.fill(Path(ellipseIn: Rect(x: 165, y: 20, width: 50, height: 50)), with: .color(blue))
                canvas.fill(Path(ellipseIn: Rect(x: 185, y: 40, width: 50, height: 50)), with: .color(blue))
            }
        })
    }

    @Test func blendModes() throws {
        let modes: [BlendMode] = [.normal, .multiply, .screen, .overlay, .darken, .lighten, .difference, .exclusion,
                                  .hue, .saturation, .color, .luminosity]
        try assertGolden(image: sketch(width: 250, height: 140) { canvas in
            for (index, mode) in modes.enumerated() {
                let cell = Rect(x: 8 + Double(index % 6) * 40, y: 10 + Double(index / 6) * 65, width: 36, height: 50)
                canvas.fill(Path(rect: cell), with: .linearGradient(LinearGradient(gradient: Gradient(colors: [blue, Color(red: 1, green: 0.85, blue: 0.2)]),
                                                                                  start: Point(x: cell.minX, y: cell.minY),
                                                                                  end: Point(x: cell.minX, y: cell.maxY))))
                canvas.withLayer(blendMode: mode) {
                    canvas.fill(Path(ellipseIn: cell.insetBy(dx: 4, dy: 9)), with: .color(coral))
                }
            }
        })
    }

    @Test func transformsAndClips() throws {
        try assertGolden(image: sketch { canvas in
            canvas.withState {
                canvas.clip(to: Path(ellipseIn: Rect(x: 10, y: 10, width: 100, height: 100)))
                for stripe in 0..<10 {
                    canvas.fill(Path(rect: Rect(x: 10 + Double(stripe) * 20, y: 0, width: 10, height: 120)), with: .color(blue))
                }
            }
            for step in 0..<6 {
                canvas.withState {
                    canvas.translateBy(x: 155, y: 60)
                    canvas.rotate(by: Double(step) * .pi / 12)
                    canvas.stroke(Path(rect: Rect(x: -30, y: -30, width: 60, height: 60)),
                                  with: .color(coral.withAlpha(0.3 + 0.1 * Double(step))), style: StrokeStyle(width: 1.5))
                }
            }
        })
    }

    @Test func imagesAndPatterns() throws {
        let tile = try RasterImage(size: Size(width: 10, height: 10), scale: 2) { canvas in
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 5, height: 5)), with: .color(blue))
            canvas.fill(Path(ellipseIn: Rect(x: 5, y: 5, width: 5, height: 5)), with: .color(coral))
        }
        try assertGolden(image: sketch { canvas in
            canvas.fill(Path(roundedRect: Rect(x: 10, y: 10, width: 90, height: 100), cornerRadius: 12),
                        with: .image(ImagePattern(image: tile, rect: Rect(x: 10, y: 10, width: 10, height: 10), tiles: true)))
            canvas.draw(tile, in: Rect(x: 110, y: 10, width: 40, height: 40), interpolation: .nearest)
            canvas.draw(tile, in: Rect(x: 150, y: 10, width: 40, height: 40), interpolation: .good)
        })
    }
}
