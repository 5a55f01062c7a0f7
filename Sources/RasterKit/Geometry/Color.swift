/// An sRGB colour with straight (not premultiplied) alpha; each component in 0...1.
///
/// ```swift
/// let accent = try Color(hex: "#2F6FEB")
/// let glass = Color(red: 1, green: 1, blue: 1, alpha: 0.4)
/// ```
public struct Color: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Red, from 0 to 1.
    public var red: Double
    /// Green, from 0 to 1.
    public var green: Double
    /// Blue, from 0 to 1.
    public var blue: Double
    /// Opacity, from 0 (transparent) to 1 (opaque); not premultiplied into the other components.
    public var alpha: Double

    /// A colour from sRGB components, each from 0 to 1, and straight alpha.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A grey of the given lightness.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (case-insensitive).
    public init(hex: String) throws(ColorError) {
        guard hex.first == "#" else { throw ColorError(input: hex, reason: "must start with #") }
        let digits = Array(hex.utf8.dropFirst())
        var values: [UInt8] = []
        for byte in digits {
            guard let value = HexDigits.value(of: byte) else {
                throw ColorError(input: hex, reason: "contains a character that is not a hexadecimal digit")
            }
            values.append(value)
        }
        func channel(_ high: UInt8, _ low: UInt8) -> Double { Double(high << 4 | low) / 255 }
        switch values.count {
        case 3, 4:
            let alpha = values.count == 4 ? channel(values[3], values[3]) : 1
            self.init(red: channel(values[0], values[0]), green: channel(values[1], values[1]),
                      blue: channel(values[2], values[2]), alpha: alpha)
        case 6, 8:
            let alpha = values.count == 8 ? channel(values[6], values[7]) : 1
            self.init(red: channel(values[0], values[1]), green: channel(values[2], values[3]),
                      blue: channel(values[4], values[5]), alpha: alpha)
        default:
            throw ColorError(input: hex, reason: "needs 3, 4, 6 or 8 hexadecimal digits after #, found \(values.count)")
        }
    }


    /// The same colour with a different alpha.
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque; components clamped to 0...1.
    public var hexString: String {
        let bytes = [red, green, blue, alpha].map { Color.byte($0) }
        let shown = bytes[3] == 255 ? bytes.prefix(3) : bytes[...]
        return "#" + shown.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// A component as an 8-bit value, rounded; NaN becomes 0.
    static func byte(_ component: Double) -> UInt8 {
        guard !component.isNaN else { return 0 }
        return UInt8((min(max(component, 0), 1) * 255).rounded())
    }

    /// The colour as ``hexString``: `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var description: String { hexString }

    /// Opaque black, `#000000`.
    public static let black = Color(white: 0)
    /// Opaque white, `#FFFFFF`.
    public static let white = Color(white: 1)
    /// Fully transparent black: draws nothing with the normal blend mode.
    public static let clear = Color(white: 0, alpha: 0)
    /// Opaque pure red, `#FF0000`.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque pure green, `#00FF00`.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque pure blue, `#0000FF`.
    public static let blue = Color(red: 0, green: 0, blue: 1)
}

/// A colour string that `Color(hex:)` or `Color(parsing:)` cannot read.
public struct ColorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that was given.
    public var input: String
    /// What is wrong with it.
    public var reason: String

    /// The text, the reason and the forms a colour may take.
    public var description: String {
        "invalid colour \"\(input)\": \(reason) (expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA or a CSS colour name)"
    }
}
