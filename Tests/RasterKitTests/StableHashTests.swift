import Testing
@testable import RasterKit

@Suite struct StableHashTests {
    /// Reference vectors of SipHash-2-4 with 128-bit output (veorq/SipHash, vectors.h): key
    /// 00 01 … 0f, message 00 01 … (n-1).
    static let vectors: [(Int, String)] = [
        (0, "a3817f04ba25a8e66df67214c7550293"), (1, "da87c1d86b99af44347659119b22fc45"),
        (7, "a1f1ebbed8dbc153c0b84aa61ff08239"), (8, "3b62a9ba6258f5610f83e264f31497b4"),
        (15, "5493e99933b0a8117e08ec0f97cfc3d9"), (16, "6ee2a4ca67b054bbfd3315bf85230577"),
        (63, "5150d1772f50834a503e069a973fbd7c"),
    ]

    static let referenceKey: (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0F0E_0D0C_0B0A_0908)

    @Test(arguments: vectors)
    func matchesTheReferenceVectors(length: Int, expected: String) {
        var sip = SipHash128(key: Self.referenceKey)
        let message = (0..<length).map { UInt8($0) }
        message.withUnsafeBytes { sip.write($0) }
        #expect(sip.finalize().hex == expected)
    }

    @Test func streamingInAnyPiecesGivesTheSameDigest() {
        let message = (0..<63).map { UInt8($0) }
        for split in [1, 3, 7, 9] {
            var sip = SipHash128(key: Self.referenceKey)
            var index = 0
            while index < message.count {
                let end = min(index + split, message.count)
                message[index..<end].withUnsafeBytes { sip.write($0) }
                index = end
            }
            #expect(sip.finalize().hex == "5150d1772f50834a503e069a973fbd7c")
        }
        // Whole words written at an unaligned offset, too.
        var sip = SipHash128(key: Self.referenceKey)
        sip.write(UInt8(0))
        sip.write(UInt64(0x0807_0605_0403_0201))
        for byte in 9..<16 { sip.write(UInt8(byte)) }
        #expect(sip.finalize().hex == "6ee2a4ca67b054bbfd3315bf85230577")
    }

    @Test func digestsParseFromHex() {
        let digest = StableDigest(high: 0x0123_4567_89AB_CDEF, low: 42)
        #expect(digest.hex == "0123456789abcdef000000000000002a")
        #expect(StableDigest(hex: digest.hex) == digest)
        #expect(StableDigest(hex: "xyz") == nil)
        #expect(StableDigest(hex: "0123456789ABCDEF000000000000002A") == digest, "either case")
        #expect(StableDigest(hex: String(repeating: "f", count: 32)) == StableDigest(high: .max, low: .max))
        for bad in ["+123456789abcdef000000000000002a", "0123456789abcdeg000000000000002a", "0123456789abcdef000000000000002",
                    "0123456789abcdef000000000000002aa", "0123456789abcdef 00000000000002a", "é123456789abcdef00000000000002a"] {
            #expect(StableDigest(hex: bad) == nil, "\(bad)")
        }
    }
}
