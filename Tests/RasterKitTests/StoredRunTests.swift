import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch
import RasterKitRemoteCache

/// Issue 16: a run into a fresh folder (a CI job on a fresh checkout, with only the store
/// restored) is written from the record the last identical run left in the store, without
/// loading the manifest — byte for byte what a cold run writes, and never from a record that no
/// longer describes the inputs or from bytes the store no longer holds.
@Suite struct StoredRunTests {
    /// A project: the fresh-folder tests' components, one whose PNG cannot be decoded (so it
    /// falls back), one with a fallback it never needs (the pair is never stored: its file's
    /// bytes are carried in the record), and a folder of SVGs rendered like `rasterkit svg`.
    static let manifest = BatchFreshFolderTests.manifest + """

          photo:
            sizes: ["24x24"]
            states: {broken: {}}
            layers:
              - image: {file: photos/cut.png}
            fallback: chip
          badge:
            sizes: ["16x16"]
            states: {plain: {}}
            layers:
              - rect: {fill: "#D93B3B"}
            fallback: chip
        svgs:
          - input: icons
            sizes: [16]
            out: icons
        """

    /// Writes the project into `folder`.
    static func writeProject(in fixture: ManifestFixture, under folder: String = "") throws -> URL {
        let prefix = folder.isEmpty ? "" : folder + "/"
        try fixture.writeSVG(prefix + "icons/star.svg", color: "gold")
        try fixture.writeSVG(prefix + "icons/dot.svg", color: "teal")
        let png = try TestSupport.solidImage(.red).pngData()
        try fixture.write(png.prefix(png.count / 2), to: prefix + "photos/cut.png")
        return try fixture.write(manifest, to: prefix + "assets.yaml")
    }

    /// A run of `manifest` into `out` whose inputs count as settled at once.
    static func run(_ manifest: URL, into out: URL, format: ExportFormat? = nil) -> ManifestRun {
        var run = ManifestRun(manifest: manifest, outputDirectory: out, format: format)
        run.inputSettleTime = 0
        return run
    }

    /// Prepares and renders `run` with a store at `store`, as `rasterkit render` does.
    static func render(_ run: ManifestRun, store: URL) throws -> ManifestRunResult {
        guard case .ready(let prepared) = try run.prepare() else {
            Issue.record("the run was up to date")
            return ManifestRunResult(summary: BatchSummary(total: 0, drawn: 0, cached: 0, failed: 0, seconds: 0, failures: []), files: 0)
        }
        let renderer = BatchRenderer(jobs: 2) { Rasterizer(cache: RasterCache(disk: try DiskCache(at: store))) }
        let result = prepared.render(with: renderer)
        try renderer.rasterizer?.cache.flush()
        try renderer.rasterizer?.cache.diskCache?.close()
        return result
    }

    /// Looks for the stored run of `run` in a new connection to `store` and writes it.
    static func writeStored(_ run: ManifestRun, store: URL) throws -> ManifestRunResult? {
        let disk = try DiskCache(at: store)
        defer { try? disk.close() }
        return run.storedRun(in: disk)?.write(jobs: 2)
    }

    @Test(arguments: ExportFormat.allCases.filter { ![.pdf, .svg].contains($0) })
    func aRunIntoAFreshFolderIsWrittenFromTheRecordByteForByte(format: ExportFormat) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try Self.writeProject(in: fixture)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        let cold = fixture.folder.appendingPathComponent("cold"), fresh = fixture.folder.appendingPathComponent("fresh")

