import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKit

/// librsvg is loaded with dlopen when a document is first parsed, and its version, which every
/// SVG key holds, is read from the library file without loading it (LibrsvgLibrary). The two
/// must agree, and a file that is not librsvg must give no version rather than crash.
@Suite struct LibrsvgLibraryTests {
    @Test func theVersionReadFromTheFileIsTheOneTheLoadedLibraryReports() throws {
        let path = try #require(LibrsvgLibrary.path, "librsvg-2.so.2 is installed by make deps")
        #expect(LibrsvgLibrary.version(inFile: path) == LibrsvgLibrary.version)
        // Parsing a document loads the library.
        _ = try SVGSamples.render(try SVGSamples.document(SVGSamples.redBlue), size: Size(4))
        #expect(LibrsvgLibrary.loadedVersion == LibrsvgLibrary.version)
        #expect(LibrsvgLibrary.version.split(separator: ".").count == 3)
        #expect(LibrsvgHandle.version == LibrsvgLibrary.version)
    }

    @Test func filesThatAreNotLibrsvgHaveNoVersion() throws {
        let folder = try TestScratch.folder("librsvg-version")
        let library = try Data(contentsOf: URL(fileURLWithPath: try #require(LibrsvgLibrary.path)))
        var corruptSectionTable = library
        // e_shoff (8 bytes at 40) pointing past the end of the file.
        corruptSectionTable.replaceSubrange(40..<48, with: [UInt8](repeating: 0xFF, count: 8))
        var corruptSymbolTable = library
        // The section header table's first entries overwritten with 0xFF: sizes and offsets
        // out of the file.
        let tableOffset = library[40..<48].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        corruptSymbolTable.replaceSubrange(tableOffset..<min(tableOffset + 64 * 8, library.count),
                                           with: [UInt8](repeating: 0xFF, count: min(64 * 8, library.count - tableOffset)))
        let files: [(String, Data)] = [
            ("empty", Data()),
            ("text", Data("not a library\n".utf8)),
            ("magic-only", Data([0x7F, 0x45, 0x4C, 0x46])),
            ("header-only", library.prefix(64)),
            ("first-page", library.prefix(4096)),
            ("half", library.prefix(library.count / 2)),
            ("bad-section-offset", corruptSectionTable),
            ("bad-section-table", corruptSymbolTable),
            ("random", Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })),
        ]
        for (name, bytes) in files {
            let file = folder.appendingPathComponent(name)
            try bytes.write(to: file)
            #expect(LibrsvgLibrary.version(inFile: file.path) == nil, "\(name)")
        }
        #expect(LibrsvgLibrary.version(inFile: folder.path) == nil, "a folder")
        #expect(LibrsvgLibrary.version(inFile: folder.appendingPathComponent("missing").path) == nil)
        // An ELF library for this machine that is not librsvg.
        #expect(LibrsvgLibrary.version(inFile: "/usr/lib/x86_64-linux-gnu/libpng16.so.16") == nil)
    }
}
