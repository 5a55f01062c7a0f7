/// The anti-aliasing detector for a pixel away from the image's edge, where all eight
/// neighbours exist: pixelmatch's `antialiased` unrolled, with the same answers, comparing
/// brightness as exact integers instead of dividing doubles.
///
/// pixelmatch ranks a neighbour by the double `dr × 0.29889531 + dg × 0.58662247 +
/// db × 0.11448223`, each channel difference being `(c₁a₁ − c₂a₂ − bg·(a₁ − a₂)) / 255`, or
/// plainly `c₁ − c₂` when both pixels are opaque (the same number). With the coefficients
/// scaled by 10⁸, the numerator of that sum, `S = Q₁a₁ − Q₂a₂ − Q_bg·(a₁ − a₂)` with
/// `Q = 29889531r + 58662247g + 11448223b`, is an exact integer, and the true value is
/// `S / (255 × 10⁸)`. Different values of S are at least 1 apart, so the true values differ by
/// at least 3.9e-11, while pixelmatch's doubles stay within 1e-12 of them. Hence S has the sign
/// of pixelmatch's double, and pairs of S the same order, with two exceptions, for which the
/// doubles are used instead: S = 0 from channel differences that are not all 0 (the double may
/// round to a tiny non-zero), and equal S from different channel differences competing for
/// brightest or darkest (the doubles may differ in the last bit, and the first found need not
/// win). Neither can happen when the pixel and its neighbours are all opaque: over channel
/// differences within ±255, `29889531dr + 58662247dg + 11448223db` is 0 only at dr = dg = db = 0
/// and its distinct values are at least 229 apart (checked exhaustively).
extension Pixelmatch {
    /// Byte offsets of the eight neighbours, numbered in pixelmatch's visiting order: column by
    /// column, top to bottom (0 1 2 left, 3 4 above and below, 5 6 7 right). A tuple, so every
    /// access is a constant and the code below is straight-line.
    struct Neighbourhood {
        let offsets: (Int, Int, Int, Int, Int, Int, Int, Int)

        init(width: Int) {
            let row = width * 4
            offsets = (-row - 4, -4, row - 4, -row, row, -row + 4, 4, row + 4)
        }

        /// The x step to neighbour number `index`: -1, -1, -1, 0, 0, 1, 1, 1. Read from bits
        /// packed in a constant rather than switched on, so it costs no unpredictable branch.
        @inline(__always)
        static func dx(_ index: Int) -> Int { (0b10_10_10_01_01_00_00_00 &>> (index &* 2)) & 3 &- 1 }

        /// The y step to neighbour number `index`: -1, 0, 1, -1, 1, -1, 0, 1.
        @inline(__always)
        static func dy(_ index: Int) -> Int { (0b10_01_00_10_00_10_01_00 &>> (index &* 2)) & 3 &- 1 }
    }

    /// The brightest and darkest neighbour seen so far, and how many were equal to the centre.
    struct NeighbourExtremes<Delta: Comparable & AdditiveArithmetic> {
        var equal = 0
        var brightest = Delta.zero, darkest = Delta.zero
        var brightestIndex = 0, darkestIndex = 0

        /// Takes in neighbour number `index`, with `delta` = centre brightness − its brightness.
        @inline(__always)
        mutating func visit(_ delta: Delta, _ index: Int) {
            // pixelmatch returns false as soon as a third equal neighbour turns up; counting
            // them all and deciding afterwards gives the same answer.
            equal &+= delta == .zero ? 1 : 0
            // Strict comparisons keep the first of equally bright neighbours, as pixelmatch does.
            if delta < brightest { brightest = delta; brightestIndex = index }
            if delta > darkest { darkest = delta; darkestIndex = index }
        }

        /// pixelmatch's early answers: a flat area, or no darker or no brighter neighbour.
        var rulesOutAntiAliasing: Bool { equal > 2 || brightest == .zero || darkest == .zero }
    }

    /// Eight values, one per neighbour, in pixelmatch's visiting order.
    typealias Eight<Value> = (Value, Value, Value, Value, Value, Value, Value, Value)

    /// ``NeighbourExtremes`` for exact integer deltas, kept with arithmetic instead of branches:
    /// on noise-like images each comparison is a coin toss that a branch would mispredict.
    /// Deltas stay far below 2⁶², so a difference's sign bit is the comparison.
    struct IntegerExtremes {
        var equal = 0
        var brightest = 0, darkest = 0
        var brightestIndex = 0, darkestIndex = 0

        /// Takes in neighbour number `index`, with `delta` = centre brightness − its brightness.
        @inline(__always)
        mutating func visit(_ delta: Int, _ index: Int) {
            // 1 when delta is 0: otherwise delta | -delta is negative.
            equal &+= ((delta | (0 &- delta)) &>> 63) &+ 1
            // All ones when delta < brightest (strictly, so the first of equals is kept).
            let lower = (delta &- brightest) &>> 63
            brightest ^= (brightest ^ delta) & lower
            brightestIndex ^= (brightestIndex ^ index) & lower
            let higher = (darkest &- delta) &>> 63
            darkest ^= (darkest ^ delta) & higher
            darkestIndex ^= (darkestIndex ^ index) & higher
        }

