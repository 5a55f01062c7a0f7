/// pixelmatch's colour distance, after "Measuring perceived color difference using YIQ NTSC
/// transmission color space in mobile applications" (Y. Kotsarenko, F. Ramos, 2010).
///
/// Every expression keeps pixelmatch's operand order: floating-point sums are not associative,
/// and a last-bit difference can move a pixel across the threshold or change which neighbour
/// anti-aliasing detection picks.
extension Pixelmatch {
    /// The colour semi-transparent pixels are blended over.
    struct Background {
        let red: Int
        let green: Int
        let blue: Int

        static let white = Background(red: 255, green: 255, blue: 255)
    }

    /// The background at byte offset `k`: pixelmatch v7's per-pixel pseudo-checkerboard
    /// (channels of 48 or 207 chosen from `k`), or white.
    @inline(__always)
    func background(at k: Int) -> Background {
        guard checkerboard else { return .white }
        // JavaScript's `k / 1.618033988749895 | 0` truncates to a signed 32-bit integer, and
        // its `%` keeps the dividend's sign; Swift's `%` on Int32 does the same.
        let green = Int32(truncatingIfNeeded: Int64(Double(k) / 1.618033988749895)) % 2
        let blue = Int32(truncatingIfNeeded: Int64(Double(k) / 2.618033988749895)) % 2
        return Background(red: 48 &+ 159 &* (k % 2), green: 48 &+ 159 &* Int(green), blue: 48 &+ 159 &* Int(blue))
    }

    /// Squared YIQ distance between the expected and actual pixels found at byte offset `pos`;
    /// negative when the actual pixel is darker. pixelmatch's `colorDelta(…, yOnly: false)`.
    @inline(__always)
    func colorDelta(_ expected: UInt32, _ actual: UInt32, at pos: Int) -> Double {
        guard let (dr, dg, db) = Self.channelDifferences(expected, actual, background: background(at: pos)) else {
            return 0
        }
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    /// Brightness (Y) difference between two pixels of one image: positive when `center` is
    /// brighter than `neighbour`. pixelmatch's `colorDelta(img, img, k, m, yOnly: true)`, whose
    /// background comes from the centre's offset `k` and so is the same for every neighbour.
    @inline(__always)
    static func brightnessDelta(_ center: UInt32, _ neighbour: UInt32, background: Background) -> Double {
        guard let (dr, dg, db) = channelDifferences(center, neighbour, background: background) else { return 0 }
        return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    }

    /// Red, green and blue differences of two RGBA words (red in the lowest byte), with
    /// semi-transparent pixels blended over `background`; nil when the pixels are equal.
    @inline(__always)
    static func channelDifferences(_ pixel1: UInt32, _ pixel2: UInt32,
                                   background: @autoclosure () -> Background) -> (Double, Double, Double)? {
        if pixel1 == pixel2 { return nil }
        let r1 = Int(pixel1 & 0xFF), g1 = Int((pixel1 >> 8) & 0xFF), b1 = Int((pixel1 >> 16) & 0xFF)
        let r2 = Int(pixel2 & 0xFF), g2 = Int((pixel2 >> 8) & 0xFF), b2 = Int((pixel2 >> 16) & 0xFF)
        let a1 = Int(pixel1 >> 24), a2 = Int(pixel2 >> 24)
        guard a1 < 255 || a2 < 255 else { return (Double(r1 &- r2), Double(g1 &- g2), Double(b1 &- b2)) }
        // Integer numerators are exact, as they are in JavaScript's doubles.
        let da = a1 &- a2
        let under = background()
        return (Double(r1 &* a1 &- r2 &* a2 &- under.red &* da) / 255,
                Double(g1 &* a1 &- g2 &* a2 &- under.green &* da) / 255,
                Double(b1 &* a1 &- b2 &* a2 &- under.blue &* da) / 255)
    }

    /// The pixel at byte offset `pos` as a word holding red in its lowest byte, alpha in its highest.
    @inline(__always)
    static func word(_ pixels: UnsafeRawPointer, _ pos: Int) -> UInt32 {
        UInt32(littleEndian: pixels.loadUnaligned(fromByteOffset: pos, as: UInt32.self))
    }
}
