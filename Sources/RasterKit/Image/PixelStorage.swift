/// Owned memory for premultiplied ARGB32 pixels (cairo's native-endian layout).
///
/// Written only while the image that owns it is being made, on one thread, and never after
/// the image is published; that is what makes sharing it between threads safe.
final class PixelStorage: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int
    /// The storage that owns `bytes`, for a storage sharing another's pixels.
    private let owner: PixelStorage?

    /// Zero-filled (fully transparent) pixels.
    init(byteCount: Int) {
        self.byteCount = byteCount
        owner = nil
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    /// Memory the caller fills completely before anything reads it.
    init(uninitializedByteCount byteCount: Int) {
        self.byteCount = byteCount
        owner = nil
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 16)
    }

    /// Another handle on `base`'s pixels. The memory cache gives each thread stripe its own
    /// handle on a cached image, so that threads taking the same image each retain a different
    /// object instead of passing one reference count between their cores.
    init(sharing base: PixelStorage) {
        bytes = base.bytes
        byteCount = base.byteCount
        owner = base.owner ?? base
    }

    deinit { if owner == nil { bytes.deallocate() } }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: byteCount) }
}