        /// pixelmatch's early answers: a flat area, or no brighter or no darker neighbour.
        var rulesOutAntiAliasing: Bool { equal > 2 || brightest == 0 || darkest == 0 }
    }

    /// The RGBA words of the eight neighbours of the pixel at byte offset `center`.
    @inline(__always)
    func neighbourPixels(_ pixels: UnsafeRawPointer, center: Int) -> Eight<UInt32> {
        let offsets = neighbourhood.offsets
        return (Self.word(pixels, center &+ offsets.0), Self.word(pixels, center &+ offsets.1),
                Self.word(pixels, center &+ offsets.2), Self.word(pixels, center &+ offsets.3),
                Self.word(pixels, center &+ offsets.4), Self.word(pixels, center &+ offsets.5),
                Self.word(pixels, center &+ offsets.6), Self.word(pixels, center &+ offsets.7))
    }

    /// ``isAntiAliased(x:y:in:other:)`` for a pixel with all eight neighbours.
    @inline(__always)
    func isAntiAliasedInterior(x x1: Int, y y1: Int, in pixels: UnsafeRawPointer,
                               other otherPixels: UnsafeRawPointer) -> Bool {
        let center = (y1 &* width &+ x1) &* 4
        let c = Self.word(pixels, center)
        let n = neighbourPixels(pixels, center: center)
        let p = (Self.brightnessProduct(n.0), Self.brightnessProduct(n.1), Self.brightnessProduct(n.2),
                 Self.brightnessProduct(n.3), Self.brightnessProduct(n.4), Self.brightnessProduct(n.5),
                 Self.brightnessProduct(n.6), Self.brightnessProduct(n.7))
        guard let (brightest, darkest) = extremeNeighbours(center: c, at: center, Self.brightnessProduct(c), n, p)
        else { return false }

        let brightestX = x1 &+ Neighbourhood.dx(brightest), brightestY = y1 &+ Neighbourhood.dy(brightest)
        let darkestX = x1 &+ Neighbourhood.dx(darkest), darkestY = y1 &+ Neighbourhood.dy(darkest)
        return (hasManySiblings(pixels, x: brightestX, y: brightestY)
            && hasManySiblings(otherPixels, x: brightestX, y: brightestY))
            || (hasManySiblings(pixels, x: darkestX, y: darkestY)
                && hasManySiblings(otherPixels, x: darkestX, y: darkestY))
    }

    /// The numbers (0 to 7) of the brightest and darkest neighbour of the centre pixel `c` at
    /// byte offset `center`, as pixelmatch picks them, or nil when pixelmatch rules
    /// anti-aliasing out before looking at siblings. `pc` and `p` are the brightness products
    /// (``brightnessProduct(_:)``) of the centre and of its neighbours `n`.
    @inline(__always)
    func extremeNeighbours(center c: UInt32, at center: Int, _ pc: Int, _ n: Eight<UInt32>,
                           _ p: Eight<Int>) -> (brightest: Int, darkest: Int)? {
        var extremes = IntegerExtremes()
        if (c & n.0 & n.1 & n.2 & n.3 & n.4 & n.5 & n.6 & n.7) >> 24 == 0xFF {
            extremes.visit(pc &- p.0, 0)
            extremes.visit(pc &- p.1, 1)
            extremes.visit(pc &- p.2, 2)
            extremes.visit(pc &- p.3, 3)
            extremes.visit(pc &- p.4, 4)
            extremes.visit(pc &- p.5, 5)
            extremes.visit(pc &- p.6, 6)
            extremes.visit(pc &- p.7, 7)
            return extremes.rulesOutAntiAliasing ? nil : (extremes.brightestIndex, extremes.darkestIndex)
        }
        return translucentExtremeNeighbours(center: c, at: center, pc, n, p)
    }

