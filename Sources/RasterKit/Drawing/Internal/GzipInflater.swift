internal import CZlib

/// Inflates gzip (or zlib) data under a size limit, so that a small compressed SVG cannot
/// expand to gigabytes before anything looks at it.
enum GzipInflater {
    /// The inflated bytes, or nil when they are not valid gzip or would be larger than `limit`.
    static func inflate(_ data: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard rk_inflate_init(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = data
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(clamping: source.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { return nil }
                output.append(contentsOf: chunk[..<produced])
                if status == Z_STREAM_END { return output }
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
