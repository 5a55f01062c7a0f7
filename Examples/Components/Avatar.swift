import RasterKit

/// A round avatar with initials on a colour taken from the name, so a person keeps a colour.
public struct Avatar: Rasterizable {
    public var name: String

    public init(name: String) { self.name = name }

    static let colors = [Palette.blue, Palette.green, Palette.red, Palette.amber, Palette.hex("#7C3AED"), Palette.hex("#0891B2")]

    public var initials: String {
        let words = name.split(separator: " ")
        return String(words.prefix(2).compactMap(\.first)).uppercased()
    }

    var color: Color {
        // A stable choice from the name's characters (not Swift's per-process hashValue).
        let sum = name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        return Avatar.colors[sum % Avatar.colors.count]
    }

    public func draw(in canvas: Canvas, size: Size) throws {
        let circle = Rect(size: size).insetBy(dx: 1, dy: 1)
        canvas.fill(Path(ellipseIn: circle), with: Palette.vertical(Palette.lighter(color, 0.2), Palette.darker(color, 0.05), in: circle))
        canvas.stroke(Path(ellipseIn: circle.insetBy(dx: 0.5, dy: 0.5)), with: .color(Color(white: 1, alpha: 0.25)))
        canvas.draw(text: initials, in: circle,
                    style: TextStyle(font: "DejaVu Sans Bold \(Int((size.height * 0.38).rounded()))", color: .white,
                                     alignment: .center, verticalAlignment: .center, wrapping: .none))
    }
}
