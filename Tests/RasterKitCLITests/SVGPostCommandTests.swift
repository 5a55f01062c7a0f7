import Foundation
import Testing
import RasterKit

/// `rasterkit svg --post`: steps run on every render in order, bad ones refused with exit 2.
@Suite struct SVGPostCommandTests {
    @Test func postStepsRunInOrder() throws {
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try SVGCommandTests.rasterkit("c.svg", "--size", "16", "--scale", "2", "--post", "padding: 2",
                                                "--post", "tint: #2F6FEB", "--post", "roundedCorners: 4", "--out", "out", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try SVGCommandTests.image(folder.appendingPathComponent("out/c-16@2x.png"))
        #expect(image.pixelWidth == 40 && image.pixelHeight == 40)
        #expect(image.pixel(x: 2, y: 2).alpha == 0)
        #expect(image.pixel(x: 20, y: 20) == RGBA8(red: 0x2F, green: 0x6F, blue: 0xEB, alpha: 255))

        // Same steps: from the index. Other steps: drawn again.
        let again = try SVGCommandTests.rasterkit("c.svg", "--size", "16", "--scale", "2", "--post", "padding: 2",
                                                  "--post", "tint: #2F6FEB", "--post", "roundedCorners: 4", "--out", "out", in: folder)
        #expect(again.stdout.contains("0 rendered, 1 from cache"), "\(again.stdout)")
        let changed = try SVGCommandTests.rasterkit("c.svg", "--size", "16", "--scale", "2", "--post", "padding: 3",
                                                    "--out", "out", in: folder)
        #expect(changed.stdout.contains("1 rendered, 0 from cache"), "\(changed.stdout)")
        #expect(try SVGCommandTests.image(folder.appendingPathComponent("out/c-16@2x.png")).pixelWidth == 44)
    }

    @Test func badStepsExitWithUsageErrors() throws {
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for bad in ["roundCorners: 4", "opacity: 2", "padding: -1", "tint: #zz", "gaussianBlur: 1e9", ""] {
            let run = try SVGCommandTests.rasterkit("c.svg", "--size", "16", "--post", bad, "--out", "out", in: folder)
            #expect(run.status == 2, "\(bad): \(run.stderr)")
            #expect(run.stderr.contains("--post"), "\(bad): \(run.stderr)")
        }
        let unknown = try SVGCommandTests.rasterkit("c.svg", "--size", "16", "--post", "roundCorners: 4", "--out", "out", in: folder)
        #expect(unknown.stderr.contains("did you mean \"roundedCorners\""))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }
}
