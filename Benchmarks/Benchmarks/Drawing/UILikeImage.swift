import Foundation
import RasterKit

/// 1024 × 1024 images like the ones UI pipelines write: an opaque screen, and a transparent
/// sheet of controls.
enum UILikeImage: String, CaseIterable {
    case screen = "1024² opaque screen"
    case sprites = "1024² transparent sprites"

    func render() throws -> RasterImage {
        try RasterImage(size: Size(1024)) { canvas in
            if self == .screen {
                canvas.fillAll(with: .linearGradient(LinearGradient(gradient: Gradient(colors: [Color(white: 0.97), Color(white: 0.9)]),
                                                                    start: .zero, end: Point(x: 0, y: 1024))))
                canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 1024, height: 64)), with: .color(Color(red: 0.12, green: 0.2, blue: 0.35)))
                canvas.draw(text: "Dashboard", in: Rect(x: 24, y: 18, width: 400, height: 30),
                            style: TextStyle(font: "DejaVu Sans Bold 22", color: .white))
            }
            for row in 0..<6 {
                for column in 0..<3 {
                    let card = Rect(x: 24 + Double(column) * 330, y: 88 + Double(row) * 150, width: 306, height: 130)
                    canvas.withShadow(Shadow(color: Color(white: 0, alpha: 0.18), offset: Point(x: 0, y: 3), blur: 10)) {
                        canvas.fill(Path(roundedRect: card, cornerRadius: 12), with: .color(.white))
                    }
                    let accent = Color(red: 0.2 + 0.1 * Double(column), green: 0.45, blue: 0.9 - 0.1 * Double(row))
                    canvas.fill(Path(ellipseIn: Rect(x: card.minX + 16, y: card.minY + 16, width: 40, height: 40)), with: .color(accent))
                    canvas.draw(text: "Card \(row * 3 + column + 1)", in: Rect(x: card.minX + 68, y: card.minY + 18, width: 220, height: 22),
                                style: TextStyle(font: "DejaVu Sans Bold 15", color: Color(white: 0.1)))
                    canvas.draw(text: "Revenue grew 12% this week across every region we track.",
                                in: Rect(x: card.minX + 68, y: card.minY + 42, width: 220, height: 40),
                                style: TextStyle(font: "DejaVu Sans 12", color: Color(white: 0.4), maxLines: 2))
                    let bar = Rect(x: card.minX + 16, y: card.maxY - 28, width: 274, height: 8)
                    canvas.fill(Path(roundedRect: bar, cornerRadius: 4), with: .color(Color(white: 0.9)))
                    canvas.fill(Path(roundedRect: Rect(x: bar.minX, y: bar.minY, width: bar.width * (0.3 + 0.1 * Double(row)), height: 8),
                                     cornerRadius: 4), with: .color(accent))
                }
            }
        }
    }
}
