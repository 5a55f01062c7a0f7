/// Precomputed brightness products and sibling flags for one band of rows, used when most
/// pixels differ (noise-like images): anti-aliasing detection then reads each pixel's numbers
/// instead of working them out again for every neighbourhood it belongs to. The answers are the
/// same as without the planes; only the cost changes.
extension Pixelmatch {
    struct DensePlanes {
        /// The rows held: the band and one row either side, within the image.
        let rows: Range<Int>
        let width: Int
        /// ``brightnessProduct(_:)`` of every pixel held, per image.
        let firstProducts: UnsafeMutableBufferPointer<Int>
        let secondProducts: UnsafeMutableBufferPointer<Int>
        /// 1 where ``hasManySiblings(_:x:y:)`` holds, per image.
        let firstSiblings: UnsafeMutableBufferPointer<UInt8>
        let secondSiblings: UnsafeMutableBufferPointer<UInt8>

        /// The index of pixel (`x`, `y`) in the planes.
        @inline(__always)
        func index(x: Int, y: Int) -> Int { (y &- rows.lowerBound) &* width &+ x }

        func deallocate() {
            firstProducts.deallocate()
            secondProducts.deallocate()
            firstSiblings.deallocate()
            secondSiblings.deallocate()
        }
    }

    /// Whether so many pixels differ that precomputing planes pays: at least one in eight of
    /// a sample of about 4,000 pixels is over the threshold (and so needs anti-aliasing
    /// detection, twice). Only the speed depends on the answer.
    func differencesAreDense() -> Bool {
        let pixelCount = width * height
        guard !includeAA, pixelCount >= Self.parallelPixelCount else { return false }
        // An odd step, so the sample does not line up with columns.
        let step = (pixelCount / 4096) | 1
        var sampled = 0, over = 0
        for index in stride(from: 0, to: pixelCount, by: step) {
            let pos = index &* 4
            let expected = Self.word(UnsafeRawPointer(first), pos), actual = Self.word(UnsafeRawPointer(second), pos)
            sampled += 1
            if expected != actual && abs(colorDelta(expected, actual, at: pos)) > maxDelta { over += 1 }
        }
        return over * 8 >= sampled
    }

    /// The planes for comparing `band`.
    func makeDensePlanes(for band: Range<Int>) -> DensePlanes {
        let rows = max(band.lowerBound - 1, 0)..<min(band.upperBound + 1, height)
        let count = rows.count * width
        let planes = DensePlanes(
            rows: rows, width: width,
            firstProducts: .allocate(capacity: count), secondProducts: .allocate(capacity: count),
            firstSiblings: .allocate(capacity: count), secondSiblings: .allocate(capacity: count))
        fillPlanes(products: planes.firstProducts, siblings: planes.firstSiblings, of: UnsafeRawPointer(first),
                   rows: rows)
        fillPlanes(products: planes.secondProducts, siblings: planes.secondSiblings, of: UnsafeRawPointer(second),
                   rows: rows)
        return planes
    }

    private func fillPlanes(products: UnsafeMutableBufferPointer<Int>, siblings: UnsafeMutableBufferPointer<UInt8>,
                            of pixels: UnsafeRawPointer, rows: Range<Int>) {
        var index = 0
        for y in rows {
            let interiorRow = y > 0 && y < height - 1
            var x = 0
            while x < width {
                // Four interior pixels at a time: compare each with its eight neighbours at once.
                if interiorRow && x > 0 && x + 4 < width {
                    let center = (y &* width &+ x) &* 4
                    siblings.storeFourSiblingFlags(at: index, equalCounts: equalNeighbourCounts(pixels, center: center))
                    for lane in 0..<4 {
                        products[index &+ lane] = Self.brightnessProduct(Self.word(pixels, center &+ lane &* 4))
                    }
                    x &+= 4
                    index &+= 4
                    continue
                }
                products[index] = Self.brightnessProduct(Self.word(pixels, (y &* width &+ x) &* 4))
                siblings[index] = hasManySiblingsGeneral(pixels, x: x, y: y) ? 1 : 0
                x &+= 1
                index &+= 1
            }
        }
    }

    /// For the four interior pixels starting at byte offset `center`, how many of each one's
    /// eight neighbours equal it.
    @inline(__always)
    private func equalNeighbourCounts(_ pixels: UnsafeRawPointer, center: Int) -> SIMD4<UInt32> {
        let value = pixels.loadUnaligned(fromByteOffset: center, as: SIMD4<UInt32>.self)
        let offsets = neighbourhood.offsets
        var counts = SIMD4<UInt32>.zero
        func count(_ offset: Int) {
            let neighbours = pixels.loadUnaligned(fromByteOffset: center &+ offset, as: SIMD4<UInt32>.self)
            counts = counts.replacing(with: counts &+ 1, where: neighbours .== value)
        }
        count(offsets.0); count(offsets.1); count(offsets.2); count(offsets.3)
        count(offsets.4); count(offsets.5); count(offsets.6); count(offsets.7)
        return counts
    }

    /// ``isAntiAliased(x:y:in:other:)`` for an interior pixel, reading the planes. `fromFirst`
    /// says which image the pixel is looked at in.
    @inline(__always)
    func isAntiAliasedDense(x x1: Int, y y1: Int, fromFirst: Bool, planes: DensePlanes) -> Bool {
        let pixels = UnsafeRawPointer(fromFirst ? first : second)
        let products = fromFirst ? planes.firstProducts : planes.secondProducts
        let center = (y1 &* width &+ x1) &* 4
        let index = planes.index(x: x1, y: y1)
        let row = width
        let p = (products[index &- row &- 1], products[index &- 1], products[index &+ row &- 1],
                 products[index &- row], products[index &+ row],
                 products[index &- row &+ 1], products[index &+ 1], products[index &+ row &+ 1])
        guard let (brightest, darkest) = extremeNeighbours(
            center: Self.word(pixels, center), at: center, products[index], neighbourPixels(pixels, center: center), p)
        else { return false }

        let siblings = fromFirst ? planes.firstSiblings : planes.secondSiblings
        let otherSiblings = fromFirst ? planes.secondSiblings : planes.firstSiblings
        let brightestIndex = index &+ Neighbourhood.dy(brightest) &* row &+ Neighbourhood.dx(brightest)
        let darkestIndex = index &+ Neighbourhood.dy(darkest) &* row &+ Neighbourhood.dx(darkest)
        // All four flags are read, and combined without branches.
        return (siblings[brightestIndex] & otherSiblings[brightestIndex])
            | (siblings[darkestIndex] & otherSiblings[darkestIndex]) != 0
    }
}

private extension UnsafeMutableBufferPointer<UInt8> {
    /// Stores 1 for each lane with more than two equal neighbours, 0 for the others.
    @inline(__always)
    func storeFourSiblingFlags(at index: Int, equalCounts: SIMD4<UInt32>) {
        let flags = SIMD4<UInt32>.zero.replacing(with: 1, where: equalCounts .> 2)
        self[index] = UInt8(truncatingIfNeeded: flags[0])
        self[index &+ 1] = UInt8(truncatingIfNeeded: flags[1])
        self[index &+ 2] = UInt8(truncatingIfNeeded: flags[2])
        self[index &+ 3] = UInt8(truncatingIfNeeded: flags[3])
    }
}
