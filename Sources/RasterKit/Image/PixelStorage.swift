/// Owned memory for premultiplied ARGB32 pixels (cairo's native-endian layout).
///
/// Written only while the image that owns it is being made, on one thread, and never after
/// the image is published; that is what makes sharing it between threads safe.
final class PixelStorage: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int

    /// Zero-filled (fully transparent) pixels.
    init(byteCount: Int) {
        self.byteCount = byteCount
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    /// Memory the caller fills completely before anything reads it.
    init(uninitializedByteCount byteCount: Int) {
        self.byteCount = byteCount
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 16)
    }

    deinit { bytes.deallocate() }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: byteCount) }
}
