/// One pixel as straight (not premultiplied) 8-bit red, green, blue and alpha.
public struct RGBA8: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) to 255 (opaque); not premultiplied into the other components.
    public var alpha: UInt8

    /// A pixel from straight 8-bit components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The colour rounded to 8 bits a channel.
    public init(_ color: Color) {
        self.init(red: Color.byte(color.red), green: Color.byte(color.green),
                  blue: Color.byte(color.blue), alpha: Color.byte(color.alpha))
    }

    /// `RGBA8(red, green, blue, alpha)`.
    public var description: String { "RGBA8(\(red), \(green), \(blue), \(alpha))" }
}

/// Conversions between cairo's premultiplied ARGB32 words and straight RGBA bytes.
enum Premultiplication {
    /// `unpremultiplyTable[alpha << 8 | value]`: the straight value of a premultiplied one.
    static let unpremultiplyTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for alpha in 1..<256 {
            for value in 0...alpha {
                table[alpha << 8 | value] = UInt8((value * 255 + alpha / 2) / alpha)
            }
        }
        return table
    }()

    /// `value × alpha / 255`, rounded to nearest, exactly.
    @inline(__always)
    static func premultiply(_ value: UInt32, _ alpha: UInt32) -> UInt32 {
        let product = value * alpha + 128
        return (product + (product >> 8)) >> 8
    }

    /// Straight RGBA of one premultiplied ARGB32 word.
    @inline(__always)
    static func rgba(of word: UInt32, table: UnsafePointer<UInt8>) -> RGBA8 {
        let alpha = Int(word >> 24)
        if alpha == 255 {
            return RGBA8(red: UInt8(truncatingIfNeeded: word >> 16), green: UInt8(truncatingIfNeeded: word >> 8),
                         blue: UInt8(truncatingIfNeeded: word), alpha: 255)
        }
        if alpha == 0 { return RGBA8(red: 0, green: 0, blue: 0, alpha: 0) }
        let row = alpha << 8
        return RGBA8(red: table[row | Int((word >> 16) & 0xFF)], green: table[row | Int((word >> 8) & 0xFF)],
                     blue: table[row | Int(word & 0xFF)], alpha: UInt8(alpha))
    }

    /// The premultiplied ARGB32 word of straight RGBA bytes.
    @inline(__always)
    static func word(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) -> UInt32 {
        let a = UInt32(alpha)
        if a == 255 { return 0xFF00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }
        if a == 0 { return 0 }
        return a << 24 | premultiply(UInt32(red), a) << 16 | premultiply(UInt32(green), a) << 8
            | premultiply(UInt32(blue), a)
    }
}
