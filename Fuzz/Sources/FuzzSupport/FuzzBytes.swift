import Foundation

/// Reads a fuzzer's input as fields, front to back: a structure-aware harness takes its choices
/// and lengths from the input, so that libFuzzer's mutations steer them. Reading past the end
/// gives zeros and empty data, never a trap.
public struct FuzzBytes {
    private let bytes: [UInt8]
    private var offset = 0

    /// The input `count` bytes at `pointer` (nil for an empty input).
    public init(_ pointer: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = pointer.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    /// The next byte, or 0 at the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next two bytes, little-endian.
    public mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    /// The next `count` bytes, or as many as are left.
    public mutating func data(_ count: Int) -> Data {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = end }
        return Data(bytes[offset..<end])
    }

    /// Everything not read yet.
    public mutating func rest() -> Data { data(bytes.count - offset) }
}
