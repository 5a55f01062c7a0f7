import Foundation

/// A Gaussian blur of premultiplied ARGB32 pixels, in place. Each axis is blurred as rows: the
/// horizontal pass over the image's rows, the vertical one over the rows of its transpose, so
/// both read memory in order. From σ = 2 pixels three box blurs approximate the Gaussian (SVG
/// 1.1 §15.17), each a running sum costing the same whatever the radius; below it, where boxes
/// are too coarse, a sampled Gaussian kernel is applied directly.
///
/// Rows are blurred on a padded copy reaching as far as the blur spreads, so that what spreads
/// past an edge and back is counted as a Gaussian of the whole (transparent- or edge-extended)
/// plane would count it.
enum PixelBlur {
    static func blur(_ pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, sigma: Double,
                     extendsEdges: Bool) throws {
        let method = Method(sigma: sigma)
        let transposed = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        defer { transposed.deallocate() }
        blurRows(pixels, count: height, length: width, method: method, extendsEdges: extendsEdges)
        transpose(pixels, into: transposed, width: width, height: height)
        blurRows(transposed, count: width, length: height, method: method, extendsEdges: extendsEdges)
        transpose(transposed, into: pixels, width: height, height: width)
    }

    /// How one row is blurred.
    enum Method {
        /// Three running sums of (left, right) extents.
        case boxes([(left: Int, right: Int)])
        /// A symmetric kernel of 16.16 fixed-point weights summing to 65,536, centre first.
        case kernel([Int])

        init(sigma: Double) {
            if sigma >= 2 {
                self = .boxes(GaussianBlur.boxPasses(sigma: sigma))
                return
            }
            let radius = max(1, Int((3 * sigma).rounded(.up)))
            let weights = (0...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let sides: Double = weights.dropFirst().reduce(0, +)
            let total = weights[0] + 2 * sides
            var fixed = weights.map { Int(($0 / total * 65_536).rounded()) }
            // The rounding remainder goes to the centre, so a flat area stays exactly flat.
            let fixedSides: Int = fixed.dropFirst().reduce(0, +)
            fixed[0] += 65_536 - (fixed[0] + 2 * fixedSides)
            self = .kernel(fixed)
        }

        /// How far the blur reaches on each side, in pixels.
        var reach: Int {
            switch self {
            case .boxes(let passes): passes.reduce(0) { $0 + max($1.left, $1.right) }
            case .kernel(let weights): weights.count - 1
            }
        }
    }

    private static func blurRows(_ rows: UnsafeMutablePointer<UInt32>, count: Int, length: Int, method: Method,
                                 extendsEdges: Bool) {
        let pad = method.reach
        let padded = length + 2 * pad
        let line = UnsafeMutablePointer<UInt32>.allocate(capacity: padded)
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: padded)
        defer { line.deallocate(); scratch.deallocate() }
        for index in 0..<count {
            let row = rows + index * length
            line.initialize(repeating: extendsEdges ? row[0] : 0, count: pad)
            (line + pad).update(from: row, count: length)
            (line + pad + length).initialize(repeating: extendsEdges ? row[length - 1] : 0, count: pad)
            switch method {
            case .boxes(let passes):
                var input = line, output = scratch
                for pass in passes {
                    box(input, into: output, count: padded, left: pass.left, right: pass.right, extendsEdges: extendsEdges)
                    swap(&input, &output)
                }
                row.update(from: input + pad, count: length)
            case .kernel(let weights):
                convolve(line, into: row, from: pad, count: length, weights: weights)
            }
        }
    }

