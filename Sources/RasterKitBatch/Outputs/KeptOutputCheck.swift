import Foundation
import RasterKit
internal import CWebP

/// Whether bytes the store kept (or the remote store sent) for an output are the render they are
/// filed under, read from their header before a batch copies them into a file: a store written
/// by someone else (an imported file, a shared bucket) cannot put a 48×48 or a 16384² image
/// where a 24-point output goes. The checksum covers damage, not forgery.
enum KeptOutputCheck {
    /// True when `bytes`, made by `encoder`, are an image of `expected`. Bytes of an encoder
    /// RasterKit does not know are trusted to their checksum.
    static func matches(_ bytes: Data, encoder: any BatchEncoder, expected: ExpectedRender) -> Bool {
        switch encoder {
        case is PNGBatchEncoder, is TemplatePNGBatchEncoder:
            return expected.matches(png: bytes)
        case is NinePatchBatchEncoder:
            // The render inside a one-pixel border of markers.
            guard let header = try? PNGHeader(bytes) else { return false }
            return expected.matches(pixelWidth: header.width, pixelHeight: header.height, border: 1)
        case is WebPBatchEncoder:
            var width: Int32 = 0, height: Int32 = 0
            let read = bytes.withUnsafeBytes { raw -> Bool in
                guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return false }
                return WebPGetInfo(base, raw.count, &width, &height) != 0
            }
            return read && expected.matches(pixelWidth: Int(width), pixelHeight: Int(height))
        default:
            return true
        }
    }
}
