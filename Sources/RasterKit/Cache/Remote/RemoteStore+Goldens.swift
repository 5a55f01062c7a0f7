import Foundation

/// Golden images kept in a remote store, for golden lockfiles: each is stored under the digest
/// of its own pixels (``RGBABitmap/pixelDigest``), in the format renders are stored in
/// (`RemoteCacheObject`, signed with the remote tier's secret when there is one), so one store
/// and one format serve both, and a golden is read back only when its pixels are the ones asked for.
extension RemoteStore {
    /// Stores `png`, whose decoded pixels have the digest `pixelDigest`, signed with
    /// `signingKey` when given. Throws the store's error.
    package func putGolden(_ png: Data, pixelDigest: StableDigest, signingKey: Data?) throws(RemoteStoreError) {
        let name = RemoteObjectName(digest: pixelDigest)
        let object = RemoteCacheObject.encode(digest: pixelDigest, png: png, children: [])
        let sealed = RemoteObjectSeal(key: signingKey).seal(object, name: name)
        if let error = put([RemoteStoreUpload(name: name, bytes: sealed)]).first ?? nil { throw error }
    }

    /// The golden stored under `pixelDigest`, or nil when the store has none. Throws the store's
    /// fault, or ``RemoteGoldenError`` when the object is not a whole, intact (and, with
    /// `signingKey`, signed) golden whose pixels have that digest.
    package func golden(pixelDigest: StableDigest, signingKey: Data?, limits: PixelLimits = .default) throws -> RGBABitmap? {
        let name = RemoteObjectName(digest: pixelDigest)
        // A golden is at most the largest image the limits allow as a PNG stored without
        // compression: 4 bytes a pixel, a filter byte a row (at worst one a pixel), and headers.
        let maximumBytes = min(limits.maximumPixelCount, 1 << 28) * 5 + 65_536
        guard let stored = try get(name, maximumBytes: maximumBytes) else { return nil }
        guard let object = RemoteObjectSeal(key: signingKey).open(stored, name: name),
              let contents = RemoteCacheObject.decode(object, digest: pixelDigest) else {
            throw RemoteGoldenError.unverified(name: name.description)
        }
        let bitmap: RGBABitmap
        do { bitmap = try RGBABitmap(pngData: contents.png, limits: limits) } catch {
            throw RemoteGoldenError.undecodable(name: name.description, reason: "\(error)")
        }
        guard bitmap.pixelDigest == pixelDigest else { throw RemoteGoldenError.wrongPixels(name: name.description) }
        return bitmap
    }
}

/// Why a golden read from a remote store was not used.
package enum RemoteGoldenError: Error, CustomStringConvertible {
    /// Truncated, damaged, another object's, or (with a secret) not signed with it.
    case unverified(name: String)
    /// Its PNG does not decode within the pixel limits.
    case undecodable(name: String, reason: String)
    /// Its pixels are not the ones its name promises.
    case wrongPixels(name: String)

    package var description: String {
        switch self {
        case .unverified(let name): "the remote object \(name) is damaged, another object's, or not signed with RASTERKIT_REMOTE_CACHE_KEY"
        case .undecodable(let name, let reason): "the remote object \(name) holds no usable PNG (\(reason))"
        case .wrongPixels(let name): "the remote object \(name) holds other pixels than its name promises"
        }
    }
}

/// The remote cache a golden lockfile's PNGs are kept in, under their pixel digests.
package struct GoldenRemote: Sendable {
    package let store: any RemoteStore
    /// The store's address, for messages and for the failure artifacts `goldens accept` reads.
    package let url: String
    /// The secret objects are signed with (`RASTERKIT_REMOTE_CACHE_KEY`), or nil.
    package let signingKey: Data?

    package init(store: any RemoteStore, url: String, signingKey: Data?) {
        self.store = store
        self.url = url
        self.signingKey = signingKey
    }

    /// Why a golden could not be fetched or stored.
    package struct Failure: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }

        package init(reason: String) { self.reason = reason }
    }

    /// The golden whose pixels have `digest`; throws when the store has none or fails.
    package func fetch(_ digest: StableDigest) throws(Failure) -> RGBABitmap {
        let found: RGBABitmap?
        do { found = try store.golden(pixelDigest: digest, signingKey: signingKey) } catch {
            throw Failure(reason: "its PNG (pixels \(digest.hex)) could not be fetched from \(url): \(error)")
        }
        guard let found else { throw Failure(reason: "the remote cache \(url) has no PNG with pixels \(digest.hex)") }
        return found
    }

    /// Stores `png`, whose pixels have `pixelDigest`.
    package func upload(_ png: Data, pixelDigest: StableDigest) throws(Failure) {
        do { try store.putGolden(png, pixelDigest: pixelDigest, signingKey: signingKey) } catch {
            throw Failure(reason: "its PNG could not be stored in \(url): \(error)")
        }
    }
}
