/// A walk over a PNG's chunk headers before libpng reads it.
///
/// Why: libpng 1.6.39 (Debian 12) allocates, and zero-fills, an ancillary chunk's buffer from the
/// chunk's length field before it reads the chunk's data, whatever `png_set_chunk_malloc_max`
/// says: a 131-byte file whose tEXt chunk claims 0x7FFFFFFF bytes cost 2 GiB before libpng noticed
/// the data was missing. The whole file is in memory, so every length can be checked against the
/// bytes really there, and against the chunk limit, for the cost of one pass over the headers.
enum PNGChunkScan {
    /// Throws unless every chunk up to IEND fits in `data` and every ancillary chunk (text and
    /// metadata; critical chunks are bounded by the image itself) is at most `maximumChunkBytes` long. Data after IEND is libpng's business (it ignores it).
    static func check(_ data: UnsafeRawBufferPointer, maximumChunkBytes: Int) throws(PNGError) {
        var offset = PNGHeader.signature.count
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
            if type == "IEND" { return }
            offset += 12 + length
        }
    }
}
