import Dispatch
import Foundation

/// pixelmatch v7.2.0's per-pixel comparison (mapbox/pixelmatch, ISC licence), ported to work on
/// raw buffers. Colour distances and the diff image use pixelmatch's arithmetic in its order;
/// anti-aliasing detection ranks brightness with exact integers where that provably gives the
/// same answers (see ImageDiffInteriorAntiAliasing.swift), so counts and images match exactly.
///
/// Only reads `first` and `second`; each call of `compare(rows:)` writes only its own rows of
/// `output`. That is what makes comparing row bands on several threads at once safe.
struct Pixelmatch: @unchecked Sendable {
    /// Pixels counted as different, and pixels over the threshold excused as anti-aliasing;
    /// where the different ones lie, and the one whose colour changed most.
    struct Counts: Sendable {
        var different = 0
        var antiAliased = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        /// The largest colour distance counted (pixelmatch's squared YIQ delta, unsigned), and where.
        var largestDelta = 0.0, largestX = 0, largestY = 0

        /// Counts a different pixel at (`x`, `y`) whose squared YIQ distance is `delta`.
        @inline(__always)
        mutating func countDifference(x: Int, y: Int, delta: Double) {
            different &+= 1
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
            if delta > largestDelta { (largestDelta, largestX, largestY) = (delta, x, y) }
        }

        /// These counts and `other`'s, of rows that follow these.
        mutating func add(_ other: Counts) {
            different += other.different
            antiAliased += other.antiAliased
            minX = min(minX, other.minX)
            maxX = max(maxX, other.maxX)
            minY = min(minY, other.minY)
            maxY = max(maxY, other.maxY)
            // Ties keep the first in reading order, as one band would.
            if other.largestDelta > largestDelta { (largestDelta, largestX, largestY) = (other.largestDelta, other.largestX, other.largestY) }
        }
    }

    let first: UnsafePointer<UInt8>
    let second: UnsafePointer<UInt8>
    let output: UnsafeMutablePointer<UInt8>?
    let width: Int
    let height: Int
    /// pixelmatch's `maxDelta`: 35215 (the largest YIQ distance) × threshold².
    let maxDelta: Double
    let includeAA: Bool
    let antiAliasing: ImageDiff.AntiAliasingRule
    let diffMask: Bool
    let checkerboard: Bool
    let alpha: Double
    let aaColor: RGBA8
    let diffColor: RGBA8
    let diffColorAlt: RGBA8
    let neighbourhood: Neighbourhood

    /// Images with fewer pixels are compared on the calling thread; handing out work costs more.
    static let parallelPixelCount = 1 << 18

    init(first: UnsafeBufferPointer<UInt8>, second: UnsafeBufferPointer<UInt8>,
         output: UnsafeMutableBufferPointer<UInt8>?, size: ImageDiff.PixelSize, options: ImageDiff.Options) {
        // Both buffers come from non-empty RGBABitmaps, so their base addresses exist.
        self.first = first.baseAddress.unsafelyUnwrapped
        self.second = second.baseAddress.unsafelyUnwrapped
        self.output = output?.baseAddress
        width = size.width
        height = size.height
        maxDelta = 35215 * options.threshold * options.threshold
        includeAA = options.includeAA
        antiAliasing = options.antiAliasing
        diffMask = options.diffMask
        checkerboard = options.checkerboard
        alpha = options.alpha
        aaColor = options.aaColor
        diffColor = options.diffColor
        diffColorAlt = options.diffColorAlt ?? options.diffColor
        neighbourhood = Neighbourhood(width: size.width)
    }

    /// Compares every pixel, in row bands on all cores when the image is large.
    func run() -> Counts {
        let workers = Processors.available
        let dense = differencesAreDense()
        guard workers > 1, width * height >= Self.parallelPixelCount, height > 1 else {
            return compare(rows: 0..<height, dense: dense)
        }
        // More bands than cores, so a band full of differences does not leave a core idle.
        let bandCount = min(height, workers * 8)
        var bandCounts = [Counts](repeating: Counts(), count: bandCount)
        bandCounts.withUnsafeMutableBufferPointer { slots in
            nonisolated(unsafe) let slots = slots
            DispatchQueue.concurrentPerform(iterations: bandCount) { band in
                slots[band] = compare(rows: height * band / bandCount..<height * (band + 1) / bandCount, dense: dense)
            }
        }
        return bandCounts.reduce(into: Counts()) { $0.add($1) }
    }

