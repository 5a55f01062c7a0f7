import Foundation
import Synchronization
import Testing
@testable import RasterKit
import RasterKitTestSupport
@testable import RasterKitBatch

@Suite struct SVGBatchTests {
    typealias S = SVGSamples

    /// A folder of SVGs: a.svg, sub/b.svg, sub/deeper/c.SVG, a hidden one, a text file, a broken one.
    static func iconFolder(broken: Bool = false) throws -> URL {
        let folder = try TestSupport.temporaryDirectory()
        let manager = FileManager.default
        for sub in ["sub/deeper", ".hidden"] {
            try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try S.redSquare.write(to: folder.appendingPathComponent("a.svg"))
        try S.redBlue.write(to: folder.appendingPathComponent("sub/b.svg"))
        try S.redSquare.write(to: folder.appendingPathComponent("sub/deeper/c.SVG"))
        try S.redSquare.write(to: folder.appendingPathComponent(".hidden/d.svg"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        if broken { try Data("<svg".utf8).write(to: folder.appendingPathComponent("sub/broken.svg")) }
        return folder
    }

    @Test(arguments: [
        (48.0, 1.0, "icon-48.png"), (48, 2, "icon-48@2x.png"), (48, 3, "icon-48@3x.png"),
        (22.5, 1.5, "icon-22.5@1.5x.png"), (16, 0.5, "icon-16@0.5x.png"),
    ])
    func outputNames(size: Double, scale: Double, expected: String) {
        #expect(SVGBatch.outputName(for: "icon", size: size, scale: scale) == expected)
    }

    @Test func planningMirrorsFoldersAndSkipsHiddenAndOtherFiles() throws {
        let folder = try Self.iconFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let batch = SVGBatch(inputs: [folder], sizes: [16, 32], scales: [1, 2])
        let paths = try batch.outputs().map(\.path)
        #expect(paths == [
            "a-16.png", "a-16@2x.png", "a-32.png", "a-32@2x.png",
            "sub/b-16.png", "sub/b-16@2x.png", "sub/b-32.png", "sub/b-32@2x.png",
            "sub/deeper/c-16.png", "sub/deeper/c-16@2x.png", "sub/deeper/c-32.png", "sub/deeper/c-32@2x.png",
        ])
        let sources = try batch.sources()
        #expect(sources.map(\.displayPath) == ["a.svg", "sub/b.svg", "sub/deeper/c.SVG"].map { folder.path + "/" + $0 })
    }

    @Test func aSingleFileHasNoFolderPrefix() throws {
        let folder = try Self.iconFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let batch = SVGBatch(inputs: [folder.appendingPathComponent("sub/b.svg")], sizes: [24])
        #expect(try batch.outputs().map(\.path) == ["b-24.png"])
    }

    @Test func planningErrors() throws {
        let folder = try Self.iconFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing")
        #expect(throws: BatchPlanError.inputNotFound(path: missing.path)) {
            try SVGBatch(inputs: [missing], sizes: [16]).outputs()
        }
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data().write(to: empty.appendingPathComponent("readme.txt"))
        #expect(throws: BatchPlanError.noSVGFiles(folder: empty.path)) {
            try SVGBatch(inputs: [empty], sizes: [16]).outputs()
        }
        // a.svg at the top and sub/deeper/c.SVG renamed a.svg both become a-16.png from two inputs.
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try S.redSquare.write(to: other.appendingPathComponent("a.svg"))
        let error = #expect(throws: BatchPlanError.self) {
            try SVGBatch(inputs: [folder.appendingPathComponent("a.svg"), other], sizes: [16]).outputs()
        }
        #expect(error == .conflictingOutputs(path: "a-16.png", first: folder.appendingPathComponent("a.svg").path,
                                             second: other.path + "/a.svg"))
    }

    @Test func linksAreFollowedToFilesButNotToFolders() throws {
        let folder = try Self.iconFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        // An alias, as icon themes have them, and a link back up that would loop.
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("alias.svg").path, withDestinationPath: "a.svg")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("sub/loop").path, withDestinationPath: "..")
        let batch = SVGBatch(inputs: [folder, folder.appendingPathComponent("a.svg")], sizes: [16])
        #expect(try batch.outputs().map(\.path) == ["a-16.png", "alias-16.png", "sub/b-16.png", "sub/deeper/c-16.png"])
    }

    @Test func namesThatReachOneFileUnderOneOutputNameAreOneSource() throws {
        let folder = try Self.iconFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        // A hard link and a symbolic link whose names differ from a.svg only in the extension's
        // case: the walk reports the first as a plain file, so only its inode tells.
        try manager.linkItem(atPath: folder.appendingPathComponent("a.svg").path,
                             toPath: folder.appendingPathComponent("a.SVG").path)
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("a.svgz").path, withDestinationPath: "a.svg")
        let outputs = try SVGBatch(inputs: [folder, folder.appendingPathComponent("a.SVG")], sizes: [16]).outputs()
        #expect(outputs.map(\.path) == ["a-16.png", "sub/b-16.png", "sub/deeper/c-16.png"])
        #expect(outputs.first?.source == folder.path + "/a.SVG")
        // Another file under the same output name is not the same source: the two conflict.
        try manager.removeItem(at: folder.appendingPathComponent("a.SVG"))
        try S.redBlue.write(to: folder.appendingPathComponent("a.SVG"))
        #expect(throws: BatchPlanError.conflictingOutputs(path: "a-16.png", first: folder.path + "/a.SVG",
                                                          second: folder.path + "/a.svg")) {
            try SVGBatch(inputs: [folder], sizes: [16]).outputs()
        }
    }

    @Test func theSameFileSizeOrScaleGivenTwiceIsRenderedOnce() throws {
        let folder = try Self.iconFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.svg")
        #expect(try SVGBatch(inputs: [file, file], sizes: [16]).outputs().count == 1)
        #expect(try SVGBatch(inputs: [file], sizes: [16, 16.0, 24], scales: [1, 2, 1]).outputs().map(\.path)
            == ["a-16.png", "a-16@2x.png", "a-24.png", "a-24@2x.png"])
    }

    // MARK: Running

    @Test func theDiskStoreKeepsTheOutputFilesPNGRatherThanEncodingAgain() throws {
        let folder = try Self.iconFolder()
        let out = try TestSupport.temporaryDirectory()
        let fixture = try DiskFixture()
        defer {
            for url in [folder, out] { try? FileManager.default.removeItem(at: url) }
            fixture.remove()
        }
        let disk = try fixture.open()
        let outputs = try SVGBatch(inputs: [folder.appendingPathComponent("sub/b.svg")], sizes: [16, 40], scales: [1, 2]).outputs()
        let summary = BatchRenderer(rasterizer: Rasterizer(cache: RasterCache(disk: disk)), jobs: 2).run(outputs, into: out)
        #expect(summary.drawn == 4)
        try disk.flush()
        let stored = try disk.entries(typeName: TypeIdentity.stableName(of: SVGImage.self))
        #expect(stored.count == 4)
        for output in outputs {
            let digest = try #require(try output.fingerprint?().split(separator: "-").first.map(String.init))
            let file = try Data(contentsOf: out.appendingPathComponent(output.path))
            let entry = try #require(stored.first { $0.digest == digest })
            #expect(entry.byteSize == file.count, "\(output.path)")
            // The file's PNG, with its scale and size, reads back as the stored render.
            let image = try RasterImage(pngData: file)
            #expect(image.pixelWidth == entry.pixelWidth && image.scale == entry.scale)
        }
    }

    @Test func outputsWithTheirOwnEncoderLeaveTheStoreToEncode() throws {
        let out = try TestSupport.temporaryDirectory()
        let fixture = try DiskFixture()
        defer {
            try? FileManager.default.removeItem(at: out)
            fixture.remove()
        }
        let disk = try fixture.open()
        let component = Counted(label: "own encoder", draws: Counter())
        let output = BatchOutput(path: "own.bin", source: "own", encode: { _ in Data("not a png".utf8) }) { rasterizer in
            try rasterizer.render(RenderRequest(component, size: Size(6)))
        }
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        #expect(BatchRenderer(rasterizer: rasterizer, jobs: 1).run([output], into: out).drawn == 1)
        try disk.flush()
        let png = try #require(disk.pngData(for: rasterizer.key(for: component, size: Size(6))))
        #expect(try RasterImage(pngData: png).pixelWidth == 6)
    }

    @Test func runWritesEveryOutputAndCountsDrawsAndCacheHits() throws {
        let folder = try Self.iconFolder()
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        let outputs = try SVGBatch(inputs: [folder], sizes: [16, 32], scales: [1, 2]).outputs()
        let renderer = BatchRenderer(rasterizer: Rasterizer(), jobs: 2)
        let reports = Lock<[BatchProgress]>([])
        let summary = renderer.run(outputs, into: out) { progress in reports.withLock { $0.append(progress) } }
        // a.svg and c.SVG have the same bytes, so c's renders come from a's.
        #expect(summary.total == 12 && summary.failed == 0 && summary.failures.isEmpty)
        #expect(summary.drawn == 8 && summary.cached == 4)
        #expect(reports.withLock { $0.map(\.done) } == Array(1...12))
        #expect(reports.withLock { $0.allSatisfy { $0.total == 12 } })

        let image = try RasterImage(pngData: Data(contentsOf: out.appendingPathComponent("sub/b-16@2x.png")))
        #expect(image.pixelWidth == 32 && image.scale == 2)
        #expect(image.pixel(x: 2, y: 16) == S.red && image.pixel(x: 30, y: 16) == S.blue)  // stretched 20×10 → square

        let again = renderer.run(outputs, into: out)
        #expect(again.drawn == 0 && again.cached == 12)
    }

    @Test func aFailingOutputIsReportedWhileTheOthersAreWritten() throws {
        let folder = try Self.iconFolder(broken: true)
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        let outputs = try SVGBatch(inputs: [folder], sizes: [16, 24]).outputs()
        let summary = BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(outputs, into: out)
        #expect(summary.total == 8 && summary.failed == 2 && summary.drawn + summary.cached == 6)
        #expect(summary.failures.map(\.output) == ["sub/broken-16.png", "sub/broken-24.png"])
        for failure in summary.failures {
            #expect(failure.file == folder.path + "/sub/broken.svg")
            #expect(failure.reason.hasPrefix("malformed SVG '\(failure.file)': "), "\(failure.reason)")
        }
        let written = try Self.files(in: out)
        #expect(written == ["a-16.png", "a-24.png", "sub/b-16.png", "sub/b-24.png", "sub/deeper/c-16.png", "sub/deeper/c-24.png"])
    }

    @Test func outputsThatCannotBeWrittenFailWithoutLeavingFiles() throws {
        let out = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        // "blocked" is a file, so "blocked/x.png" cannot be created.
        try Data("file".utf8).write(to: out.appendingPathComponent("blocked"))
        let image = try TestSupport.solidImage(.red)
        let render: @Sendable (Rasterizer) throws -> RenderedImage = { rasterizer in
            try rasterizer.render(RenderRequest(SVGImage(try S.document(S.redSquare)), size: Size(4)))
        }
        struct EncoderFailure: Error, CustomStringConvertible { var description: String { "encoder gave up" } }
        let outputs = [
            BatchOutput(path: "ok.png", source: "ok", render: render),
            BatchOutput(path: "blocked/x.png", source: "blocked", render: render),
            BatchOutput(path: "../escape.png", source: "escape", render: render),
            BatchOutput(path: "ok.png", source: "duplicate", render: render),
            BatchOutput(path: "encode.png", source: "encode", encode: { _ in throw EncoderFailure() }, render: render),
        ]
        _ = image
        let summary = BatchRenderer(rasterizer: Rasterizer(), jobs: 3).run(outputs, into: out)
        #expect(summary.failed == 4)
        let reasons = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.file, $0.reason) })
        #expect(reasons["blocked"]?.contains("cannot create the folder") == true)
        #expect(reasons["escape"]?.contains("must be relative") == true)
        #expect(reasons["duplicate"]?.contains("'ok' and 'duplicate' would both be written to 'ok.png'") == true)
        #expect(reasons["encode"] == "encoder gave up")
        // Only the good output and the blocking file: no temporary files left behind (and no
        // index, since none of these outputs has a fingerprint to remember).
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["blocked", "ok.png"])
    }

    @Test func temporaryNamesAreHiddenUniqueAndNeverFinalNames() {
        let destination = "/tmp/out/icons/star-48@2x.png"
        let first = AtomicFileWriter.temporaryPath(for: destination)
        let second = AtomicFileWriter.temporaryPath(for: destination)
        #expect(first != second)
        for temporary in [first, second] {
            let url = URL(fileURLWithPath: temporary)
            #expect(url.deletingLastPathComponent().path == "/tmp/out/icons")
            #expect(url.lastPathComponent.hasPrefix(".star-48@2x.png."))
            #expect(url.pathExtension == "tmp")
        }
        #expect(AtomicFileWriter.temporaryPath(for: "bare.png").hasPrefix(".bare.png."))
    }

    @Test func summaryEncodesTheDocumentedKeys() throws {
        let summary = BatchSummary(total: 3, drawn: 1, cached: 1, failed: 1, seconds: 0.5,
                                   failures: [.init(file: "bad.svg", output: "bad-16.png", reason: "malformed")])
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(summary)) as? [String: Any])
        #expect(Set(object.keys) == ["total", "drawn", "cached", "fellBack", "failed", "seconds", "failures"])
        let failures = try #require(object["failures"] as? [[String: String]])
        #expect(failures == [["file": "bad.svg", "output": "bad-16.png", "reason": "malformed"]])
        #expect(try JSONDecoder().decode(BatchSummary.self, from: JSONEncoder().encode(summary)) == summary)
    }

    @Test func progressRateAndEstimate() {
        let progress = BatchProgress(done: 50, total: 200, failed: 0, elapsed: 2)
        #expect(progress.rate == 25 && progress.estimatedSecondsRemaining == 6 && progress.fractionDone == 0.25)
        #expect(BatchProgress(done: 0, total: 10, failed: 0, elapsed: 0).estimatedSecondsRemaining == nil)
    }

    /// Every regular file under `folder`, relative, sorted.
    static func files(in folder: URL) throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: folder.path))
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue, path != ".rasterkit-index.tsv" { files.append(path) }
        }
        return files.sorted()
    }
}

