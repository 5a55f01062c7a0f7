extension ImageDiff {
    /// Which pixels over the threshold are excused as anti-aliasing (unless `includeAA`).
    public enum AntiAliasingRule: String, Hashable, Sendable, CaseIterable, Codable {
        /// pixelmatch v7's test, by brightness alone: the pixel is between a darker and a brighter
        /// neighbour, and one of those sits in a flat area in both images. Gives pixelmatch's
        /// counts; also excuses a text-edge pixel replaced by any colour of the right brightness.
        case brightness
        /// pixelmatch's test, and the pixel's colour is a blend of its neighbours' in both images:
        /// it lies on the line between its darkest and its brightest neighbour (blended over
        /// white), within a fifth of their distance plus 8 levels. Edge pixels a renderer blends
        /// from the colours around them pass; a pixel of a new hue does not.
        case color
    }
}

extension Pixelmatch {
    /// Whether the pixel at (`x`, `y`) of `pixels` is, within tolerance, a blend of its darkest
    /// and brightest neighbours (colours blended over white, by pixelmatch's brightness).
    func colorLiesBetweenNeighbours(_ pixels: UnsafeRawPointer, x: Int, y: Int) -> Bool {
        let center = Self.overWhite(Self.word(pixels, (y &* width &+ x) &* 4))
        var darkest = center, brightest = center
        var darkestY = Double.infinity, brightestY = -Double.infinity
        for ny in max(y - 1, 0)...min(y + 1, height - 1) {
            for nx in max(x - 1, 0)...min(x + 1, width - 1) where nx != x || ny != y {
                let colour = Self.overWhite(Self.word(pixels, (ny &* width &+ nx) &* 4))
                let brightness = colour.0 * 0.29889531 + colour.1 * 0.58662247 + colour.2 * 0.11448223
                if brightness < darkestY { (darkestY, darkest) = (brightness, colour) }
                if brightness > brightestY { (brightestY, brightest) = (brightness, colour) }
            }
        }
        // The nearest point to the centre on the segment from the darkest to the brightest.
        let span = (brightest.0 - darkest.0, brightest.1 - darkest.1, brightest.2 - darkest.2)
        let length2 = span.0 * span.0 + span.1 * span.1 + span.2 * span.2
        let offset = (center.0 - darkest.0, center.1 - darkest.1, center.2 - darkest.2)
        let t = length2 == 0 ? 0 : min(max((offset.0 * span.0 + offset.1 * span.1 + offset.2 * span.2) / length2, 0), 1)
        let miss = (offset.0 - t * span.0, offset.1 - t * span.1, offset.2 - t * span.2)
        let distance = (miss.0 * miss.0 + miss.1 * miss.1 + miss.2 * miss.2).squareRoot()
        return distance <= 0.2 * length2.squareRoot() + 8
    }

    /// The RGB of a straight-alpha RGBA word blended over white, in 0...255.
    @inline(__always)
    static func overWhite(_ word: UInt32) -> (Double, Double, Double) {
        let alpha = Double((word >> 24) & 0xFF) / 255
        func channel(_ shift: UInt32) -> Double { 255 + (Double((word >> shift) & 0xFF) - 255) * alpha }
        return (channel(0), channel(8), channel(16))
    }
}
