import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Golden PNGs in a remote store, under the digest of their pixels: what golden lockfiles read.
@Suite struct RemoteGoldenTests {
    let bitmap = TestImages.bitmap(width: 6, height: 4) { x, y in (x + y).isMultiple(of: 2) ? TestImages.red : TestImages.clear }

    @Test func pixelDigestsFollowThePixelsNotThePNG() throws {
        let same = try RGBABitmap(pngData: bitmap.pngData())
        #expect(same.pixelDigest == bitmap.pixelDigest)
        let other = TestImages.bitmap(width: 6, height: 4) { x, y in (x + y).isMultiple(of: 2) ? TestImages.green : TestImages.clear }
        #expect(other.pixelDigest != bitmap.pixelDigest)
        // The same bytes in another shape are other pixels.
        let bytes = bitmap.withUnsafeBytes { Array($0) }
        #expect(RGBABitmap(width: 4, height: 6, bytes: bytes).pixelDigest != bitmap.pixelDigest)
    }

    @Test(arguments: [nil, Data("team secret".utf8)])
    func aStoredGoldenComesBackWithItsPixels(signingKey: Data?) throws {
        let store = FakeRemote()
        let digest = bitmap.pixelDigest
        #expect(try store.golden(pixelDigest: digest, signingKey: signingKey) == nil)
        try store.putGolden(try bitmap.pngData(), pixelDigest: digest, signingKey: signingKey)
        let fetched = try #require(try store.golden(pixelDigest: digest, signingKey: signingKey))
        #expect(fetched == bitmap)
        #expect(store.names == ["\(CacheKey.formatVersion)/\(digest.hex)"])
    }

    @Test func objectsThatAreNotTheGoldenAskedForAreRefused() throws {
        let store = FakeRemote()
        let digest = bitmap.pixelDigest
        let name = "\(CacheKey.formatVersion)/\(digest.hex)"
        try store.putGolden(try bitmap.pngData(), pixelDigest: digest, signingKey: nil)
        let good = try #require(store.object(name))

        // Damaged: a byte of the PNG flipped.
        var damaged = good
        damaged[damaged.count - 20] ^= 0xFF
        store.replace(name, with: damaged)
        #expect(throws: RemoteGoldenError.self) { try store.golden(pixelDigest: digest, signingKey: nil) }

        // Another image stored, whole and intact, under this image's digest.
        let other = TestImages.solid(TestImages.green, width: 6, height: 4)
        try store.putGolden(try other.pngData(), pixelDigest: digest, signingKey: nil)
        #expect {
            try store.golden(pixelDigest: digest, signingKey: nil)
        } throws: { error in
            guard case RemoteGoldenError.wrongPixels = error else { return false }
            return true
        }

        // With a secret, an unsigned object is refused; the signed one is read.
        store.replace(name, with: good)
        #expect(throws: RemoteGoldenError.self) { try store.golden(pixelDigest: digest, signingKey: Data("secret".utf8)) }
        try store.putGolden(try bitmap.pngData(), pixelDigest: digest, signingKey: Data("secret".utf8))
        #expect(try store.golden(pixelDigest: digest, signingKey: Data("secret".utf8)) == bitmap)
        #expect(throws: RemoteGoldenError.self) { try store.golden(pixelDigest: digest, signingKey: Data("another".utf8)) }

        // Not an object at all.
        store.replace(name, with: Data("<html>404</html>".utf8))
        #expect(throws: RemoteGoldenError.self) { try store.golden(pixelDigest: digest, signingKey: nil) }
    }

    @Test func aFailingStoreIsAnErrorNotAMiss() throws {
        let store = FakeRemote(.failing)
        #expect(throws: RemoteStoreError.status(503)) { try store.golden(pixelDigest: bitmap.pixelDigest, signingKey: nil) }
        #expect(throws: RemoteStoreError.status(503)) {
            try store.putGolden(try bitmap.pngData(), pixelDigest: bitmap.pixelDigest, signingKey: nil)
        }
        let readOnly = FakeRemote(.readOnly)
        #expect(throws: RemoteStoreError.forbidden(status: 403)) {
            try readOnly.putGolden(try bitmap.pngData(), pixelDigest: bitmap.pixelDigest, signingKey: nil)
        }
    }
}
