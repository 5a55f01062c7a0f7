import Foundation
@testable import RasterKitServer
import Testing

@Suite("Signed URLs") struct SigningTests {
    static let key = Data("a test key of some thirty-two bytes".utf8)

    @Test func onlyValidUnexpiredSignaturesRender() async throws {
        let server = try await TestServer.start { $0.signingKey = Self.key }
        let signer = URLSigner(key: Self.key)
        let good = signer.sign("/components/badge/normal.png?size=40x20&scale=2", expires: Date().addingTimeInterval(60))
        #expect(try await server.request(good).status == 200)
        let icon = signer.sign("/icons/star.png?size=24", expires: Date().addingTimeInterval(60))
        #expect(try await server.request(icon).status == 200)

        let unsigned = try await server.request("/components/badge/normal.png?size=40x20")
        #expect(unsigned.status == 403)
        // The same signature on another size: refused.
        let tampered = good.replacingOccurrences(of: "size=40x20", with: "size=4000x20")
        #expect(try await server.request(tampered).status == 403)
        let wrongKey = URLSigner(key: Data("another key".utf8)).sign("/icons/star.png?size=24", expires: Date().addingTimeInterval(60))
        #expect(try await server.request(wrongKey).status == 403)
        let expired = signer.sign("/icons/star.png?size=24", expires: Date().addingTimeInterval(-5))
        let expiredReply = try await server.request(expired)
        #expect(expiredReply.status == 403)
        #expect(expiredReply.errorMessage?.contains("expired") == true)
        let truncated = String(good.dropLast(2))
        #expect(try await server.request(truncated).status == 403)
        // Operational routes need no signature.
        #expect(try await server.request("/health").status == 200)
        try await server.stop()
    }

    @Test func signatureCoversThePath() {
        let signer = URLSigner(key: Self.key)
        let expires = Date(timeIntervalSince1970: 2_000_000_000)
        let one = signer.sign("/icons/star.png?size=24", expires: expires)
        let other = signer.sign("/icons/heart.png?size=24", expires: expires)
        #expect(one.hasPrefix("/icons/star.png?size=24&exp=2000000000&sig="))
        #expect(one.suffix(64) != other.suffix(64))
        #expect((try? signer.verify(path: "/icons/heart.png", rawQuery: String(one.split(separator: "?")[1]),
                                    now: Date(timeIntervalSince1970: 0))) == nil)
    }
}
