import Foundation

/// What makes a remote store that others can write to safe to read: with a shared secret
/// (``RemoteCacheOptions/signingKey``, `RASTERKIT_REMOTE_CACHE_KEY` for the command line), every
/// object stored is signed — `RKS1`, then HMAC-SHA-256 of its name and bytes, then the object —
/// and only objects signed with that secret for the very name asked are read; anything else is
/// rejected before it is parsed. Without a secret, objects are stored unsigned and read as they
/// are (a signed one's signature is not checked): whoever may write to the store is trusted.
struct RemoteObjectSeal: Sendable {
    static let magic: [UInt8] = Array("RKS1".utf8)
    static let tagSize = 32

    private let signer: HMACSHA256?

    init(key: Data?) { signer = key.flatMap { $0.isEmpty ? nil : HMACSHA256(key: [UInt8]($0)) } }

    /// Whether objects are signed and checked.
    var isSigning: Bool { signer != nil }

    /// `object`, to be stored under `name`: signed when there is a secret, as it is otherwise.
    func seal(_ object: Data, name: RemoteObjectName) -> Data {
        guard let signer else { return object }
        var sealed = Data(Self.magic)
        sealed.append(contentsOf: signer.tag(Array(name.description.utf8), [UInt8](object)))
        sealed.append(object)
        return sealed
    }

    /// The object in `stored`, read from under `name`: with a secret, only when it is signed with
    /// it for that name (nil otherwise); without one, the object (a signed one unwrapped).
    func open(_ stored: Data, name: RemoteObjectName) -> Data? {
        let isSealed = stored.count >= Self.magic.count + Self.tagSize && stored.prefix(Self.magic.count).elementsEqual(Self.magic)
        guard let signer else {
            return isSealed ? stored.dropFirst(Self.magic.count + Self.tagSize) : stored
        }
        guard isSealed else { return nil }
        let tag = stored.dropFirst(Self.magic.count).prefix(Self.tagSize)
        let object = stored.dropFirst(Self.magic.count + Self.tagSize)
        guard HMACSHA256.matches(tag, signer.tag(Array(name.description.utf8), [UInt8](object))) else { return nil }
        return Data(object)
    }
}
