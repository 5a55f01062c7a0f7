import Foundation
import RasterKit

/// PNG files (`diff` inputs, manifest `image:` files, renders read back from a store): decoding
/// must end in an image or a typed error, never allocate what the header merely claims.
func fuzzPNGDecode(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    guard let image = try? RasterImage(pngData: data, limits: ResourceLimits.untrusted.pixels) else { return 0 }
    // A decoded image must survive being encoded again.
    _ = try? image.pngData()
    return 0
}
