import RasterKitTestSupport
import Testing
@testable import RasterKitDiff
@testable import RasterKitTesting

/// The unrolled interior path must answer exactly as the line-by-line port of pixelmatch.
@Suite struct AntiAliasingShortcutTests {
    /// A deterministic pseudo-random opaque image drawn from `palette`, so that equal neighbours,
    /// ties and flat areas all occur.
    static func image(seed: UInt64, palette: [RGBA8], size: Int = 32) -> RGBABitmap {
        var state = seed
        return TestImages.bitmap(width: size, height: size) { _, _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return palette[Int(state >> 33) % palette.count]
        }
    }

    static let palettes: [[RGBA8]] = [
        [TestImages.black, TestImages.white, RGBA8(red: 128, green: 128, blue: 128, alpha: 255)],
        [0, 64, 128, 192, 255].map { RGBA8(red: $0, green: $0, blue: $0, alpha: 255) },
        // Different colours of nearly the same brightness, and one colour that repeats often.
        [RGBA8(red: 200, green: 10, blue: 10, alpha: 255), RGBA8(red: 10, green: 100, blue: 30, alpha: 255),
         RGBA8(red: 60, green: 60, blue: 60, alpha: 255), RGBA8(red: 60, green: 60, blue: 60, alpha: 255),
         RGBA8(red: 255, green: 255, blue: 0, alpha: 255), RGBA8(red: 1, green: 2, blue: 3, alpha: 255)],
        // Translucent and transparent colours, blended over the checkerboard.
        [TestImages.black, TestImages.white, RGBA8(red: 0, green: 0, blue: 0, alpha: 0),
         RGBA8(red: 200, green: 30, blue: 90, alpha: 128), RGBA8(red: 200, green: 30, blue: 90, alpha: 0),
         RGBA8(red: 10, green: 250, blue: 90, alpha: 20)],
    ]

    @Test(arguments: 0..<palettes.count)
    func interiorPathMatchesThePort(palette: Int) {
        let first = Self.image(seed: 1, palette: Self.palettes[palette])
        let second = Self.image(seed: 2, palette: Self.palettes[palette])
        let size = ImageDiff.PixelSize(of: first)
        var mismatches = 0
        var antiAliased = 0
        first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in
                let matcher = Pixelmatch(first: a, second: b, output: nil, size: size, options: .init())
                let pixels = UnsafeRawPointer(matcher.first), otherPixels = UnsafeRawPointer(matcher.second)
                for y in 1..<size.height - 1 {
                    for x in 1..<size.width - 1 {
                        let general = matcher.isAntiAliasedGeneral(x: x, y: y, in: pixels, other: otherPixels)
                        if matcher.isAntiAliasedInterior(x: x, y: y, in: pixels, other: otherPixels) != general {
                            mismatches += 1
                        }
                        if general { antiAliased += 1 }
                        if matcher.hasManySiblings(pixels, x: x, y: y)
                            != matcher.hasManySiblingsGeneral(pixels, x: x, y: y) { mismatches += 1 }
                    }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(antiAliased > 0, "the images should exercise the anti-aliasing answer both ways")
    }

    @Test(arguments: 0..<palettes.count)
    func densePlanesGiveTheSameCountsAndImage(palette: Int) {
        let first = Self.image(seed: 3, palette: Self.palettes[palette], size: 40)
        let second = Self.image(seed: 4, palette: Self.palettes[palette], size: 40)
        let size = ImageDiff.PixelSize(of: first)
        first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in
                // Whole images and a band in the middle, whose planes end inside the image.
                for rows in [0..<size.height, 13..<27] {
                    var sparseCounts = Pixelmatch.Counts(), denseCounts = Pixelmatch.Counts()
                    let sparse = RGBABitmap.make(width: size.width, height: size.height) { output in
                        sparseCounts = Pixelmatch(first: a, second: b, output: output, size: size, options: .init())
                            .compare(rows: rows, dense: false)
                    }
                    let dense = RGBABitmap.make(width: size.width, height: size.height) { output in
                        denseCounts = Pixelmatch(first: a, second: b, output: output, size: size, options: .init())
                            .compare(rows: rows, dense: true)
                    }
                    #expect(sparseCounts.different == denseCounts.different)
                    #expect(sparseCounts.antiAliased == denseCounts.antiAliased)
                    #expect(sparseCounts.antiAliased > 0)
                    #expect(sparse == dense)
                }
            }
        }
    }
}
