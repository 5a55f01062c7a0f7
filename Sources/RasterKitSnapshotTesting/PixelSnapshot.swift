#if SnapshotTesting
import Foundation

/// What the RasterKit snapshot strategies compare: a PNG and its decoded pixels.
///
/// swift-snapshot-testing stores it as the PNG and reads a reference back into one; a reference
/// file that does not decode, or a component that fails to render, is kept as a problem that
/// the comparison reports instead of crashing the test.
public struct PixelSnapshot {
    /// The PNG bytes: written as the reference when recording.
    public let pngData: Data
    /// The pixels, or why there are none.
    let pixels: Result<RGBABitmap, SnapshotProblem>

    /// A snapshot of a rendered image, encoded as PNG.
    public init(image: RasterImage) {
        do {
            let data = try image.pngData()
            pngData = data
            pixels = .success(RGBABitmap(image))
        } catch {
            pngData = Data()
            pixels = .failure(SnapshotProblem("the image could not be encoded as PNG: \(error)"))
        }
    }

    /// A snapshot read from a reference PNG.
    public init(pngData: Data) {
        self.pngData = pngData
        do {
            pixels = .success(try RGBABitmap(pngData: pngData))
        } catch {
            pixels = .failure(SnapshotProblem("the reference is not a PNG RasterKit can decode: \(error)"))
        }
    }

    /// A snapshot that could not be taken, with the reason (a component whose draw threw).
    init(problem: String) {
        pngData = Data()
        pixels = .failure(SnapshotProblem(problem))
    }
}

/// Why a snapshot has no pixels.
struct SnapshotProblem: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
#endif
