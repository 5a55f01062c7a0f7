import RasterKit

/// The colours and fonts the example components share, so they read as one design system.
public enum Palette {
    static func hex(_ text: String) -> Color {
        (try? Color(hex: text)) ?? .black  // literals below are all valid
    }

    public static let blue = hex("#2F6FEB")
    public static let blueDark = hex("#1F54C4")
    public static let green = hex("#1F9D55")
    public static let red = hex("#D93B3B")
    public static let redDark = hex("#B42323")
    public static let amber = hex("#F5A524")
    public static let ink = hex("#0F172A")
    public static let slate = hex("#475569")
    public static let mist = hex("#94A3B8")
    public static let line = hex("#E2E8F0")
    public static let paper = hex("#F8FAFC")
    public static let white = Color.white

    /// A vertical gradient from `top` to `bottom` across `rect`.
    static func vertical(_ top: Color, _ bottom: Color, in rect: Rect) -> Paint {
        .linearGradient(LinearGradient(gradient: Gradient(colors: [top, bottom]),
                                       start: Point(x: rect.midX, y: rect.minY), end: Point(x: rect.midX, y: rect.maxY)))
    }

    /// `color` mixed toward white by `amount` (0...1).
    static func lighter(_ color: Color, _ amount: Double) -> Color {
        Color(red: color.red + (1 - color.red) * amount, green: color.green + (1 - color.green) * amount,
              blue: color.blue + (1 - color.blue) * amount, alpha: color.alpha)
    }

    /// `color` mixed toward black by `amount` (0...1).
    static func darker(_ color: Color, _ amount: Double) -> Color {
        Color(red: color.red * (1 - amount), green: color.green * (1 - amount), blue: color.blue * (1 - amount),
              alpha: color.alpha)
    }
}
