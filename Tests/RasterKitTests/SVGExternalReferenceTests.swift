import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// External files load only from a directory the user allows.
@Suite struct SVGExternalReferenceTests {
    typealias S = SVGSamples

    /// A folder holding `red.png` (4×4 red) and a subfolder `assets/red.png`.
    static func folderWithImages() throws -> URL {
        let folder = try TestSupport.temporaryDirectory()
        let png = try TestSupport.solidImage(.red).pngData()
        try png.write(to: folder.appendingPathComponent("red.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try png.write(to: folder.appendingPathComponent("assets/red.png"))
        return folder
    }

    static func referencing(_ href: String) -> Data {
        S.svg(#"width="10" height="10""#, #"<image href="\#(href)" xlink:href="\#(href)" width="10" height="10"/>"#)
    }

    @Test func relativeImagesAreNotLoadedByDefault() throws {
        let folder = try Self.folderWithImages()
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try SVGDocument(data: Self.referencing("red.png"))
        #expect(document.externalReferences == .blocked)
        let image = try S.render(document, size: Size(10))
        #expect(image.allPixels.allSatisfy { $0.alpha == 0 })
    }

    @Test func absoluteFileURLsAreNotLoadedByDefault() throws {
        let folder = try Self.folderWithImages()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("red.png").absoluteString
        let blocked = try S.render(try SVGDocument(data: Self.referencing(url)), size: Size(10))
        #expect(blocked.allPixels.allSatisfy { $0.alpha == 0 })
        // Even a file read from that folder does not load its neighbours unless allowed.
        let file = folder.appendingPathComponent("icon.svg")
        try Self.referencing("red.png").write(to: file)
        let fromFile = try S.render(try SVGDocument(contentsOf: file), size: Size(10))
        #expect(fromFile.allPixels.allSatisfy { $0.alpha == 0 })
    }

    @Test func imagesInsideTheAllowedDirectoryLoad() throws {
        let folder = try Self.folderWithImages()
        defer { try? FileManager.default.removeItem(at: folder) }
        for href in ["red.png", "assets/red.png", folder.appendingPathComponent("red.png").absoluteString] {
            let document = try SVGDocument(data: Self.referencing(href)).allowingExternalReferences(from: folder)
            #expect(document.externalReferences == .allowed(baseDirectory: folder.standardizedFileURL))
            let image = try S.render(document, size: Size(10))
            #expect(image.pixel(x: 5, y: 5) == S.red, "\(href)")
        }
        let viaInit = try SVGDocument(data: Self.referencing("red.png"), externalReferences: .allowed(baseDirectory: folder))
        #expect(try S.render(viaInit, size: Size(10)).pixel(x: 5, y: 5) == S.red)
    }

    @Test func imagesOutsideTheAllowedDirectoryDoNotLoad() throws {
        let folder = try Self.folderWithImages()
        defer { try? FileManager.default.removeItem(at: folder) }
        let assets = folder.appendingPathComponent("assets")
        let document = try SVGDocument(data: Self.referencing("../red.png")).allowingExternalReferences(from: assets)
        #expect(try S.render(document, size: Size(10)).allPixels.allSatisfy { $0.alpha == 0 })
    }

    @Test func dataURLsAlwaysLoad() throws {
        let png = try TestSupport.solidImage(.red).pngData().base64EncodedString()
        let document = try SVGDocument(data: Self.referencing("data:image/png;base64,\(png)"))
        #expect(try S.render(document, size: Size(10)).pixel(x: 5, y: 5) == S.red)
    }

    @Test func allowingReferencesChangesTheCacheKey() throws {
        let folder = try Self.folderWithImages()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocked = try SVGDocument(data: Self.referencing("red.png"))
        let allowed = blocked.allowingExternalReferences(from: folder)
        let rasterizer = Rasterizer()
        #expect(rasterizer.key(for: SVGImage(blocked), size: Size(10)) != rasterizer.key(for: SVGImage(allowed), size: Size(10)))
        #expect(try rasterizer.image(for: SVGImage(blocked), size: Size(10)).pixel(x: 5, y: 5).alpha == 0)
        #expect(try rasterizer.image(for: SVGImage(allowed), size: Size(10)).pixel(x: 5, y: 5) == S.red)
    }
}
