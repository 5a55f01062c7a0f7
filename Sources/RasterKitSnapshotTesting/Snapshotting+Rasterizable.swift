#if SnapshotTesting
import Foundation
import SnapshotTesting

extension Snapshotting where Value: Rasterizable, Format == PixelSnapshot {
    /// Any component, rendered at `size` points and `scale` through `rasterizer` (a new one with
    /// its own memory cache by default) and compared like ``SnapshotTesting/Snapshotting/png(tolerance:)``.
    /// A resizable component is compared as it looks at `size`: stretched.
    ///
    /// ```swift
    /// assertSnapshot(of: Badge(count: 3), as: .rasterized(size: Size(width: 40, height: 20)))
    /// ```
    ///
    /// A draw that throws fails the comparison with the error. (With no reference yet,
    /// swift-snapshot-testing records an empty file, which fails the next run as not a PNG.)
    public static func rasterized(size: Size, scale: Double = 2, tolerance: Tolerance = Tolerance(),
                                  rasterizer: Rasterizer? = nil) -> Snapshotting {
        let rasterizer = rasterizer ?? Rasterizer(cache: RasterCache(respondsToMemoryPressure: false))
        return Snapshotting(pathExtension: "png", diffing: .rasterKitPixels(tolerance: tolerance)) { component in
            do {
                var image = try rasterizer.image(for: component, size: size, scale: scale)
                if image.capInsets != nil, image.size != size { image = try image.stretched(to: size) }
                return PixelSnapshot(image: image)
            } catch {
                return PixelSnapshot(problem: "\(Value.self) could not be rendered at \(size) × \(scale): \(error)")
            }
        }
    }
}
#endif
