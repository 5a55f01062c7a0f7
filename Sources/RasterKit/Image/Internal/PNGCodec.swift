internal import CPNG
import Foundation

/// libpng through the CPNG shim, which keeps libpng's longjmp error handling in C.
enum PNGCodec {
    /// Straight 8-bit RGBA pixels decoded from a PNG, in storage the caller then owns.
    struct Decoded {
        var storage: PixelStorage
        var width: Int
        var height: Int
        var texts: [String: String]
    }

    /// Text, sPLT and unknown chunks libpng keeps for one image; UI images carry a handful, and a
    /// file of thousands of tiny chunks is an attack on memory, not an image.
    static let maximumCachedChunks: UInt32 = 256

    /// Decodes any PNG into straight RGBA. Before libpng starts, the size is checked against
    /// `limits` from the header and every chunk's length against the data and `maximumChunkBytes`
    /// (see ``PNGChunkScan``), so a chunk whose length field claims gigabytes fails on that field
    /// instead of being allocated; libpng is told the same limits for what it inflates.
    static func decode(_ data: UnsafeRawBufferPointer, limits: PixelLimits,
                       maximumChunkBytes: Int = ResourceLimits.default.maximumPNGChunkBytes) throws -> Decoded {
        guard data.count > 0 else { throw PNGError.notPNG(byteCount: 0) }
        // The cheap header read refuses an oversized image with a typed error; libpng's own
        // user limits below repeat the check for anything that slips past it.
        let prefix = Data(UnsafeRawBufferPointer(rebasing: data.prefix(PNGHeader.byteCount)))
        let header: PNGHeader?
        do { header = try PNGHeader(prefix) } catch .notPNG { throw PNGError.notPNG(byteCount: data.count) } catch {
            header = nil   // a damaged IHDR is libpng's to describe
        }
        try header?.check(limits)
        try PNGChunkScan.check(data, maximumChunkBytes: maximumChunkBytes)
        final class Context {
            let limits: PixelLimits
            var storage: PixelStorage?
            var width = 0, height = 0
            var texts: [String: String] = [:]
            var refusal: PNGError?
            init(limits: PixelLimits) { self.limits = limits }
        }
        let context = Context(limits: limits)
        var failure = rk_png_failure()
        guard let base = data.baseAddress else { throw PNGError.notPNG(byteCount: 0) }
        var decodeLimits = rk_png_decode_limits(
            maximum_side: UInt32(clamping: limits.maximumSide),
            maximum_chunk_bytes: max(1, maximumChunkBytes), maximum_cached_chunks: maximumCachedChunks)
        let status = rk_png_decode(
            base.assumingMemoryBound(to: UInt8.self), data.count, &decodeLimits,
            { pointer, width, height in
                let context = Unmanaged<Context>.fromOpaque(pointer!).takeUnretainedValue()
                let w = Int(width), h = Int(height)
                do {
                    try context.limits.check(pixelWidth: w, pixelHeight: h)
                } catch {
                    context.refusal = .tooLarge(width: w, height: h, limits: context.limits)
                    return nil
                }
                // libpng writes every row; zero-filling first would only cost time.
                let storage = PixelStorage(uninitializedByteCount: w * h * 4)
                context.storage = storage
                context.width = w
                context.height = h
                return storage.bytes.assumingMemoryBound(to: UInt8.self)
            },
            { pointer, key, value, length in
                let context = Unmanaged<Context>.fromOpaque(pointer!).takeUnretainedValue()
                guard let key, let value else { return }
                let text = String(decoding: UnsafeRawBufferPointer(start: value, count: length), as: UTF8.self)
                context.texts[String(cString: key)] = text
            },
            Unmanaged.passUnretained(context).toOpaque(), &failure)
        switch Int(status) {
        case RK_PNG_OK:
            guard let storage = context.storage else { throw PNGError.corrupt(reason: "no image data") }
            return Decoded(storage: storage, width: context.width, height: context.height, texts: context.texts)
        case RK_PNG_NOT_PNG: throw PNGError.notPNG(byteCount: data.count)
        case RK_PNG_REFUSED: throw context.refusal ?? PNGError.outOfMemory
        case RK_PNG_OUT_OF_MEMORY: throw PNGError.outOfMemory
        default: throw PNGError.corrupt(reason: message(of: &failure))
        }
    }

    /// How hard zlib and libpng's filter search work.
    struct Settings {
        var level: Int32
        var strategy: Int32
        var filters: Int32
    }

    /// Encodes `height` rows of 8-bit RGB or RGBA produced by `fillRow`.
    static func encode(width: Int, height: Int, hasAlpha: Bool, settings: Settings, pixelsPerMeter: Int,
                       texts: [(String, String)], fillRow: (Int, UnsafeMutablePointer<UInt8>) -> Void) throws -> [UInt8] {
        try withoutActuallyEscaping(fillRow) { fillRow in
            final class Rows {
                let fill: (Int, UnsafeMutablePointer<UInt8>) -> Void
                init(_ fill: @escaping (Int, UnsafeMutablePointer<UInt8>) -> Void) { self.fill = fill }
            }
            let rows = Rows(fillRow)
            // The key and value C strings must outlive the call.
            let cStrings = texts.map { (strdup($0.0), strdup($0.1)) }
            defer { for (key, value) in cStrings { free(key); free(value) } }
            var chunks = cStrings.map { rk_png_text(key: $0.0, value: $0.1) }
            var output = rk_png_buffer()
            defer { free(output.data) }
            var failure = rk_png_failure()
            let status = chunks.withUnsafeMutableBufferPointer { chunks in
                var options = rk_png_encode_options(
                    width: UInt32(width), height: UInt32(height), has_alpha: hasAlpha ? 1 : 0,
                    compression_level: settings.level, compression_strategy: settings.strategy,
                    filters: settings.filters, pixels_per_meter: UInt32(pixelsPerMeter),
                    texts: chunks.baseAddress, text_count: Int32(chunks.count),
                    fill_row: { pointer, y, row in
                        Unmanaged<Rows>.fromOpaque(pointer!).takeUnretainedValue().fill(Int(y), row!)
                    },
                    context: Unmanaged.passUnretained(rows).toOpaque())
                return withExtendedLifetime(rows) { rk_png_encode(&options, &output, &failure) }
            }
            switch Int(status) {
            case RK_PNG_OK:
                return Array(UnsafeBufferPointer(start: output.data, count: output.length))
            case RK_PNG_OUT_OF_MEMORY: throw PNGError.outOfMemory
            default: throw PNGError.encodingFailed(reason: message(of: &failure))
            }
        }
    }

    private static func message(of failure: inout rk_png_failure) -> String {
        withUnsafeBytes(of: &failure.message) { bytes in
            let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }
}
