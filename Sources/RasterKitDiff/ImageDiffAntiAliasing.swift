/// pixelmatch's anti-aliasing detector, after "Anti-aliased Pixel and Intensity Slope Detector"
/// (V. Vyšniauskas, 2009). Neighbours are visited column by column, as pixelmatch does: when two
/// neighbours are equally dark or bright, the first one found is the one that counts.
extension Pixelmatch {
    /// Whether the pixel at (`x1`, `y1`) of the image `pixels` looks like anti-aliasing: it has
    /// both a darker and a brighter neighbour, at most two equal ones, and the brightest or the
    /// darkest of them sits in a flat area (3+ equal neighbours) in both images, `pixels` and
    /// `otherPixels`. pixelmatch's `antialiased`.
    @inline(__always)
    func isAntiAliased(x x1: Int, y y1: Int, in pixels: UnsafeRawPointer, other otherPixels: UnsafeRawPointer) -> Bool {
        if x1 > 0, y1 > 0, x1 < width - 1, y1 < height - 1 {
            return isAntiAliasedInterior(x: x1, y: y1, in: pixels, other: otherPixels)
        }
        return isAntiAliasedGeneral(x: x1, y: y1, in: pixels, other: otherPixels)
    }

    /// ``isAntiAliased(x:y:in:other:)`` for any pixel: pixelmatch's `antialiased`, line by line.
    func isAntiAliasedGeneral(x x1: Int, y y1: Int, in pixels: UnsafeRawPointer,
                              other otherPixels: UnsafeRawPointer) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let center = (y1 * width + x1) * 4
        let centerPixel = Self.word(pixels, center)
        let under = background(at: center)
        // A pixel on the image's edge has missing neighbours, counted as one equal neighbour.
        var equalNeighbours = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        // Brightness deltas are centre minus neighbour: the brightest neighbour has the lowest.
        var brightest = 0.0, darkest = 0.0
        var brightestX = 0, brightestY = 0, darkestX = 0, darkestY = 0

        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let delta = Self.brightnessDelta(centerPixel, Self.word(pixels, (y * width + x) * 4), background: under)
                if delta == 0 {
                    equalNeighbours += 1
                    // More than two equal neighbours: a flat area, not an edge.
                    if equalNeighbours > 2 { return false }
                } else if delta < brightest {
                    brightest = delta
                    brightestX = x
                    brightestY = y
                } else if delta > darkest {
                    darkest = delta
                    darkestX = x
                    darkestY = y
                }
            }
        }
        // Anti-aliasing sits between a darker and a brighter colour.
        if brightest == 0 || darkest == 0 { return false }

        return (hasManySiblings(pixels, x: brightestX, y: brightestY)
            && hasManySiblings(otherPixels, x: brightestX, y: brightestY))
            || (hasManySiblings(pixels, x: darkestX, y: darkestY)
                && hasManySiblings(otherPixels, x: darkestX, y: darkestY))
    }

    /// Whether the pixel at (`x1`, `y1`) has 3+ neighbours of exactly its RGBA (edges count as
    /// one). pixelmatch's `hasManySiblings`, on 32-bit words.
    func hasManySiblings(_ pixels: UnsafeRawPointer, x x1: Int, y y1: Int) -> Bool {
        if x1 > 0, y1 > 0, x1 < width - 1, y1 < height - 1 {
            return equalNeighbourCount(pixels, center: (y1 &* width &+ x1) &* 4) > 2
        }
        return hasManySiblingsGeneral(pixels, x: x1, y: y1)
    }

    /// ``hasManySiblings(_:x:y:)`` for any pixel: pixelmatch's `hasManySiblings`, line by line.
    func hasManySiblingsGeneral(_ pixels: UnsafeRawPointer, x x1: Int, y y1: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let value = Self.word(pixels, (y1 * width + x1) * 4)
        var equalNeighbours = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0

        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                if Self.word(pixels, (y * width + x) * 4) == value {
                    equalNeighbours += 1
                    if equalNeighbours > 2 { return true }
                }
            }
        }
        return false
    }
}
