/// Lowercase hexadecimal digits of bytes, two per byte, written straight into the string:
/// records and indexes print a digest per output, and `String(format: "%02x")` costs a
/// conformance search per byte. Also the value of one digit, for the readers of hex text.
package enum HexDigits {
    /// The value of the hexadecimal digit `byte` (either case), or nil for any other byte.
    package static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

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
