import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Fonts a manifest adds (`fonts:`, `fallbackFonts:`). Each test uses font families no other
/// test draws with, since registered fonts stay visible for the rest of the process.
@Suite struct ManifestFontTests {
    static let noto = "/usr/share/fonts/truetype/noto"

    /// The component `c` of a manifest drawing `text` in `font`, with `extra` top-level keys.
    static func manifest(font: String, text: String = "Hamburgefonstiv", extra: String = "") -> String {
        """
        \(extra)
        components:
          c:
            sizes: ["200x40"]
            layers:
              - rect: {fill: white}
              - text: {text: "\(text)", font: \(font), color: black}
        """
    }

    static func render(_ manifest: Manifest) throws -> (image: RasterImage, key: StableDigest) {
        let component = try #require(manifest.component(named: "c"))
        let drawn = component.component(component.states[0], at: component.sizes[0])
        let rasterizer = Rasterizer()
        let size = Size(width: 200, height: 40)
        return (try rasterizer.image(for: drawn, size: size, scale: 1), rasterizer.key(for: drawn, size: size, scale: 1).value)
    }

    static func pixels(_ image: RasterImage) -> [RGBA8] {
        (0..<image.pixelHeight).flatMap { y in (0..<image.pixelWidth).map { image.pixel(x: $0, y: y) } }
    }

    @Test func aFontBesideTheManifestIsUsedAndKeyedByItsBytes() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(at: fixture.folder.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.noto + "/NotoSerif-Regular.ttf",
                                         toPath: fixture.folder.appendingPathComponent("fonts/Brand.ttf").path)
        // "Noto Serif" is known only through the manifest: without it, DejaVu Sans stands in.
        let without = try Self.render(try fixture.load(Self.manifest(font: "Noto Serif 20"), as: "without.yaml"))
        let with = try Self.render(try fixture.load(Self.manifest(font: "Noto Serif 20", extra: "fonts: [fonts]"), as: "with.yaml"))
        #expect(Self.pixels(with.image) != Self.pixels(without.image))
        #expect(with.key != without.key)
        // Listed as a file, the same bytes give the same key; other bytes under that name do not.
        let byFile = try Self.render(try fixture.load(Self.manifest(font: "Noto Serif 20", extra: "fonts: fonts/Brand.ttf"), as: "file.yaml"))
        #expect(byFile.key == with.key)
        let changed = try FileManager.default.contentsOfDirectory(atPath: Self.noto).first { $0.hasPrefix("NotoSerif-Bold") }
        try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("fonts/Brand.ttf"))
        try FileManager.default.copyItem(atPath: Self.noto + "/" + (try #require(changed)),
                                         toPath: fixture.folder.appendingPathComponent("fonts/Brand.ttf").path)
        let edited = try Self.render(try fixture.load(Self.manifest(font: "Noto Serif 20", extra: "fonts: fonts/Brand.ttf"), as: "file.yaml"))
        #expect(edited.key != byFile.key)
    }

    @Test func fallbackFontsDrawEmojiInColourAndOtherScripts() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let emoji = try Self.render(try fixture.load(Self.manifest(font: "DejaVu Sans 20", text: "👍 🎉 ❤️", extra: "fallbackFonts: noto")))
        let colourful = Self.pixels(emoji.image).filter { pixel in
            let channels = [Int(pixel.red), Int(pixel.green), Int(pixel.blue)]
            return channels.max()! - channels.min()! > 80
        }
        #expect(colourful.count > 100)
        let plain = try Self.render(try fixture.load(Self.manifest(font: "DejaVu Sans 20", text: "Hamburgefonstiv"), as: "plain.yaml"))
        let fallback = try Self.render(try fixture.load(Self.manifest(font: "DejaVu Sans 20", text: "Hamburgefonstiv",
                                                                      extra: "fallbackFonts: noto"), as: "fallback.yaml"))
        // Text DejaVu can draw keeps its pixels; its key names the fallback set.
        #expect(Self.pixels(plain.image) == Self.pixels(fallback.image))
        #expect(plain.key != fallback.key)
    }

    @Test func badFontValuesAreReportedWhereTheyAre() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.write("not a font", to: "fonts/readme.txt")
        try fixture.write("not a font either", to: "notafont.ttf")
        let problems = try fixture.problems("""
            fonts: [missing, "", fonts, notafont.ttf, 12]
            fallbackFonts: comic
            components:
              c: {sizes: ["10x10"], layers: [rect: {fill: black}]}
            """)
        #expect(problems.contains(1, 9, "no font file or folder at 'missing'"))
        #expect(problems.contains(1, 18, "must name a font file or a folder of fonts"))
        #expect(problems.contains(1, 22, "fontconfig could not read any font"))
        #expect(problems.contains(1, 29, "fontconfig could not read any font"))
        #expect(problems.contains(2, 16, #"unknown value "comic" for fallbackFonts; expected one of noto"#))
    }
}

@Suite struct FontRegistrationTests {
    /// A long-running process (the server reloading a manifest) registers fonts from folders that
    /// may later go away: a font that has gone is dropped, and does not refuse later ones.
    @Test func aRegisteredFontThatWasRemovedDoesNotBlockLaterOnes() throws {
        let gone = try TestSupport.temporaryDirectory()
        try FileManager.default.copyItem(atPath: ManifestFontTests.noto + "/NotoSansSymbols-Regular.ttf",
                                         toPath: gone.appendingPathComponent("Symbols.ttf").path)
        try FontLibrary.register(directory: gone)
        try FileManager.default.removeItem(at: gone)
        let kept = try TestSupport.temporaryDirectory()
        try FileManager.default.copyItem(atPath: ManifestFontTests.noto + "/NotoSerifDisplay-Regular.ttf",
                                         toPath: kept.appendingPathComponent("Display.ttf").path)
        try FontLibrary.register(directory: kept)
        #expect(try FontLibrary.families().contains("Noto Serif Display"))
    }

    /// fontconfig caches a folder's scan but not a file's: the fallback set is read through a
    /// folder of links, named by the files' stamps so an upgraded package names a new one.
    @Test func theFallbackSetIsReadThroughAFolderOfLinksNamedByItsFiles() throws {
        let files = try FallbackFonts.noto.resolvedFiles()
        let directory = try #require(FallbackFonts.noto.linkedDirectory(for: files))
        for file in files {
            let link = directory + "/" + (file as NSString).lastPathComponent
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == file)
        }
        #expect(FallbackFonts.noto.linkedDirectory(for: files) == directory)
        #expect(FallbackFonts.noto.linkedDirectory(for: Array(files.dropLast())) != directory)
    }
}

