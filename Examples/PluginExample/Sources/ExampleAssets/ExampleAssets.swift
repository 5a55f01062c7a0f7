import Foundation
import RasterKit

/// The badges `Badges.rasterkit.yaml` describes, rendered by the build into this module's bundle.
public enum ExampleAssets {
    /// Why a badge could not be loaded.
    public struct MissingResource: Error, CustomStringConvertible {
        /// The file that is not in the bundle.
        public var name: String
        public var description: String { "\(name) is not in \(Bundle.module.bundlePath)" }
    }

    /// The file of `name` (`badge-new@2x`) in the module's bundle, if the build put it there.
    public static func url(named name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: "png")
    }

    /// The badge `name`, decoded.
    public static func image(named name: String) throws -> RasterImage {
        guard let url = url(named: name) else { throw MissingResource(name: name + ".png") }
        return try RasterImage(pngData: Data(contentsOf: url))
    }
}
