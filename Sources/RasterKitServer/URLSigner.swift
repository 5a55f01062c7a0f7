import Foundation
import RasterKit

/// Signs and checks render URLs, so that a public server renders only the URLs its owner made:
/// `sig` is the HMAC-SHA256, in lowercase hexadecimal, of the path and query up to `&sig=`,
/// which include an expiry `exp` (seconds since 1970). The check compares in constant time.
///
/// ```swift
/// let signer = URLSigner(key: Data("secret".utf8))
/// let url = signer.sign("/components/button/normal.png?scale=2", expires: Date().addingTimeInterval(3600))
/// // "/components/button/normal.png?scale=2&exp=1767225600&sig=9f86d0…"
/// ```
public struct URLSigner: Sendable {
    private let hmac: HMACSHA256

    /// A signer with the secret `key` (at least 16 bytes is wise; the server's comes from an
    /// environment variable).
    public init(key: Data) {
        hmac = HMACSHA256(key: [UInt8](key))
    }

    /// `pathAndQuery` with `exp` and `sig` appended: the URL a client may fetch until `expires`.
    public func sign(_ pathAndQuery: String, expires: Date) -> String {
        let separator = pathAndQuery.contains("?") ? "&" : "?"
        let unsigned = pathAndQuery + separator + "exp=\(Int(expires.timeIntervalSince1970.rounded(.down)))"
        return unsigned + "&sig=" + signature(of: unsigned)
    }

    /// The hexadecimal HMAC-SHA256 of `message`.
    func signature(of message: String) -> String {
        HexDigits.of(hmac.tag(Array(message.utf8)))
    }

    /// Checks a request's raw path and query: `sig` must come last and match what precedes it,
    /// and `exp` must not have passed at `now`.
    func verify(path: String, rawQuery: String, now: Date) throws(RequestError) {
        guard let range = rawQuery.range(of: "sig=", options: .backwards),
              range.lowerBound == rawQuery.startIndex || rawQuery[rawQuery.index(before: range.lowerBound)] == "&" else {
            throw RequestError(.forbidden, "this server renders signed URLs only: add exp= and sig= (the last parameter)")
        }
        let given = String(rawQuery[range.upperBound...])
        let signedQuery = range.lowerBound == rawQuery.startIndex ? "" : String(rawQuery[..<rawQuery.index(before: range.lowerBound)])
        let message = path + "?" + signedQuery
        guard given.count == 64, let givenBytes = Self.bytes(hex: given),
              // Compared in constant time, so timing reveals nothing of the key.
              HMACSHA256.matches(givenBytes, hmac.tag(Array(message.utf8))) else {
            throw RequestError(.forbidden, "the URL's signature is not valid")
        }
        let expiry = signedQuery.split(separator: "&").first { $0.hasPrefix("exp=") }.flatMap { Int($0.dropFirst(4)) }
        guard let expiry else { throw RequestError(.forbidden, "a signed URL needs an expiry exp= (seconds since 1970)") }
        guard Double(expiry) >= now.timeIntervalSince1970 else { throw RequestError(.forbidden, "the signed URL expired") }
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = HexDigits.value(of: digits[index]), let low = HexDigits.value(of: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
