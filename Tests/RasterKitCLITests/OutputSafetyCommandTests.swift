import Foundation
import RasterKitTestSupport
import Testing
import RasterKit

/// Security review findings 1, 2, 3 and 5, end to end through the built `rasterkit`: outputs
/// never replace a device, FIFO or input, never go through a link below `--out`, and the report
/// embeds only pixels re-encoded from PNGs that decode.
@Suite struct OutputSafetyCommandTests {
    static func folder() throws -> URL {
        let folder = TestScratch.path("rasterkit-safety")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    static func png(_ color: Color, side: Double = 4) throws -> Data {
        try RasterImage(size: Size(side)) { $0.fillAll(with: .color(color)) }.pngData()
    }

    /// Finding 1: `diff -o <device or FIFO>` replaced it with a PNG. A FIFO stands in for
    /// /dev/null, which a test must never touch.
    @Test func diffRefusesAFIFOAndAFolderAsItsOutput() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.png"), b = folder.appendingPathComponent("b.png")
        try Self.png(.red).write(to: a)
        try Self.png(.blue).write(to: b)
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let run = try CLI.run(["diff", a.path, b.path, "-o", fifo])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("FIFO"), "\(run.stderr)")
        #expect(Self.kind(fifo) == S_IFIFO)
        let directory = folder.appendingPathComponent("dir")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        #expect(try CLI.run(["diff", a.path, b.path, "-o", directory.path]).status == 2)
        #expect(Self.kind(directory.path) == S_IFDIR)
    }

    /// Finding 2: `--contact-sheet` naming the manifest overwrote it with a PNG; one inside
    /// `--out`, or a FIFO, is refused too — all with exit 2 before anything is written.
    @Test func theContactSheetIsNeverTheManifestNorInsideTheOutputFolder() throws {
        let workspace = try RenderCommandTests.Workspace()
        defer { workspace.remove() }
        let manifest = try Data(contentsOf: URL(fileURLWithPath: workspace.manifest))
        let same = try workspace.render(["--no-cache", "--contact-sheet", workspace.manifest])
        #expect(same.status == 2 && same.stderr.contains("is the manifest"), "\(same.stderr)")
        // Another spelling of the same file: through a symbolic link.
        let link = workspace.path("link.yaml")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: workspace.manifest)
        #expect(try workspace.render(["--no-cache", "--contact-sheet", link]).status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.manifest)) == manifest)

        let inside = try workspace.render(["--no-cache", "--contact-sheet", workspace.path("out/sheet.png")])
        #expect(inside.status == 2 && inside.stderr.contains("inside --out"), "\(inside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("out")))

        let fifo = workspace.path("sheet.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(try workspace.render(["--no-cache", "--contact-sheet", fifo]).status == 2)
        #expect(Self.kind(fifo) == S_IFIFO)
    }

    /// Artifacts with one good failure folder, for the report tests.
    static func artifacts(in folder: URL) throws -> URL {
        let artifacts = folder.appendingPathComponent("artifacts")
        try addFailure("ok", actual: Self.png(.red), to: artifacts)
        return artifacts
    }

    static func addFailure(_ name: String, actual: Data, to artifacts: URL) throws {
        let failure = artifacts.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: failure, withIntermediateDirectories: true)
        let summary: [String: Any] = ["identifier": "T/\(name)@1x", "message": "differs", "golden": "Goldens/\(name).png",
                                      "ratio": 0.5, "differentPixels": 8, "totalPixels": 16, "recordMode": "never"]
        try JSONSerialization.data(withJSONObject: summary).write(to: failure.appendingPathComponent("result.json"))
        try Self.png(.white).write(to: failure.appendingPathComponent("expected.png"))
        try actual.write(to: failure.appendingPathComponent("actual.png"))
    }

    /// Finding 2: `report --out ART/ok/actual.png` overwrote an input with HTML; finding 1:
    /// a FIFO at --out was replaced.
    @Test func theReportIsNeverWrittenIntoTheArtifactsNorOverAFIFO() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let artifacts = try Self.artifacts(in: folder)
        let actual = artifacts.appendingPathComponent("ok/actual.png")
        let before = try Data(contentsOf: actual)
        let run = try CLI.run(["report", artifacts.path, "--out", actual.path])
        #expect(run.status == 2 && run.stderr.contains("inside the artifacts"), "\(run.stderr)")
        #expect(try Data(contentsOf: actual) == before)
        #expect(try CLI.run(["report", artifacts.path, "--out", artifacts.appendingPathComponent("new.html").path]).status == 2)

        let fifo = folder.appendingPathComponent("report.fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(try CLI.run(["report", artifacts.path, "--out", fifo]).status == 2)
        #expect(Self.kind(fifo) == S_IFIFO)
        #expect(try CLI.run(["report", artifacts.path, "--out", folder.appendingPathComponent("r.html").path]).status == 0)
    }

    /// Finding 3: a PNG signature and IHDR followed by any bytes, or a valid PNG with bytes
    /// appended, was embedded verbatim. Now a file that does not decode is left out with the
    /// reason, and what is embedded is encoded anew from pixels, so no foreign byte reaches it.
    @Test func theReportEmbedsOnlyPixelsReEncoded() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let artifacts = try Self.artifacts(in: folder)
        let secret = Data("SECRET-root:x:0:0:root:/root:/bin/bash\n".utf8)
        let valid = try Self.png(.green)
        // Signature (8) + IHDR chunk (4 length + 4 type + 13 data + 4 CRC) = 33 bytes.
        try Self.addFailure("header", actual: valid.prefix(33) + secret, to: artifacts)
        try Self.addFailure("trailing", actual: valid + secret, to: artifacts)
        let page = folder.appendingPathComponent("report.html")
        let run = try CLI.run(["report", artifacts.path, "--out", page.path])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("left out: it does not decode as a PNG"))
        var embedded = 0
        for part in html.components(separatedBy: "data:image/png;base64,").dropFirst() {
            let encoded = part.prefix { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=" }
            let data = try #require(Data(base64Encoded: String(encoded)))
            #expect(data.range(of: Data("SECRET".utf8)) == nil)
            #expect(try RasterImage(pngData: data).pixelWidth == 4)
            embedded += 1
        }
        // ok and trailing: expected and actual figures plus the comparison's two; header: expected only.
        #expect(embedded == 2 * 4 + 1)
    }

    /// Finding 5: `svg --out o` where `o/sub` is a link to elsewhere wrote through the link.
    @Test func svgWritesNothingThroughALinkedSubfolderOfTheOutputFolder() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/sub"), out = folder.appendingPathComponent("o")
        let victim = folder.appendingPathComponent("victim")
        for url in [input, out, victim] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24"/></svg>"#.utf8)
            .write(to: input.appendingPathComponent("bell.svg"))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24"/></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("in/top.svg"))
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("sub"), withDestinationURL: victim)
        let run = try CLI.run(["svg", folder.appendingPathComponent("in").path, "--size", "16", "--out", out.path, "--no-cache"],
                              environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("xdg").path])
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect((run.stdout + run.stderr).contains("symbolic link"), "\(run.stdout) \(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("top-16.png").path))
    }
}
