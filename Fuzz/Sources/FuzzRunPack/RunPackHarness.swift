import Foundation
import FuzzSupport
@testable import RasterKit
@testable import RasterKitBatch

/// Run packs, as a remote store someone else can write to serves them: a run asks for the pack
/// under its identity and must end with a pack that is exactly its own plan (every output's
/// path, key, encoding and PNG header; every file byte for byte) or with none, never a trap, a
/// leak, an outsized allocation or a path outside its folder.
///
/// The first byte chooses how the rest is served: bit 0, signed (a secret on both sides) or not;
/// bit 1, as they are (the frame and its checksum are what is fuzzed), or as a pack body framed
/// with a correct checksum (and signature) under the run's identity, as a writer who knows the
/// format would, so that mutations reach the record's parser and the check against the plan.
enum RunPackHarness {
    static let secret = Data("fuzz-secret".utf8)

    static let manifest = """
        components:
          chip:
            sizes: ["30x12"]
            scales: [1, 2]
            states:
              normal: {fill: "#2F6FEB"}
              pressed: {fill: "#1F54C4"}
            layers:
              - roundedRect: {radius: 4, fill: "$fill"}
          panel:
            sizes: ["24x16"]
            caps: {top: 4, left: 4, bottom: 4, right: 4}
            states: {plain: {}}
            layers:
              - roundedRect: {radius: 4, fill: "#F1F5F9"}
          photo:
            sizes: ["12x12"]
            states: {broken: {}}
            layers:
              - image: {file: cut.png}
            fallback: chip
        svgs:
          - input: icons
            sizes: [8]
            out: icons
        """

    static let star = """
        <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">
        <path d="M12 2 L15 9 L22 9 L16.5 13.5 L18.5 21 L12 16.5 L5.5 21 L7.5 13.5 L2 9 L9 9 Z"/></svg>
        """

    /// The run every input is looked up for, prepared once, with its identity and the pack
    /// this build leaves for it.
    struct Fixture {
        let prepared: PreparedManifestRun
        let identity: StableDigest
        /// Kept as an array: see `lsan.supp`.
        let genuine: [UInt8]
    }

    static let fixture = makeHarnessFixture()

    /// The fixture, made once (see `lsan.supp` for why the name matters).
    private static func makeHarnessFixture() -> Fixture {
        do {
            let folder = Seeds.scratchFolder("run-pack")
            let manifestURL = folder.appendingPathComponent("assets.yaml")
            try Data(manifest.utf8).write(to: manifestURL)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("icons"), withIntermediateDirectories: true)
            try Data(star.utf8).write(to: folder.appendingPathComponent("icons/star.svg"))
            // A PNG cut in half: the photo falls back to the chip.
            let png = try RasterImage(size: Size(12), scale: 1) { $0.fillAll(with: .color(Color(red: 1, green: 0, blue: 0))) }.pngData()
            try png.prefix(png.count / 2).write(to: folder.appendingPathComponent("cut.png"))
            var run = ManifestRun(manifest: manifestURL, outputDirectory: folder.appendingPathComponent("out"), format: .xcassets)
            run.inputSettleTime = 0
            guard case .ready(let first) = try run.prepare() else { fatalError("a new folder was up to date") }
            // Rendered once with a store that keeps uploads: the pack this build leaves.
            let uploads = ServedBytes(Data())
            let cache = RasterCache(disk: try DiskCache(at: folder.appendingPathComponent("store.sqlite")), remote: uploads,
                                    respondsToMemoryPressure: false)
            let result = first.render(with: BatchRenderer(rasterizer: Rasterizer(cache: cache), jobs: 1))
            guard result.summary.failed == 0, cache.flushUploads(timeout: 60),
                  let identity = StoredRunRecord.identity(of: run, manifest: try Data(contentsOf: manifestURL)),
                  let genuine = uploads.uploaded[RemoteObjectName(digest: identity)] else {
                fatalError("the harness's run left no pack: \(result.summary)")
            }
            // Every input is looked up for a run into a new folder, which nothing else satisfies.
            run.outputDirectory = folder.appendingPathComponent("fresh")
            guard case .ready(let prepared) = try run.prepare() else { fatalError("a new folder was up to date") }
            return Fixture(prepared: prepared, identity: identity, genuine: genuine)
        } catch {
            fatalError("the harness's fixture failed: \(error)")
        }
    }

    /// The genuine pack, raw and as a body, signed and not.
    static func writeSeeds() {
        let fixture = fixture
        guard let body = RunPack.decode(Data(fixture.genuine), identity: fixture.identity) else {
            fatalError("this build's own pack does not decode")
        }
        Seeds.write(["raw": Data([0]) + Data(fixture.genuine), "raw-signed": Data([1]) + seal(Data(fixture.genuine), signed: true),
                     "body": Data([2]) + body, "body-signed": Data([3]) + body])
    }

    static func run(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        var input = FuzzBytes(pointer, count)
        let mode = input.byte()
        let signed = mode & 1 != 0, framed = mode & 2 != 0
        let rest = input.rest()
        let object = framed ? seal(RunPack.encode(identity: fixture.identity, body: rest), signed: signed) : rest
        var options = RemoteCacheOptions()
        options.signingKey = signed ? secret : nil
        let cache = RasterCache(remote: ServedBytes(object), remoteOptions: options, respondsToMemoryPressure: false)
        _ = fixture.prepared.storedRun(inRemoteStoreOf: cache)
        return 0
    }

    static func seal(_ object: Data, signed: Bool) -> Data {
        RemoteObjectSeal(key: signed ? secret : nil).seal(object, name: RemoteObjectName(digest: fixture.identity))
    }
}
