import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKit

@Suite struct SVGDocumentTests {
    typealias S = SVGSamples

    @Test(arguments: [
        (#"width="48" height="32""#, Size(width: 48, height: 32)),
        (#"width="48px" height="24.5px""#, Size(width: 48, height: 24.5)),
        (#"width="1in" height="72pt""#, Size(width: 96, height: 96)),
        (#"width="2.54cm" height="25.4mm""#, Size(width: 96, height: 96)),
        (#"viewBox="0 0 16 12""#, Size(width: 16, height: 12)),
        (#"width="100%" height="100%" viewBox="0 0 30 20""#, Size(width: 30, height: 20)),
        (#"width="64" height="64" viewBox="0 0 16 16""#, Size(width: 64, height: 64)),
    ])
    func intrinsicSizeComesFromWidthHeightOrViewBox(attributes: String, expected: Size) throws {
        let document = try SVGDocument(data: S.svg(attributes, #"<rect width="4" height="4"/>"#))
        // Physical units go through librsvg's unit conversion, exact to a few millionths.
        #expect(abs(document.intrinsicSize.width - expected.width) < 1e-5)
        #expect(abs(document.intrinsicSize.height - expected.height) < 1e-5)
    }

    @Test func withoutSizeOrViewBoxTheDrawnExtentIsTheSize() throws {
        // rsvg-convert's rule: the extent of what is drawn (ink), measured from its own corner.
        let document = try SVGDocument(data: S.svg("", #"<rect x="2" y="3" width="10" height="5"/>"#))
        #expect(document.intrinsicSize == Size(width: 10, height: 5))
    }

    @Test(arguments: [
        ("", "Input file is too short"),
        ("hello, not XML", "Start tag expected"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect></svg>", "Premature end of data"),
        ("<html><body/></html>", "XML does not have <svg> root"),
    ])
    func malformedInputIsATypedErrorWithLibrsvgsMessage(text: String, message: String) throws {
        let error = #expect(throws: SVGError.self) { try SVGDocument(data: Data(text.utf8), source: "bad.svg") }
        guard case let .malformed(librsvgMessage, source) = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(librsvgMessage.contains(message), "librsvg said: \(librsvgMessage)")
        #expect(source == "bad.svg")
        #expect(error?.description.hasPrefix("malformed SVG 'bad.svg': ") == true)
    }

    /// librsvg ignores a negative width as invalid, as rsvg-convert does; with nothing drawn
    /// the document then has no size either.
    @Test(arguments: [#"width="0" height="10""#, #"width="10" height="0""#, #"width="-5" height="10""#,
                      #"viewBox="0 0 0 10""#, #"viewBox="0 0 0 0""#, ""])
    func zeroOrNegativeSizeIsRejected(attributes: String) throws {
        let error = #expect(throws: SVGError.self) {
            try SVGDocument(data: S.svg(attributes))
        }
        guard case .noIntrinsicSize = error else {
            Issue.record("expected .noIntrinsicSize, got \(String(describing: error))")
            return
        }
    }

    @Test func aMissingFileNamesThePath() throws {
        let path = "/nonexistent/rasterkit/icon.svg"
        #expect(throws: SVGError.unreadable(path: path, reason: "No such file or directory")) {
            try SVGDocument(contentsOf: URL(fileURLWithPath: path))
        }
    }

    @Test func aFolderIsNotAnSVG() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: SVGError.unreadable(path: folder.path, reason: "not a regular file")) {
            try SVGDocument(contentsOf: folder)
        }
    }

    @Test func readsFilesAndNamesThemInErrors() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("square.svg"), bad = folder.appendingPathComponent("bad.svg")
        try S.redSquare.write(to: good)
        try Data("<svg".utf8).write(to: bad)
        let document = try SVGDocument(contentsOf: good)
        #expect(document.intrinsicSize == Size(10))
        #expect(document.source == good.path)
        #expect(document.data == S.redSquare)
        #expect(throws: SVGError.self) { try SVGDocument(contentsOf: bad) }
        do { _ = try SVGDocument(contentsOf: bad) } catch { #expect(error.description.contains(bad.path)) }
    }

    @Test func digestIsStableAndFollowsTheBytes() throws {
        let a = try SVGDocument(data: S.redSquare, source: "a.svg")
        let b = try SVGDocument(data: S.redSquare, source: "elsewhere/b.svg")
        #expect(a.digest == b.digest)
        #expect(a == b)
        var changed = S.redSquare
        changed[changed.count - 10] = UInt8(ascii: "E")  // #FF0000 → #FF000E or similar: one byte
        #expect(SVGDocument.digest(of: changed) != a.digest)
        // The same in every process and on every machine: a fixed value.
        #expect(SVGDocument.digest(of: Data("<svg/>".utf8)).hex == SVGDocumentTests.knownDigest)
    }

    static let knownDigest = "cbfa41e5bb324401bda13399314efea9"

    @Test func gzipCompressedDocumentsLoad() throws {
        let gzipped = try #require(try SVGDocumentTests.gzip(S.redSquare))
        let document = try SVGDocument(data: gzipped)
        #expect(document.intrinsicSize == Size(10))
        #expect(try S.render(document, size: Size(4)).pixel(x: 2, y: 2) == S.red)
    }

    /// gzip through the system's `gzip`, or nil where it is missing.
    static func gzip(_ data: Data) throws -> Data? {
        guard FileManager.default.isExecutableFile(atPath: "/bin/gzip") else { return nil }
        let gzip = try ChildProcess("/bin/gzip", ["-c", "-n"], input: .pipe)
        // Written while the output is read, so neither pipe can fill and stall the other side.
        let input = gzip.standardInput!
        Thread {
            input.write(data)
            try? input.close()
        }.start()
        let (termination, result, _) = gzip.finish()
        #expect(termination == .success)
        return result
    }
}
