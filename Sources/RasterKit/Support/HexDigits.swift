/// Lowercase hexadecimal digits of bytes, two per byte, written straight into the string:
/// records and indexes print a digest per output, and `String(format: "%02x")` costs a
/// conformance search per byte.
package enum HexDigits {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hexadecimal digits, two per byte.
    package static func of(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            for (index, byte) in bytes.enumerated() {
                text[2 * index] = digits[Int(byte >> 4)]
                text[2 * index + 1] = digits[Int(byte & 0xF)]
            }
            return bytes.count * 2
        }
    }
}
