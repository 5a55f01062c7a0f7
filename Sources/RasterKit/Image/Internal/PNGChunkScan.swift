/// A walk over a PNG's chunk headers before libpng reads it.
///
/// Why: libpng 1.6.39 (Debian 12) allocates, and zero-fills, an ancillary chunk's buffer from the
/// chunk's length field before it reads the chunk's data, whatever `png_set_chunk_malloc_max`
/// says: a 131-byte file whose tEXt chunk claims 0x7FFFFFFF bytes cost 2 GiB before libpng noticed
/// the data was missing. The whole file is in memory, so every length can be checked against the
/// bytes really there, and against the chunk limit, for the cost of one pass over the headers.
enum PNGChunkScan {
    /// Throws unless every chunk up to IEND fits in `data`, every ancillary chunk (text and
    /// metadata; critical chunks are bounded by the image itself) is at most `maximumChunkBytes`
    /// long, and the image data could hold the pixels the header claims. Data after IEND is
    /// libpng's business (it ignores it).
    static func check(_ data: UnsafeRawBufferPointer, maximumChunkBytes: Int) throws(PNGError) {
        var offset = PNGHeader.signature.count
        var claimedPixelBytes = 0, imageDataBytes = 0
        while offset + 8 <= data.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(data[offset + $1]) }
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let available = data.count - offset - 12
            guard length <= available else {
                throw .corrupt(reason: "the \(type) chunk claims \(length) bytes but only \(max(available, 0)) follow (truncated PNG)")
            }
            // Bit 5 of a type's first byte (a lowercase letter) marks an ancillary chunk.
            if data[offset + 4] & 0x20 != 0, length > maximumChunkBytes {
                throw .chunkTooLarge(type: type, byteCount: length, limit: maximumChunkBytes)
            }
            if type == "IHDR", length == 13 { claimedPixelBytes = minimumPixelBytes(header: data, at: offset + 8) }
            if type == "IDAT" { imageDataBytes += length }
            if type == "IEND" { break }
            offset += 12 + length
        }
        // Deflate expands at most 1032 to 1: image data that cannot hold the pixels the header
        // claims is truncated, and is refused before rows for all of them are allocated.
        guard claimedPixelBytes <= imageDataBytes * maximumDeflateRatio + 1_024 else {
            throw .corrupt(reason: "its image data (\(imageDataBytes) bytes) cannot hold the \(claimedPixelBytes) bytes "
                           + "of pixels its header claims (truncated PNG)")
        }
    }

    private static let maximumDeflateRatio = 1_032

    /// The fewest bytes of pixels the IHDR at `offset` describes, filter bytes left out: width ×
    /// height × bits per pixel ÷ 8 (0 for a header libpng will refuse anyway).
    private static func minimumPixelBytes(header data: UnsafeRawBufferPointer, at offset: Int) -> Int {
        func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(data[at + $1]) } }
        let width = word(offset), height = word(offset + 4)
        let depth = Int(data[offset + 8])
        let channels: Int
        switch data[offset + 9] {
        case 0, 3: channels = 1   // grey, palette
        case 2: channels = 3      // RGB
        case 4: channels = 2      // grey and alpha
        case 6: channels = 4      // RGBA
        default: return 0
        }
        guard [1, 2, 4, 8, 16].contains(depth) else { return 0 }
        // Sides come from 32-bit fields: the product can overflow, and then no data could hold it.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (bits, overflowAgain) = pixels.multipliedReportingOverflow(by: channels * depth)
        return overflow || overflowAgain ? .max : bits / 8
    }
}
