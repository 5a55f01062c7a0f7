import Foundation
import RasterKitDiff

/// One image `rasterkit diff` compares: its bytes and the size its header states, read before
/// anything is decoded so that two images of different sizes are reported without decoding
/// either (a 16000² PNG costs a gigabyte of pixels to decode, and nothing to measure).
struct DiffInput: Sendable {
    /// Why an input image could not be used.
    struct Failure: Error {
        let message: String
    }

    let path: String
    let data: Data
    let size: ImageDiff.PixelSize

    /// Reads `path` (a regular file within the input size limit) and its PNG header.
    static func read(_ path: String) throws(Failure) -> DiffInput {
        let data: Data
        do { data = try FileReader.read(path) } catch {
            throw Failure(message: "cannot read '\(path)': \(error.reason)")
        }
        let header: PNGHeader
        do { header = try PNGHeader(data) } catch {
            throw Failure(message: "cannot decode '\(path)': \(error)")
        }
        return DiffInput(path: path, data: data, size: ImageDiff.PixelSize(width: header.width, height: header.height))
    }

    /// The decoded pixels, or why they could not be decoded.
    func decode() -> Result<RGBABitmap, Failure> {
        do { return .success(try RGBABitmap(pngData: data)) } catch {
            return .failure(Failure(message: "cannot decode '\(path)': \(error)"))
        }
    }
}