        let first = try Self.render(Self.run(manifest, into: cold, format: format), store: store)
        #expect(first.summary.failed == 0 && first.summary.fellBack > 0 && first.summary.drawn > 0)
        let written = try #require(try Self.writeStored(Self.run(manifest, into: fresh, format: format), store: store))
        #expect(written.summary.drawn == 0 && written.summary.failed == 0)
        #expect(written.summary.total == first.summary.total && written.summary.fellBack == first.summary.fellBack)
        #expect(written.files == first.files)
        #expect(try BatchFreshFolderTests.contents(of: fresh) == BatchFreshFolderTests.contents(of: cold))
        // Built beside under a hidden name and moved into place: nothing is left beside it.
        #expect(try StagedFolderTests.stagingLeftovers(in: fixture.folder).isEmpty)
        // The folder is then up to date by its own record, and its index knows every output.
        #expect(Self.run(manifest, into: fresh, format: format).upToDateResult()?.summary.total == first.summary.total)
    }

    /// A cold run started the moment its project was written (a CI job right after its
    /// checkout) still stamps every input, so it records itself and the next job's fresh folder
    /// is written from that record.
    @Test func aRunStartedRightAfterItsCheckoutRecordsItself() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try Self.writeProject(in: fixture)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        let run = ManifestRun(manifest: manifest, outputDirectory: fixture.folder.appendingPathComponent("cold"))
        _ = try Self.render(run, store: store)
        let fresh = ManifestRun(manifest: manifest, outputDirectory: fixture.folder.appendingPathComponent("fresh"))
        let written = try #require(try Self.writeStored(fresh, store: store), "the cold run left no record")
        #expect(written.summary.failed == 0 && written.summary.drawn == 0)
    }

    @Test func aFreshCheckoutElsewhereFindsTheRecordAndAChangedInputDoesNot() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try Self.writeProject(in: fixture, under: "checkout-1")
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        _ = try Self.render(Self.run(manifest, into: fixture.folder.appendingPathComponent("cold")), store: store)

        // Another checkout at another path: every file new, the same bytes.
        let elsewhere = try Self.writeProject(in: fixture, under: "checkout-2")
        let copied = try Self.writeStored(Self.run(elsewhere, into: fixture.folder.appendingPathComponent("fresh")), store: store)
        #expect(copied?.summary.drawn == 0)

        let disk = try DiskCache(at: store)
        defer { try? disk.close() }
        let probe = Self.run(elsewhere, into: fixture.folder.appendingPathComponent("probe"))
        // An SVG that changes, one that is added to the folder an `svgs:` entry lists, and the
        // manifest itself: each makes the record another run's.
        try fixture.writeSVG("checkout-2/icons/star.svg", color: "red")
        #expect(probe.storedRun(in: disk) == nil)
        try fixture.writeSVG("checkout-2/icons/star.svg", color: "gold")
        #expect(probe.storedRun(in: disk) != nil, "the same bytes again, with new times, match")
        try fixture.writeSVG("checkout-2/icons/new.svg")
        #expect(probe.storedRun(in: disk) == nil)
        try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("checkout-2/icons/new.svg"))
        try fixture.write(Self.manifest + "\n# a comment\n", to: "checkout-2/assets.yaml")
        #expect(probe.storedRun(in: disk) == nil)
        // Other options are another run.
        try fixture.write(Self.manifest, to: "checkout-2/assets.yaml")
        #expect(probe.storedRun(in: disk) != nil)
        #expect(Self.run(elsewhere, into: probe.outputDirectory, format: .xcassets).storedRun(in: disk) == nil)
        var sharded = probe
        sharded.shard = try Shard(parsing: "0/2")
        #expect(sharded.storedRun(in: disk) == nil)
        var withSheet = probe
        withSheet.contactSheet = fixture.folder.appendingPathComponent("sheet.png")
        #expect(withSheet.storedRun(in: disk) == nil)
    }

    /// Inputs outside the manifest's folder are recorded relative to it, so each checkout checks
    /// its own; a link in an `svgs:` folder whose target appears is a change.
    @Test func inputsOutsideTheManifestsFolderAreCheckedInEachCheckout() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = "svgs:\n  - input: ../design/icons\n    sizes: [16]\n    out: icons\n"
        for checkout in ["one", "two"] {
            try fixture.writeSVG("\(checkout)/design/icons/star.svg", color: "gold")
            try fixture.write(manifest, to: "\(checkout)/assets/assets.yaml")
            try FileManager.default.createSymbolicLink(atPath: fixture.folder.path + "/\(checkout)/design/icons/late.svg",
                                                       withDestinationPath: "../late.svg")
        }
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        // Relative to a base folder, as `rasterkit render assets.yaml` makes it (against the
        // working directory, which tests running in parallel must not change).
        let relative = URL(fileURLWithPath: "assets.yaml", relativeTo: fixture.folder.appendingPathComponent("one/assets"))
        _ = try Self.render(Self.run(relative, into: fixture.folder.appendingPathComponent("cold")), store: store)

        let disk = try DiskCache(at: store)
        defer { try? disk.close() }
        let two = Self.run(fixture.folder.appendingPathComponent("two/assets/assets.yaml"), into: fixture.folder.appendingPathComponent("fresh"))
        #expect(two.storedRun(in: disk) != nil)
        let identity = try #require(StoredRunRecord.identity(of: two, manifest: Data(manifest.utf8)))
        let record = try #require(disk.runRecord(for: identity).flatMap { StoredRunRecord(data: $0) })
        #expect(record.inputs.map(\.path).contains("../design/icons"))
        try fixture.writeSVG("two/design/icons/star.svg", color: "red")
        #expect(two.storedRun(in: disk) == nil, "the second checkout's own icon changed")
        try fixture.writeSVG("two/design/icons/star.svg", color: "gold")
        #expect(two.storedRun(in: disk) != nil)
        try fixture.writeSVG("two/design/late.svg")
        #expect(two.storedRun(in: disk) == nil, "the link's target appeared: a walk now finds it")
    }

    @Test func anEntryGoneOrDamagedIsDrawnAgainNotCopied() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try Self.writeProject(in: fixture)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        let cold = fixture.folder.appendingPathComponent("cold")
        _ = try Self.render(Self.run(manifest, into: cold), store: store)
        let expected = try BatchFreshFolderTests.contents(of: cold)

        // One entry removed, another's bytes garbled behind its checksum.
        let queue = try StoreFile(path: store.path)
        try queue.transaction { db in
            try db.execute("DELETE FROM entries WHERE id = (SELECT min(id) FROM entries WHERE png_encoding IS NOT NULL)")
            try db.execute("""
                UPDATE entries SET png = zeroblob(length(png))
                WHERE id = (SELECT max(id) FROM entries WHERE png_encoding IS NOT NULL)
                """)
        }
        queue.close()

        let fresh = fixture.folder.appendingPathComponent("fresh")
        let run = Self.run(manifest, into: fresh)
        #expect(try Self.writeStored(run, store: store) == nil, "the store misses an output's bytes")
        // Rendered as usual: what is missing is drawn, and the folder holds what a cold run wrote.
        let redrawn = try Self.render(run, store: store)
        #expect(redrawn.summary.drawn >= 1 && redrawn.summary.failed == 0)
        #expect(try BatchFreshFolderTests.contents(of: fresh) == expected)
        // That run left a whole record again.
        let again = fixture.folder.appendingPathComponent("again")
        #expect(try Self.writeStored(Self.run(manifest, into: again), store: store)?.summary.drawn == 0)
        #expect(try BatchFreshFolderTests.contents(of: again) == expected)
    }

    /// Issue 22: a machine whose own store is empty writes a run from the pack another machine's
    /// identical run left in the shared remote store — one request, byte for byte the same files.
    @Test func anEmptyStoreWritesTheRunFromTheRemotePack() throws {
        let server = try NginxServer()
        defer { server.remove() }
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try Self.writeProject(in: fixture)
        func machine(_ name: String, url: URL? = nil) throws -> RasterCache {
            var configuration = RemoteCache.Configuration()
            configuration.requestTimeout = 2
            return RasterCache(disk: try DiskCache(at: fixture.folder.appendingPathComponent("\(name).sqlite")),
                               remote: RemoteCache(url: url ?? server.writable, configuration: configuration),
                               respondsToMemoryPressure: false)
        }
        // The first machine renders, and leaves its record in its store and a pack remotely.
        let first = try machine("first")
        let cold = fixture.folder.appendingPathComponent("cold")
        guard case .ready(let prepared) = try Self.run(manifest, into: cold, format: .ninepatch).prepare() else { return }
        let result = prepared.render(with: BatchRenderer(rasterizer: Rasterizer(cache: first), jobs: 2))
        #expect(first.flushUploads(timeout: 10))
        try first.flush()
        #expect(result.summary.failed == 0 && (first.remoteStatistics?.uploads ?? 0) > result.summary.drawn)

        let second = try machine("second")
        let fresh = fixture.folder.appendingPathComponent("fresh")
        let pack = try Self.remotePack(Self.run(manifest, into: fresh, format: .ninepatch), second)
        let stored = try #require(pack)
        #expect(stored.store === second.disk && stored.outputCount == result.summary.total)
        let written = try #require(stored.write(jobs: 2))
        #expect(written.summary.drawn == 0 && written.summary.fellBack == result.summary.fellBack)
        #expect(second.remoteStatistics?.hits == 1, "one request for the whole run")
        #expect(try BatchFreshFolderTests.contents(of: fresh) == BatchFreshFolderTests.contents(of: cold))

        // A damaged pack (its last byte changed) is refused, counted, and the run renders as usual.
        let identity = try #require(StoredRunRecord.identity(of: Self.run(manifest, into: fresh, format: .ninepatch),
                                                             manifest: Data(contentsOf: manifest)))
        let object = server.store.appendingPathComponent("\(CacheKey.formatVersion)/\(identity.hex)")
        var bytes = try Data(contentsOf: object)
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: object)
        let third = try machine("third")
        #expect(try Self.remotePack(Self.run(manifest, into: fixture.folder.appendingPathComponent("third"), format: .ninepatch), third) == nil)
        #expect(third.remoteStatistics?.rejected == 1)
        // A remote that is down costs one refused connection, then nothing is asked.
        server.stop()
        let fourth = try machine("fourth")
        #expect(try Self.remotePack(Self.run(manifest, into: fixture.folder.appendingPathComponent("fourth"), format: .ninepatch), fourth) == nil)
        #expect(fourth.remoteStatistics?.errors == 1)
    }

    /// The pack of `run` in `cache`'s remote store, checked against the run's plan.
    static func remotePack(_ run: ManifestRun, _ cache: RasterCache) throws -> StoredManifestRun? {
        guard case .ready(let prepared) = try run.prepare() else { return nil }
        return prepared.storedRun(inRemoteStoreOf: cache)
    }

    /// Issue 46: a pack is a hint, never a plan. Anyone with write access to the store could
    /// write one: an empty pack, one that leaves out an output, or one whose bytes are another
    /// image than the key names is not used (the run renders as usual and writes every file).
    @Test func aForgedPackIsIgnoredAndEveryOutputIsWritten() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try Self.writeProject(in: fixture)
        let remote = FakeRemote()
        func machine(_ name: String) throws -> RasterCache {
            RasterCache(disk: try DiskCache(at: fixture.folder.appendingPathComponent("\(name).sqlite")), remote: remote,
                        respondsToMemoryPressure: false)
        }
        let first = try machine("first")
        let cold = fixture.folder.appendingPathComponent("cold")
        guard case .ready(let prepared) = try Self.run(manifest, into: cold).prepare() else { return }
        let result = prepared.render(with: BatchRenderer(rasterizer: Rasterizer(cache: first), jobs: 2))
        #expect(first.flushUploads(timeout: 10))
        try first.flush()
        let identity = try #require(StoredRunRecord.identity(of: Self.run(manifest, into: cold), manifest: Data(contentsOf: manifest)))
        let name = RemoteObjectName(digest: identity).description
        let genuine = try #require(remote.object(name))
        let genuineBody = try #require(RunPack.decode(genuine, identity: identity))
        let genuineRecord = try #require(StoredRunRecord(data: genuineBody))
        #expect(try Self.remotePack(Self.run(manifest, into: fixture.folder.appendingPathComponent("genuine")), try machine("g")) != nil)

        var empty = genuineRecord
        empty.outputs = []
        var missingOne = genuineRecord
        missingOne.outputs.removeLast()
        var forgedBytes = genuineRecord
        if case let .inline(key, encoding, _) = forgedBytes.outputs[0].content {
            // A valid PNG of another size under the output's key.
            let other = try RasterImage(size: Size(width: 48, height: 48), scale: 1) { _ in }.pngData()
            forgedBytes.outputs[0].content = .inline(key: key, encoding: encoding, bytes: other)
        }
        for (index, forged) in [empty, missingOne, forgedBytes].enumerated() {
            let body = try #require(forged.data)
            remote.replace(name, with: RunPack.encode(identity: identity, body: body))
            let folder = fixture.folder.appendingPathComponent("forged\(index)")
            #expect(try Self.remotePack(Self.run(manifest, into: folder), try machine("m\(index)")) == nil, "forged pack \(index) was used")
            // Rendered as usual: every output, byte for byte what a genuine run writes.
            let rendered = try Self.render(Self.run(manifest, into: folder), store: fixture.folder.appendingPathComponent("r\(index).sqlite"))
            #expect(rendered.summary.total == result.summary.total && rendered.summary.failed == 0)
            #expect(try BatchFreshFolderTests.contents(of: folder) == BatchFreshFolderTests.contents(of: cold))
        }
    }

    @Test func aRecordIsRefusedUnlessWhole() throws {
        let record = StoredRunRecord(
            inputs: [.init(path: "icons/star.svg", isFolder: false, digest: StableDigest(high: 1, low: 2)),
                     .init(path: "icons", isFolder: true, digest: StableDigest(high: 3, low: 4))],
            files: [("A.xcassets/Contents.json", Data("{}".utf8))],
            outputs: [("chip.png", .stored(key: StableDigest(high: 5, low: 6), encoding: "png1")),
                      ("photo.png", .fellBack(Data([0x89, 0x50, 0x4E, 0x47]))),
                      ("drawable/panel.9.png", .inline(key: StableDigest(high: 7, low: 8), encoding: "png1-9patch1", bytes: Data([1, 2, 3])))])
        let data = try #require(record.data)
        #expect(StoredRunRecord(data: data) == record)
        let text = String(decoding: data, as: UTF8.self)
        // Cut short, a field too many or too few, a bad digest or Base64, and paths that would
        // leave the output folder: each refused as a whole.
        for damaged in [String(text.dropLast(5)), text.replacingOccurrences(of: "end\n", with: ""),
                        text.replacingOccurrences(of: "png1\tchip.png", with: "png1\tx\tchip.png"),
                        text.replacingOccurrences(of: "0000000000000005", with: "zzzzzzzzzzzzzzzz"),
                        text.replacingOccurrences(of: "iVBORw==", with: "%%%"),
                        text.replacingOccurrences(of: "\tchip.png", with: "\t../chip.png"),
                        text.replacingOccurrences(of: "\tphoto.png", with: "\t/tmp/photo.png"),
                        text.replacingOccurrences(of: "\tA.xcassets", with: "\t./A.xcassets"),
                        text.replacingOccurrences(of: "png1-9patch1\tAQID", with: "png1-9patch1"),
                        text.replacingOccurrences(of: "\tdrawable/panel", with: "\tdrawable/../../panel"),
                        "", "# rasterkit stored run v0\nend\n"] {
            #expect(StoredRunRecord(data: Data(damaged.utf8)) == nil, "accepted: \(damaged)")
        }
        // A path or encoding the format cannot hold makes no record at all.
        var tabbed = record
        tabbed.outputs[0].path = "chip\t.png"
        #expect(tabbed.data == nil)
    }

    @Test func aDamagedRecordInTheStoreIsRemovedAndTheRunRendersAsUsual() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try Self.writeProject(in: fixture)
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        _ = try Self.render(Self.run(manifest, into: fixture.folder.appendingPathComponent("cold")), store: store)
        let queue = try StoreFile(path: store.path)
        try queue.transaction { try $0.execute("UPDATE run_records SET body = CAST('garbage' AS BLOB)") }
        #expect(try Self.writeStored(Self.run(manifest, into: fixture.folder.appendingPathComponent("fresh")), store: store) == nil)
        #expect(try queue.transaction { try $0.value("SELECT count(*) FROM run_records") } == 0, "the damaged record is removed")
        queue.close()
    }

    @Test func aRunPackIsVerifiedAgainstItsIdentity() {
        let identity = StableDigest(high: 9, low: 10), body = Data("a record".utf8)
        let object = RunPack.encode(identity: identity, body: body)
        #expect(RunPack.decode(object, identity: identity) == body)
        #expect(RunPack.decode(object, identity: StableDigest(high: 9, low: 11)) == nil, "another run's pack")
        #expect(RunPack.decode(object.dropLast(), identity: identity) == nil, "truncated")
        #expect(RunPack.decode(Data(object.prefix(10)), identity: identity) == nil)
        #expect(RunPack.decode(Data("RKRUNPK2".utf8) + object.dropFirst(8), identity: identity) == nil)
    }

    @Test func aFallbackForAReasonThatMayNotRecurIsNotRecorded() {
        #expect(BatchRunLog.mayNotRecur(RenderError.timeLimitExceeded(seconds: 1)))
        #expect(BatchRunLog.mayNotRecur(RenderError.memoryBudgetExceeded(requested: 10, budget: 1)))
        #expect(BatchRunLog.mayNotRecur(RenderError.drawFailed(typeName: "T", key: CacheKey(recorded: StableDigest(high: 0, low: 0)),
                                                               underlying: RenderError.timeLimitExceeded(seconds: 1))))
        #expect(BatchRunLog.mayNotRecur(PNGError.tooLarge(width: 9, height: 9, limits: PixelLimits())))
        #expect(!BatchRunLog.mayNotRecur(RenderError.invalidSize(Size(width: -1, height: 1))))
        #expect(BatchRunLog.mayNotRecur(PNGError.outOfMemory))
        #expect(BatchRunLog.mayNotRecur(SVGError.overLimit(what: "text", limit: 1, unit: "characters", source: nil)))
        let log = BatchRunLog(count: 2)
        log.noteFallback(at: 1, error: RenderError.timeLimitExceeded(seconds: 1))
        #expect(log.snapshot[1].fellBack && log.snapshot[1].mayNotRecur && !log.snapshot[0].fellBack)
    }

    /// Every limit but the memory budget and time limit is part of a run's identity: changing
    /// any one changes the text, and a limit added to the structs must be added to it too.
    @Test func everyLimitButTheMachinesIsInTheIdentity() {
        let fields = Mirror(reflecting: ResourceLimits.default).children.compactMap(\.label)
        #expect(fields.count == 11 && Mirror(reflecting: PixelLimits.default).children.count == 2,
                "a new limit: add it to StoredRunRecord.limitsText and here")
        let base = StoredRunRecord.limitsText(.default)
        var changed: [ResourceLimits] = []
        for index in 0..<10 {
            var limits = ResourceLimits.default
            switch index {
            case 0: limits.pixels.maximumSide += 1
            case 1: limits.pixels.maximumPixelCount += 1
            case 2: limits.maximumInputBytes += 1
            case 3: limits.maximumSVGTextCharacters += 1
            case 4: limits.maximumSVGExpandedBytes += 1
            case 5: limits.maximumSVGUseCopies += 1
            case 6: limits.maximumShadowBlur += 0.5
            case 7: limits.maximumShadowOffset += 0.5
            case 8: limits.maximumInterpolatedLength += 1
            default: limits.maximumPNGChunkBytes += 1
            }
            changed.append(limits)
        }
        let texts = Set(changed.map(StoredRunRecord.limitsText))
        #expect(texts.count == 10 && !texts.contains(base))
        var machine = ResourceLimits.default
        machine.memoryBudget = 1 << 20
        machine.timeLimit = 3
        #expect(StoredRunRecord.limitsText(machine) == base)
        #expect(Set(fields).isSuperset(of: StoredRunRecord.limitsLeftOut))
    }

    /// Inputs are recorded relative to the manifest's folder, so another checkout reads its own
    /// files, except a path the manifest spells out as it is, which reads that very file.
    @Test func inputsAreRecordedRelativeUnlessTheManifestNamesThemAsTheyAre() {
        let manifest = "assets:\n  logo: /opt/brand/logo.svg\n  icon: icons/star.svg\n"
        #expect(StoredRunRecord.relative("/work/app/icons/star.svg", to: "/work/app", manifest: manifest) == "icons/star.svg")
        #expect(StoredRunRecord.relative("/work/shared/a.svg", to: "/work/app", manifest: manifest) == "../shared/a.svg")
        #expect(StoredRunRecord.relative("/opt/brand/logo.svg", to: "/work/app", manifest: manifest) == "/opt/brand/logo.svg")
        #expect(StoredRunRecord.contains("abcabd", "abd") && !StoredRunRecord.contains("abcab", "abd"))
        #expect(StoredRunRecord.contains("x", "") && !StoredRunRecord.contains("", "x") && StoredRunRecord.contains("é/ü", "/ü"))
    }

    @Test func theBuildIsIdentifiedByItsBuildID() throws {
        let identity = try #require(BuildIdentity.current)
        #expect(identity.hasPrefix("build-id ") && identity.count > "build-id ".count + 16)
        // Notes: a vendor's note first, then GNU's build ID; a truncated one is not read past its end.
        var notes: [UInt8] = []
        func note(_ name: String, type: UInt32, _ descriptor: [UInt8]) {
            let nameBytes = Array(name.utf8) + [0]
            for value in [UInt32(nameBytes.count), UInt32(descriptor.count), type] { withUnsafeBytes(of: value.littleEndian) { notes += $0 } }
            notes += nameBytes + Array(repeating: 0, count: (4 - nameBytes.count % 4) % 4)
            notes += descriptor + Array(repeating: 0, count: (4 - descriptor.count % 4) % 4)
        }
        note("Go", type: 4, [1, 2, 3])
        note("GNU", type: 3, [0xAB, 0xCD, 0xEF, 0x01, 0x23])
        #expect(notes.withUnsafeBytes { BuildIdentity.gnuBuildID(in: $0) } == [0xAB, 0xCD, 0xEF, 0x01, 0x23])
        #expect(notes.dropLast(4).withUnsafeBytes { BuildIdentity.gnuBuildID(in: $0) } == nil)
        #expect(HexDigits.of([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff" && HexDigits.of([UInt8]()) == "")
    }
}
