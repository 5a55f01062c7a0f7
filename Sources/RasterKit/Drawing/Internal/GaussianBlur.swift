/// A Gaussian blur of an 8-bit alpha plane, approximated by three box blurs as the SVG
/// `feGaussianBlur` specification describes; each pass costs the same whatever the radius.
enum GaussianBlur {
    /// Blurs `plane` (rows of `stride` bytes) in place with standard deviation `sigma` pixels.
    static func blur(_ plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        let passes = boxPasses(sigma: sigma)
        guard !passes.isEmpty, width > 0, height > 0 else { return }
        let longest = max(width, height)
        var line = [UInt8](repeating: 0, count: longest)
        var scratch = [UInt8](repeating: 0, count: longest)
        line.withUnsafeMutableBufferPointer { line in
            scratch.withUnsafeMutableBufferPointer { scratch in
                for y in 0..<height {
                    let row = plane + y * stride
                    line.baseAddress!.update(from: row, count: width)
                    run(passes, line.baseAddress!, scratch.baseAddress!, count: width)
                    row.update(from: line.baseAddress!, count: width)
                }
                for x in 0..<width {
                    for y in 0..<height { line[y] = plane[y * stride + x] }
                    run(passes, line.baseAddress!, scratch.baseAddress!, count: height)
                    for y in 0..<height { plane[y * stride + x] = line[y] }
                }
            }
        }
    }

    /// The (left, right) extents of the three box passes for `sigma` (SVG 1.1 §15.17).
    static func boxPasses(sigma: Double) -> [(left: Int, right: Int)] {
        guard sigma.isFinite, sigma > 0 else { return [] }
        let d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        guard d > 1 else { return [] }
        if d % 2 == 1 {
            let half = (d - 1) / 2
            return Array(repeating: (half, half), count: 3)
        }
        return [(d / 2, d / 2 - 1), (d / 2 - 1, d / 2), (d / 2, d / 2)]
    }

    private static func run(_ passes: [(left: Int, right: Int)], _ line: UnsafeMutablePointer<UInt8>,
                            _ scratch: UnsafeMutablePointer<UInt8>, count: Int) {
        for pass in passes {
            box(from: line, to: scratch, count: count, left: pass.left, right: pass.right)
            line.update(from: scratch, count: count)
        }
    }

    /// out[i] = mean of input[i - left ... i + right], with zeros beyond the ends.
    private static func box(from input: UnsafeMutablePointer<UInt8>, to output: UnsafeMutablePointer<UInt8>,
                            count: Int, left: Int, right: Int) {
        let size = left + right + 1
        let half = size / 2
        var sum = 0
        for index in 0..<min(right, count) { sum += Int(input[index]) }
        for index in 0..<count {
            let entering = index + right
            if entering < count { sum += Int(input[entering]) }
            let leaving = index - left - 1
            if leaving >= 0 { sum -= Int(input[leaving]) }
            output[index] = UInt8((sum + half) / size)
        }
    }
}