    /// `output[i]` = the mean of `input[i - left ... i + right]`; beyond the ends, zeros or the
    /// end values. Two channels are summed per 64-bit word (each in its own 32-bit half).
    private static func box(_ input: UnsafeMutablePointer<UInt32>, into output: UnsafeMutablePointer<UInt32>, count: Int,
                            left: Int, right: Int, extendsEdges: Bool) {
        let first = extendsEdges ? input[0] : 0, last = extendsEdges ? input[count - 1] : 0
        let size = UInt64(left + right + 1)
        // Division by `size` as a multiply: exact to well under half a level for any sum here.
        let reciprocal = (UInt64(1) << 32) / size + 1
        let half = size / 2
        var blueRed: UInt64 = 0, greenAlpha: UInt64 = 0
        for index in -left...right {
            let pixel = index < 0 ? first : index >= count ? last : input[index]
            blueRed &+= UInt64(pixel & 0xFF) | UInt64((pixel >> 16) & 0xFF) << 32
            greenAlpha &+= UInt64((pixel >> 8) & 0xFF) | UInt64(pixel >> 24) << 32
        }
        for index in 0..<count {
            let blue = (((blueRed & 0xFFFF_FFFF) &+ half) &* reciprocal) >> 32
            let red = (((blueRed >> 32) &+ half) &* reciprocal) >> 32
            let green = (((greenAlpha & 0xFFFF_FFFF) &+ half) &* reciprocal) >> 32
            let alpha = (((greenAlpha >> 32) &+ half) &* reciprocal) >> 32
            output[index] = UInt32(truncatingIfNeeded: alpha << 24 | red << 16 | green << 8 | blue)
            let leaving = index - left, entering = index + right + 1
            let out = leaving < 0 ? first : input[leaving]
            let into = entering < count ? input[entering] : last
            blueRed = blueRed &+ (UInt64(into & 0xFF) | UInt64((into >> 16) & 0xFF) << 32)
                &- (UInt64(out & 0xFF) | UInt64((out >> 16) & 0xFF) << 32)
            greenAlpha = greenAlpha &+ (UInt64((into >> 8) & 0xFF) | UInt64(into >> 24) << 32)
                &- (UInt64((out >> 8) & 0xFF) | UInt64(out >> 24) << 32)
        }
    }

    /// `output[i]` = the kernel applied around `input[from + i]`.
    private static func convolve(_ input: UnsafeMutablePointer<UInt32>, into output: UnsafeMutablePointer<UInt32>,
                                 from start: Int, count: Int, weights: [Int]) {
        weights.withUnsafeBufferPointer { weights in
            for index in 0..<count {
                let centre = start + index
                var sums = (0, 0, 0, 0)
                @inline(__always) func add(_ pixel: UInt32, _ weight: Int) {
                    sums.0 += Int(pixel & 0xFF) * weight
                    sums.1 += Int((pixel >> 8) & 0xFF) * weight
                    sums.2 += Int((pixel >> 16) & 0xFF) * weight
                    sums.3 += Int(pixel >> 24) * weight
                }
                add(input[centre], weights[0])
                for offset in 1..<weights.count {
                    add(input[centre - offset], weights[offset])
                    add(input[centre + offset], weights[offset])
                }
                func level(_ sum: Int) -> UInt32 { UInt32(min(255, (sum + 32_768) >> 16)) }
                output[index] = level(sums.3) << 24 | level(sums.2) << 16 | level(sums.1) << 8 | level(sums.0)
            }
        }
    }

    /// Writes the `width` × `height` plane `source` transposed into `target` (`height` × `width`),
    /// in tiles that stay in cache.
    private static func transpose(_ source: UnsafeMutablePointer<UInt32>, into target: UnsafeMutablePointer<UInt32>,
                                  width: Int, height: Int) {
        let tile = 32
        for rowStart in stride(from: 0, to: height, by: tile) {
            let rowEnd = min(rowStart + tile, height)
            for columnStart in stride(from: 0, to: width, by: tile) {
                let columnEnd = min(columnStart + tile, width)
                for row in rowStart..<rowEnd {
                    let sourceRow = source + row * width
                    for column in columnStart..<columnEnd { target[column * height + row] = sourceRow[column] }
                }
            }
        }
    }
}
