import RasterKit

/// A line icon from 24 × 24 SVG path data, stroked in the style of the project's icon set.
public struct Glyph: Rasterizable {
    /// The icons the examples use, as SVG path data on a 24-point grid.
    public enum Name: String, Sendable, CaseIterable {
        case star, heart, bell, check, plus, home

        var pathData: String {
            switch self {
            case .star: "M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
            case .heart: "M12 20s-7.5-4.4-7.5-10A4.2 4.2 0 0 1 12 7.4 4.2 4.2 0 0 1 19.5 10c0 5.6-7.5 10-7.5 10z"
            case .bell: "M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 1.5h-15zM10 20.5a2 2 0 0 0 4 0"
            case .check: "M5 12.5l4.5 4.5L19 7.5"
            case .plus: "M12 5v14M5 12h14"
            case .home: "M4 11l8-7 8 7M6 9.5V20h4.5v-5.5h3V20H18V9.5"
            }
        }
    }

    public var name: Name
    public var color: Color
    public var lineWidth: Double

    public init(_ name: Name, color: Color = Palette.ink, lineWidth: Double = 1.8) {
        self.name = name
        self.color = color
        self.lineWidth = lineWidth
    }

    public func draw(in canvas: Canvas, size: Size) throws {
        let path = try Path(svgPathData: name.pathData)
        canvas.scaleBy(x: size.width / 24, y: size.height / 24)
        canvas.stroke(path, with: .color(color), style: StrokeStyle(width: lineWidth, cap: .round, join: .round))
    }
}