    /// pixelmatch's main loop over `rows`; `dense` precomputes planes for anti-aliasing detection.
    func compare(rows: Range<Int>, dense: Bool = false) -> Counts {
        var counts = Counts()
        let planes = dense && !rows.isEmpty ? makeDensePlanes(for: rows) : nil
        defer { planes?.deallocate() }
        let firstPixels = UnsafeRawPointer(first)
        let secondPixels = UnsafeRawPointer(second)
        for y in rows {
            for x in 0..<width {
                let pos = (y &* width &+ x) &* 4
                // pixelmatch's own early-out: equal RGBA words have no colour distance.
                let expected = Self.word(firstPixels, pos), actual = Self.word(secondPixels, pos)
                // Negative when the actual pixel is darker.
                let delta = expected == actual ? 0 : colorDelta(expected, actual, at: pos)
                if abs(delta) > maxDelta {
                    if !includeAA && isExcusedAsAntiAliasing(x: x, y: y, planes: planes) {
                        counts.antiAliased += 1
                        // A mask shows only real differences, never anti-aliasing.
                        if let output, !diffMask { Self.draw(aaColor, at: pos, in: output) }
                    } else {
                        counts.countDifference(x: x, y: y, delta: abs(delta))
                        if let output { Self.draw(delta < 0 ? diffColorAlt : diffColor, at: pos, in: output) }
                    }
                } else if let output, !diffMask {
                    Self.drawFaded(first, at: pos, alpha: alpha, in: output)
                }
            }
        }
        return counts
    }

    /// pixelmatch's `antialiased(img1, …) || antialiased(img2, …)`; under the ``ImageDiff/AntiAliasingRule/color``
    /// rule, also a blend of its neighbours' colours in both images.
    @inline(__always)
    func isExcusedAsAntiAliasing(x: Int, y: Int, planes: DensePlanes?) -> Bool {
        let firstPixels = UnsafeRawPointer(first), secondPixels = UnsafeRawPointer(second)
        let byBrightness: Bool
        if let planes, x > 0, y > 0, x < width - 1, y < height - 1 {
            byBrightness = isAntiAliasedDense(x: x, y: y, fromFirst: true, planes: planes)
                || isAntiAliasedDense(x: x, y: y, fromFirst: false, planes: planes)
        } else {
            byBrightness = isAntiAliased(x: x, y: y, in: firstPixels, other: secondPixels)
                || isAntiAliased(x: x, y: y, in: secondPixels, other: firstPixels)
        }
        guard byBrightness, antiAliasing == .color else { return byBrightness }
        return colorLiesBetweenNeighbours(firstPixels, x: x, y: y) && colorLiesBetweenNeighbours(secondPixels, x: x, y: y)
    }

    /// `image` faded to grey as pixelmatch draws the background of a diff image.
    static func fadedCopy(of image: RGBABitmap, alpha: Double) -> RGBABitmap {
        image.withUnsafeBytes { source in
            RGBABitmap.make(width: image.width, height: image.height) { output in
                guard let from = source.baseAddress, let to = output.baseAddress else { return }
                for pos in stride(from: 0, to: source.count, by: 4) { drawFaded(from, at: pos, alpha: alpha, in: to) }
            }
        }
    }

    /// pixelmatch's `drawPixel`.
    @inline(__always)
    static func draw(_ color: RGBA8, at pos: Int, in output: UnsafeMutablePointer<UInt8>) {
        output[pos] = color.red
        output[pos &+ 1] = color.green
        output[pos &+ 2] = color.blue
        output[pos &+ 3] = color.alpha
    }

    /// pixelmatch's `drawGrayPixel`: the pixel's brightness blended with white at `alpha`.
    @inline(__always)
    static func drawFaded(_ image: UnsafePointer<UInt8>, at pos: Int, alpha: Double,
                          in output: UnsafeMutablePointer<UInt8>) {
        let brightness = Double(image[pos]) * 0.29889531 + Double(image[pos &+ 1]) * 0.58662247
            + Double(image[pos &+ 2]) * 0.11448223
        let value = 255 + (brightness - 255) * alpha * Double(image[pos &+ 3]) / 255
        // JavaScript stores a number into a Uint8Array by truncating it; value is within 0..<256.
        let byte = UInt8(truncatingIfNeeded: Int(value))
        output[pos] = byte
        output[pos &+ 1] = byte
        output[pos &+ 2] = byte
        output[pos &+ 3] = 255
    }
}