/// A batch run again into the same folder leaves up-to-date outputs alone.
@Suite struct BatchReuseTests {
    typealias S = SVGSamples

    static func modified(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    @Test func unchangedOutputsAreNotMadeAgain() throws {
        let folder = try SVGBatchTests.iconFolder()
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        let batch = SVGBatch(inputs: [folder], sizes: [16])
        let first = BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(try batch.outputs(), into: out)
        #expect(first.drawn == 2 && first.cached == 1)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(".rasterkit-index.tsv").path))
        let a = out.appendingPathComponent("a-16.png"), b = out.appendingPathComponent("sub/b-16.png")
        let stamps = (try Self.modified(a), try Self.modified(b))

        // A new process would have an empty memory cache: a fresh rasterizer, never made.
        let made = Counter()
        let again = BatchRenderer(jobs: 2) { made.increment(); return Rasterizer() }.run(try batch.outputs(), into: out)
        #expect(again.drawn == 0 && again.cached == 3 && again.failed == 0)
        #expect(made.count == 0)
        #expect(try Self.modified(a) == stamps.0 && Self.modified(b) == stamps.1)

        // A changed source, a changed output and a different tint are made again; the rest are not.
        try S.svg(#"width="10" height="10""#, #"<rect width="10" height="10" fill="lime"/>"#)
            .write(to: folder.appendingPathComponent("a.svg"))
        try Data("edited".utf8).write(to: b)
        let third = BatchRenderer(jobs: 2) { Rasterizer() }.run(try batch.outputs(), into: out)
        #expect(third.drawn == 2 && third.cached == 1, "\(third)")
        #expect(try RasterImage(pngData: Data(contentsOf: b)).pixelWidth == 16)
        let tinted = SVGBatch(inputs: [folder], sizes: [16], tint: .green)
        #expect(BatchRenderer(jobs: 1) { Rasterizer() }.run(try tinted.outputs(), into: out).drawn == 3)
    }

    @Test func reuseCanBeTurnedOff() throws {
        let folder = try SVGBatchTests.iconFolder()
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        let outputs = try SVGBatch(inputs: [folder], sizes: [16]).outputs()
        _ = BatchRenderer(rasterizer: Rasterizer()).run(outputs, into: out)
        let again = BatchRenderer(rasterizer: Rasterizer(), reusesUpToDateOutputs: false).run(outputs, into: out)
        #expect(again.drawn == 2 && again.cached == 1)
    }

    @Test func aRasterizerThatCannotBeMadeFailsEveryOutputThatNeedsIt() throws {
        let folder = try SVGBatchTests.iconFolder()
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        struct NoCache: Error, CustomStringConvertible { var description: String { "the cache is locked" } }
        let made = Counter()
        let summary = BatchRenderer(jobs: 2) { made.increment(); throw NoCache() }
            .run(try SVGBatch(inputs: [folder], sizes: [16]).outputs(), into: out)
        #expect(summary.failed == 3 && summary.failures.allSatisfy { $0.reason == "the cache is locked" })
        #expect(made.count == 1)
    }

    @Test func indexSurvivesOutputsThisBatchDidNotTouch() throws {
        let folder = try SVGBatchTests.iconFolder()
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        _ = BatchRenderer(rasterizer: Rasterizer()).run(try SVGBatch(inputs: [folder], sizes: [16]).outputs(), into: out)
        _ = BatchRenderer(rasterizer: Rasterizer()).run(try SVGBatch(inputs: [folder], sizes: [32]).outputs(), into: out)
        let both = BatchRenderer(rasterizer: Rasterizer())
            .run(try SVGBatch(inputs: [folder], sizes: [16, 32]).outputs(), into: out)
        #expect(both.drawn == 0 && both.cached == 6)
    }
}
