import Foundation
import FuzzSupport
@testable import RasterKit

/// Remote cache objects, as a store someone else can write to serves them: the bytes go through
/// the remote tier's whole lookup — the seal, the object's framing, the children's JSON, the
/// PNG's header checked against the key's geometry, then its pixels — and must end in a hit of
/// exactly the expected render or a miss, never a trap, a leak or an outsized allocation.
///
/// The first byte chooses how the rest is served:
/// - bit 0: signed (a tier with a secret) or not;
/// - bit 1: as they are (the framing's lengths and checks are what is fuzzed), or forged: the
///   fields below framed with a correct checksum (and signature), as a writer who knows the
///   format would, so that mutations reach what only a valid frame lets through;
/// - bit 2: looked up as the plain component's render or the nine-slice one's.
///
/// Forged fields: version (1 byte), encoding length (1 byte) and encoding, children length
/// (2 bytes, little-endian) and children's JSON, then the PNG.
enum RemoteObjectHarness {
    /// What the object is looked up as, and the object this build uploads for it.
    struct Target {
        let key: CacheKey
        let expected: ExpectedRender
        /// Kept as an array: see `lsan.supp`.
        let genuine: [UInt8]
    }

    static let secret = Data("fuzz-secret".utf8)
    static let limits = ResourceLimits.untrusted

    static let targets = makeHarnessFixture()

    /// The targets, made once (see `lsan.supp` for why the name matters).
    private static func makeHarnessFixture() -> [Target] {
        let uploads = ServedBytes(Data())
        let cache = RasterCache(remote: uploads, respondsToMemoryPressure: false)
        let rasterizer = Rasterizer(cache: cache, limits: limits)
        func target<Component: Rasterizable>(_ component: Component, _ size: Size) -> Target {
            do {
                let key = try rasterizer.cacheKey(for: component, size: size, scale: 2)
                let expected = try ExpectedRender(for: component, size: size, scale: 2, limits: limits)
                _ = try rasterizer.render(RenderRequest(component, size: size, scale: 2))
                guard cache.flushUploads(timeout: 30), let genuine = uploads.uploaded[RemoteObjectName(key: key)] else {
                    fatalError("the render of \(component) was not uploaded")
                }
                return Target(key: key, expected: expected, genuine: genuine)
            } catch {
                fatalError("the harness's own renders failed: \(error)")
            }
        }
        return [target(Swatch(), Size(width: 12, height: 8)), target(Pill(), Size(width: 40, height: 12))]
    }

    /// The genuine object of each target, served raw and forged, signed and not.
    static func writeSeeds() {
        var seeds: [String: Data] = [:]
        for (index, target) in targets.enumerated() {
            guard let contents = RemoteCacheObject.decode(Data(target.genuine), digest: target.key.value) else {
                fatalError("this build's own object does not decode")
            }
            let encoding = Data((contents.encoding ?? "").utf8)
            let children = Data(#"[{"typeName":"FuzzRemoteObject.Swatch","renderVersion":0}]"#.utf8)
            var fields = Data([2, UInt8(encoding.count)]) + encoding
            fields.append(contentsOf: [UInt8(children.count & 0xFF), UInt8(children.count >> 8)])
            fields += children + contents.png
            let which = UInt8(index) << 2
            seeds["raw-\(index)"] = Data([which]) + Data(target.genuine)
            seeds["raw-signed-\(index)"] = Data([which | 1]) + seal(Data(target.genuine), for: target, signed: true)
            seeds["forged-\(index)"] = Data([which | 2]) + fields
            seeds["forged-signed-\(index)"] = Data([which | 3]) + fields
        }
        Seeds.write(seeds)
    }

    static func run(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        var input = FuzzBytes(pointer, count)
        let mode = input.byte()
        let signed = mode & 1 != 0, forged = mode & 2 != 0
        let target = targets[Int(mode >> 2) & 1]
        let object = forged ? seal(forge(&input, for: target), for: target, signed: signed) : input.rest()
        var options = RemoteCacheOptions()
        options.signingKey = signed ? secret : nil
        let tier = RemoteTier(store: ServedBytes(object), options: options)
        if let hit = tier.hit(for: target.key, expecting: target.expected) {
            // Served only when it is exactly the render the key names.
            let size = target.expected.pixelSize
            precondition(size == nil || (hit.hit.image.pixelWidth, hit.hit.image.pixelHeight) == size!,
                         "a hit of another size than its key's")
        }
        return 0
    }

    /// The forged fields in `input`, framed as the format says with a correct checksum.
    static func forge(_ input: inout FuzzBytes, for target: Target) -> Data {
        let version = input.byte()
        let encoding = input.data(Int(input.byte()))
        let children = input.data(Int(input.uint16()))
        let png = input.rest()
        var object = Data(RemoteCacheObject.magic)
        object.append(version)
        append(target.key.value.high, to: &object)
        append(target.key.value.low, to: &object)
        append(RemoteCacheObject.checksum(digest: target.key.value, encoding: version == 1 ? nil : encoding,
                                          children: children, png: png), to: &object)
        if version != 1 {
            object.append(UInt8(encoding.count))
            object.append(encoding)
        }
        append(UInt32(children.count), to: &object)
        object.append(children)
        append(UInt32(png.count), to: &object)
        object.append(png)
        return object
    }

    static func seal(_ object: Data, for target: Target, signed: Bool) -> Data {
        RemoteObjectSeal(key: signed ? secret : nil).seal(object, name: RemoteObjectName(key: target.key))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }
}


/// A fixed-size component.
struct Swatch: Rasterizable {
    func draw(in canvas: Canvas, size: Size) {
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: 2), with: .color(Color(red: 0.2, green: 0.4, blue: 0.9)))
    }
}

/// A nine-slice component: its render is checked against its cap insets too.
struct Pill: Rasterizable {
    static let minimumSize = Size(width: 40, height: 12)
    var capInsets: EdgeInsets? { EdgeInsets(top: 5, left: 6, bottom: 5, right: 6) }
    func draw(in canvas: Canvas, size: Size) {
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: 6), with: .color(Color(red: 0.9, green: 0.3, blue: 0.2)))
    }
}
