/// HMAC-SHA-256 (RFC 2104 over FIPS 180-4's SHA-256), for signing what is shared through a
/// remote store. Written here rather than linked: the `rasterkit` command links no crypto
/// package (see DESIGN.md), and these 150 lines are checked against the standards' test vectors.
package struct HMACSHA256: Sendable {
    private let innerPad: [UInt8]
    private let outerPad: [UInt8]

    /// A signer with `key` (hashed first when longer than SHA-256's 64-byte block, per RFC 2104).
    package init(key: [UInt8]) {
        var block = key.count > 64 ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        innerPad = block.map { $0 ^ 0x36 }
        outerPad = block.map { $0 ^ 0x5C }
    }

    /// The 32-byte tag of the concatenation of `parts`.
    package func tag(_ parts: [UInt8]...) -> [UInt8] {
        var inner = SHA256()
        inner.update(innerPad)
        for part in parts { inner.update(part) }
        var outer = SHA256()
        outer.update(outerPad)
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Whether `tag` is `expected`, comparing every byte whatever the first difference, so the
    /// time taken says nothing of where a forged tag goes wrong.
    package static func matches(_ tag: some Collection<UInt8>, _ expected: [UInt8]) -> Bool {
        guard tag.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(tag, expected) { difference |= a ^ b }
        return difference == 0
    }
}

/// SHA-256 (FIPS 180-4), streaming.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    package init() {}

    /// The digest of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    package mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        let input = Array(bytes)
        var offset = 0
        if !buffer.isEmpty {
            let taken = min(64 - buffer.count, input.count)
            buffer += input[0..<taken]
            offset = taken
            guard buffer.count == 64 else { return }
            buffer.withUnsafeBufferPointer { compress($0, at: 0) }
            buffer.removeAll(keepingCapacity: true)
        }
        input.withUnsafeBufferPointer { whole in
            while offset + 64 <= whole.count {
                compress(whole, at: offset)
                offset += 64
            }
        }
        buffer += input[offset...]
    }

    package mutating func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = buffer + [0x80]
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { blocks in
            for start in stride(from: 0, to: blocks.count, by: 64) { compress(blocks, at: start) }
        }
        buffer = []
        var digest: [UInt8] = []
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    private static let constants: [UInt32] = [
        0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4, 0xAB1C_5ED5,
        0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE, 0x9BDC_06A7, 0xC19B_F174,
        0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F, 0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA,
        0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7, 0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967,
        0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC, 0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85,
        0xA2BF_E8A1, 0xA81A_664B, 0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070,
        0x19A4_C116, 0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
        0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7, 0xC671_78F2,
    ]

    /// Compresses the 64-byte block of `bytes` at `start`.
    private mutating func compress(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
        var words = [UInt32](repeating: 0, count: 64)
        for index in 0..<16 {
            let at = start + 4 * index
            words[index] = UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        for index in 16..<64 {
            let s0 = words[index - 15].rotatedRight(7) ^ words[index - 15].rotatedRight(18) ^ (words[index - 15] >> 3)
            let s1 = words[index - 2].rotatedRight(17) ^ words[index - 2].rotatedRight(19) ^ (words[index - 2] >> 10)
            words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for index in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ s1 &+ choice &+ Self.constants[index] &+ words[index]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}

private extension UInt32 {
    func rotatedRight(_ count: UInt32) -> UInt32 { self >> count | self << (32 - count) }
}
