import Foundation
import RasterKitTestSupport
import Testing
import RasterKitTesting

/// End-to-end tests of `rasterkit diff`, running the built binary.
@Suite struct DiffCommandTests {
    typealias T = TestImages

    typealias Run = CLI.Run

    func rasterkit(_ arguments: String...) throws -> Run { try CLI.run(["diff"] + arguments) }

    @Test func identicalImagesExitZero() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try dir.write(T.black(whiteAt: [(2, 2)]), "a.png")
        let b = try dir.write(T.black(whiteAt: [(2, 2)]), "b.png")
        let run = try rasterkit(a, b, "--json")
        #expect(run.status == 0)
        let json = try run.json()
        #expect(json["identical"] as? Bool == true)
        #expect(json["withinTolerance"] as? Bool == true)
        #expect(json["differentPixels"] as? Int == 0)
        #expect(json["output"] is NSNull)

        let human = try rasterkit(a, b)
        #expect(human.status == 0 && human.stdout.hasPrefix("identical: 10×10"))
    }

    @Test func differentImagesExitOneWithCounts() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try dir.write(T.black(whiteAt: []), "a.png")
        let b = try dir.write(T.black(whiteAt: [(1, 1), (5, 5), (8, 2)]), "b.png")
        let run = try rasterkit(a, b, "--json")
        #expect(run.status == 1)
        let json = try run.json()
        #expect(json["differentPixels"] as? Int == 3)
        #expect(json["totalPixels"] as? Int == 100)
        #expect(json["ratio"] as? Double == 0.03)
        #expect(json["width"] as? Int == 10 && json["height"] as? Int == 10)
        #expect(json["identical"] as? Bool == false && json["withinTolerance"] as? Bool == false)

        #expect(try rasterkit(a, b).stdout.hasPrefix("different: 3 of 100 pixels differ"))
        #expect(try rasterkit(a, b, "--max-different-pixels", "3").status == 0)
        #expect(try rasterkit(a, b, "--max-different-pixels", "2").status == 1)
        #expect(try rasterkit(a, b, "--max-different-ratio", "0.03").status == 0)
        #expect(try rasterkit(a, b, "--max-different-ratio", "0.029").status == 1)
        #expect(try rasterkit(a, b, "--max-different-pixels", "9", "--max-different-ratio", "0.03").status == 0)
        #expect(try rasterkit(a, b, "--max-different-pixels", "9", "--max-different-ratio", "0.02").status == 1)
        #expect(try rasterkit(a, b, "--threshold", "1").status == 0)
    }

    @Test func theColourRuleCountsAWrongColourOnAnEdgeAndSaysWhere() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try dir.write(T.antiAliasedEdge(edge: 128), "a.png")
        let green = RGBA8(red: 0, green: 255, blue: 0, alpha: 255)
        let edge = T.antiAliasedEdge(edge: 128)
        let b = try dir.write(T.bitmap(width: 10, height: 10) { x, y in x == 5 && y == 5 ? green : edge[x, y] }, "b.png")
        // pixelmatch's test, by brightness, excuses it; the colour rule does not.
        let pixelmatch = try rasterkit(a, b, "--json")
        #expect(pixelmatch.status == 0)
        #expect(try pixelmatch.json()["antiAliasedPixels"] as? Int == 1)
        let honest = try rasterkit(a, b, "--anti-aliasing", "color", "--json")
        #expect(honest.status == 1)
        let json = try honest.json()
        #expect(json["differentPixels"] as? Int == 1)
        let bounds = try #require(json["differenceBounds"] as? [String: Any])
        #expect(bounds["x"] as? Int == 5 && bounds["y"] as? Int == 5 && bounds["width"] as? Int == 1 && bounds["height"] as? Int == 1)
        #expect((json["largestDifference"] as? String)?.hasPrefix("(5, 5): #808080FF → #00FF00FF") == true)
        let human = try rasterkit(a, b, "--anti-aliasing", "colour")
        #expect(human.stdout.contains("different pixels in x 5–5, y 5–5 (1×1 px)") && human.stdout.contains("largest change at (5, 5)"))
        let bad = try rasterkit(a, b, "--anti-aliasing", "hue")
        #expect(bad.status == 2 && bad.stderr.contains("anti-aliasing"))
    }

    @Test func outputIsWrittenWithTheChosenColours() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try dir.write(T.black(whiteAt: [(2, 2)]), "a.png")
        let b = try dir.write(T.black(whiteAt: [(7, 7)]), "b.png")
        let output = dir.path("diff.png")
        let run = try rasterkit(a, b, "--output", output, "--diff-color", "00FF00", "--diff-color-alt", "#0000ff",
                                "--alpha", "0", "--json")
        #expect(run.status == 1)
        #expect(try run.json()["output"] as? String == output)
        let diff = try RGBABitmap(pngData: Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(diff[7, 7] == T.green)
        #expect(diff[2, 2] == RGBA8(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(diff[0, 0] == T.white)
        // Only the diff image is left in the directory: the temporary file was renamed into place.
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        #expect(files == ["a.png", "b.png", "diff.png"])

        let mask = dir.path("mask.png")
        #expect(try rasterkit(a, a, "--diff-mask", "-o", mask).status == 0)
        let maskImage = try RGBABitmap(pngData: Data(contentsOf: URL(fileURLWithPath: mask)))
        #expect(maskImage == T.solid(T.clear, width: 10, height: 10))
    }

    @Test func sizeMismatchExitsOneNamingBothSizes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try dir.write(T.solid(T.black, width: 4, height: 3), "a.png")
        let b = try dir.write(T.solid(T.black, width: 3, height: 4), "b.png")
        let run = try rasterkit(a, b, "--json")
        #expect(run.status == 1)
        let error = try #require(try run.json()["error"] as? String)
        #expect(error.contains("4×3") && error.contains("3×4"))
        #expect(try rasterkit(a, b).stderr.contains("expected 4×3, actual 3×4"))
    }

    @Test func unreadableInputExitsTwo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try dir.write(T.solid(T.black), "a.png")
        let text = dir.path("notes.png")
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: text))

        let missing = try rasterkit(a, dir.path("missing.png"))
        #expect(missing.status == 2 && missing.stderr.contains("missing.png"))
        let notPNG = try rasterkit(text, a)
        #expect(notPNG.status == 2 && notPNG.stderr.contains("notes.png"))
        #expect(try rasterkit(text, a, "--json").json()["error"] is String)
    }

    @Test func badFlagsExitTwo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try dir.write(T.solid(T.black), "a.png")
        let badColour = try rasterkit(a, a, "--diff-color", "GG0000")
        #expect(badColour.status == 2 && badColour.stderr.contains("GG0000"))
        #expect(try rasterkit(a, a, "--aa-color", "#12345").status == 2)
        #expect(try rasterkit(a, a, "--threshold", "1.5").status == 2)
        #expect(try rasterkit(a, a, "--alpha", "-0.1").status == 2)
        #expect(try rasterkit(a, a, "--max-different-pixels", "-1").status == 2)
        #expect(try rasterkit(a, a, "--max-different-ratio", "nan").status == 2)
        #expect(try rasterkit(a).status == 2)
    }

    /// Issue 24, finding 11: sizes come from the headers, so an image too large to decode (here,
    /// a header claiming 16000² with no pixel data behind it) is reported as a size mismatch
    /// without being decoded.
    @Test func aSizeMismatchIsReportedFromTheHeadersWithoutDecoding() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try dir.write(T.solid(T.black, width: 4, height: 3), "a.png")
        var huge = [UInt8](try T.solid(T.black, width: 1, height: 1).pngData().prefix(33))
        for (offset, value) in [(16, 16_000), (20, 16_000)] {
            for index in 0..<4 { huge[offset + index] = UInt8(value >> (24 - 8 * index) & 0xFF) }
        }
        try Data(huge).write(to: URL(fileURLWithPath: dir.path("huge.png")))
        let run = try rasterkit(a, dir.path("huge.png"), "--json")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("expected 4×3, actual 16000×16000"))
    }

    /// Issue 24, finding 13: `-o` never overwrites an input (by path, symbolic or hard link), and
    /// never creates folders.
    @Test func theDiffImageNeverReplacesAnInputOrCreatesFolders() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let golden = try dir.write(T.black(whiteAt: [(2, 2)]), "golden.png")
        let new = try dir.write(T.black(whiteAt: [(3, 3)]), "new.png")
        let before = try Data(contentsOf: URL(fileURLWithPath: golden))
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.png"), withDestinationPath: golden)
        try FileManager.default.linkItem(atPath: new, toPath: dir.path("hard.png"))
        for output in [golden, new, dir.path("link.png"), dir.path("hard.png"), dir.path("./golden.png")] {
            let run = try rasterkit(golden, new, "-o", output)
            #expect(run.status == 2 && run.stderr.contains("is the input image"), "\(output): \(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: golden)) == before)
        let missing = try rasterkit(golden, new, "-o", dir.path("no/such/dir/x.png"))
        #expect(missing.status == 2 && missing.stderr.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("no")))
        #expect(try rasterkit(golden, new, "-o", "").status == 2)
        #expect(try rasterkit(golden, new, "-o", dir.path("diff.png")).status == 1)
    }
}