    /// ``extremeNeighbours(center:at:_:_:_:)`` when a pixel is not opaque. Kept out of line so
    /// the opaque case, by far the most common, stays small.
    @inline(never)
    func translucentExtremeNeighbours(center c: UInt32, at center: Int, _ pc: Int, _ n: Eight<UInt32>,
                                      _ p: Eight<Int>) -> (brightest: Int, darkest: Int)? {
        var extremes = IntegerExtremes()
        // The background depends on the centre's offset only, so it is worked out once.
        let under = background(at: center)
        let underBrightness = under.red &* 29_889_531 &+ under.green &* 58_662_247 &+ under.blue &* 11_448_223
        let centerAlpha = Int(c >> 24)
        func delta(_ neighbour: UInt32, _ product: Int) -> Int {
            pc &- product &- underBrightness &* (centerAlpha &- Int(neighbour >> 24))
        }
        let d = (delta(n.0, p.0), delta(n.1, p.1), delta(n.2, p.2), delta(n.3, p.3),
                 delta(n.4, p.4), delta(n.5, p.5), delta(n.6, p.6), delta(n.7, p.7))
        extremes.visit(d.0, 0)
        extremes.visit(d.1, 1)
        extremes.visit(d.2, 2)
        extremes.visit(d.3, 3)
        extremes.visit(d.4, 4)
        extremes.visit(d.5, 5)
        extremes.visit(d.6, 6)
        extremes.visit(d.7, 7)
        let found = extremes.rulesOutAntiAliasing ? nil : (extremes.brightestIndex, extremes.darkestIndex)
        // S = 0 from channel differences that are not all 0, or an extreme S shared by another
        // neighbour colour: pixelmatch's rounding decides those, so ask its doubles. Both are
        // rare; counting first keeps the common case free of unpredictable branches.
        func isZero(_ value: Int) -> Int { ((value | (0 &- value)) &>> 63) &+ 1 }
        func ties(_ value: Int) -> Int {
            isZero(d.0 &- value) &+ isZero(d.1 &- value) &+ isZero(d.2 &- value) &+ isZero(d.3 &- value)
                &+ isZero(d.4 &- value) &+ isZero(d.5 &- value) &+ isZero(d.6 &- value) &+ isZero(d.7 &- value)
        }
        if extremes.equal == 0 && ties(extremes.brightest) < 2 && ties(extremes.darkest) < 2 { return found }
        let brightestPixel = Self.pick(n, extremes.brightestIndex)
        let darkestPixel = Self.pick(n, extremes.darkestIndex)
        func isAmbiguous(_ delta: Int, _ neighbour: UInt32) -> Bool {
            if delta == 0 {
                return neighbour != c && !Self.hasZeroChannelDifferences(c, neighbour, background: under)
            }
            return (delta == extremes.brightest && neighbour != brightestPixel)
                || (delta == extremes.darkest && neighbour != darkestPixel)
        }
        let ambiguous = isAmbiguous(d.0, n.0) || isAmbiguous(d.1, n.1) || isAmbiguous(d.2, n.2)
            || isAmbiguous(d.3, n.3) || isAmbiguous(d.4, n.4) || isAmbiguous(d.5, n.5)
            || isAmbiguous(d.6, n.6) || isAmbiguous(d.7, n.7)
        if !ambiguous { return found }

        var exact = NeighbourExtremes<Double>()
        exact.visit(Self.brightnessDelta(c, n.0, background: under), 0)
        exact.visit(Self.brightnessDelta(c, n.1, background: under), 1)
        exact.visit(Self.brightnessDelta(c, n.2, background: under), 2)
        exact.visit(Self.brightnessDelta(c, n.3, background: under), 3)
        exact.visit(Self.brightnessDelta(c, n.4, background: under), 4)
        exact.visit(Self.brightnessDelta(c, n.5, background: under), 5)
        exact.visit(Self.brightnessDelta(c, n.6, background: under), 6)
        exact.visit(Self.brightnessDelta(c, n.7, background: under), 7)
        return exact.rulesOutAntiAliasing ? nil : (exact.brightestIndex, exact.darkestIndex)
    }

    /// Element `index` of `values`.
    @inline(__always)
    static func pick(_ values: Eight<UInt32>, _ index: Int) -> UInt32 {
        withUnsafeBytes(of: values) { $0.load(fromByteOffset: index &* 4, as: UInt32.self) }
    }

    /// Whether every blended channel difference from `center` to `neighbour` is 0, so that
    /// pixelmatch's double is exactly 0 too.
    static func hasZeroChannelDifferences(_ center: UInt32, _ neighbour: UInt32, background: Background) -> Bool {
        let centerAlpha = Int(center >> 24), alpha = Int(neighbour >> 24)
        func difference(_ shift: UInt32, _ background: Int) -> Int {
            Int((center >> shift) & 0xFF) &* centerAlpha &- Int((neighbour >> shift) & 0xFF) &* alpha
                &- background &* (centerAlpha &- alpha)
        }
        return difference(0, background.red) == 0 && difference(8, background.green) == 0
            && difference(16, background.blue) == 0
    }

    /// How many of the interior pixel at byte offset `center`'s eight neighbours equal it.
    @inline(__always)
    func equalNeighbourCount(_ pixels: UnsafeRawPointer, center: Int) -> Int {
        let value = Self.word(pixels, center)
        let offsets = neighbourhood.offsets
        func equal(_ offset: Int) -> Int { Self.word(pixels, center &+ offset) == value ? 1 : 0 }
        return equal(offsets.0) &+ equal(offsets.1) &+ equal(offsets.2) &+ equal(offsets.3)
            &+ equal(offsets.4) &+ equal(offsets.5) &+ equal(offsets.6) &+ equal(offsets.7)
    }

    /// Q·a of an RGBA word: pixelmatch's brightness coefficients × 10⁸ applied to its colour,
    /// times its alpha. Exact; S (see above) is made of these.
    @inline(__always)
    static func brightnessProduct(_ word: UInt32) -> Int {
        (Int(word & 0xFF) &* 29_889_531 &+ Int((word >> 8) & 0xFF) &* 58_662_247
            &+ Int((word >> 16) & 0xFF) &* 11_448_223) &* Int(word >> 24)
    }
}
