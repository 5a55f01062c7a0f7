import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// One checked output path: relative, inside the folder, and unique — also ignoring case, since
/// a batch's outputs are often used on macOS and Windows (issue 18).
@Suite struct OutputPathTests {
    @Test(arguments: ["", "/etc/passwd", "a//b.png", "a/", "../x.png", "a/../../x.png", "./x.png", "a/./b.png", "..", "a\u{0}b.png"])
    func badPathsAreRefusedWithTheReason(path: String) {
        #expect(throws: BatchPlanError.self) { try OutputPath(path) }
        do { _ = try OutputPath(path) } catch { #expect(error.description.contains("must be relative")) }
    }

    /// Checked as the file system sees them, byte by byte: a slash followed by a combining mark
    /// is one `Character` but still a slash, and a name of dots with a mark after is a name.
    @Test func pathsAreCheckedByTheirBytes() throws {
        #expect(throws: BatchPlanError.self) { try OutputPath("/\u{301}x.png") }
        #expect(throws: BatchPlanError.self) { try OutputPath("a/\u{301}/../../x.png") }
        #expect(throws: BatchPlanError.self) { try OutputPath("a/..") }
        #expect(throws: BatchPlanError.self) { try OutputPath("a/.") }
        #expect(try OutputPath("a/..\u{301}/x.png").folder == "a/..\u{301}")
        #expect(try OutputPath("\u{301}/.x/...png").rawValue == "\u{301}/.x/...png")
        let reasons = ["/x": "absolute", "a//b": "empty folder name", "x/./y": "'.'", "x/../y": "'..'", "a\u{0}": "NUL"]
        for (path, reason) in reasons {
            #expect(throws: BatchPlanError.self) { try OutputPath(path) }
            do { _ = try OutputPath(path) } catch {
                guard case let .invalidOutputPath(_, refused, why) = error else { Issue.record("\(error)"); continue }
                #expect(refused == path && why.contains(reason), "\(path): \(why)")
            }
        }
    }

    @Test func caseKeysFoldASCIIAndUnicode() throws {
        #expect(try OutputPath("Icons/STAR@2x.png").caseInsensitiveKey == "icons/star@2x.png")
        #expect(try OutputPath("Ícones/ÉTOILE.png").caseInsensitiveKey == "ícones/étoile.png")
        #expect(try OutputPath("[Z]/`a`.png").caseInsensitiveKey == "[z]/`a`.png", "only A–Z move in ASCII")
    }

    @Test func goodPathsKeepTheirText() throws {
        let path = try OutputPath("drawable-xhdpi/panel.9.png")
        #expect(path.rawValue == "drawable-xhdpi/panel.9.png" && path.folder == "drawable-xhdpi")
        #expect(try OutputPath("icon.png").folder == "")
        #expect(try OutputPath("a..b/..c.png").rawValue == "a..b/..c.png", "dots inside names are names")
    }

    @Test func pathsThatDifferOnlyInCaseAreOneFileSomewhere() throws {
        var claims = OutputPathClaims()
        try claims.claim("Icons/Star.png", by: "first")
        #expect(throws: BatchPlanError.outputsDifferOnlyInCase(path: "icons/star.png", other: "Icons/Star.png", first: "first",
                                                               second: "second")) { try claims.claim("icons/star.png", by: "second") }
        #expect(throws: BatchPlanError.conflictingOutputs(path: "Icons/Star.png", first: "first", second: "third")) {
            try claims.claim("Icons/Star.png", by: "third")
        }
        try claims.claim("Icons/Star@2x.png", by: "fourth")
    }

    /// An SVG batch's outputs, claimed together when planned, are not claimed again; one whose
    /// path is changed afterwards, or mixed with other outputs, is.
    @Test func outputsClaimedTogetherAreCheckedOnce() throws {
        let folder = try SVGBatchTests.iconFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = try SVGBatch(inputs: [folder], sizes: [16, 24]).outputs()
        #expect(outputs.count == 6 && OutputPathClaimToken.claimedTogether(outputs))
        #expect(OutputPathClaimToken.claimedTogether(outputs.reversed().dropLast(2)), "some, in any order")
        let together = BatchWorkUnits(outputs)
        #expect(together.rejected.isEmpty && together.groups.count == 3)

        var renamed = outputs
        renamed[1].path = renamed[0].path
        #expect(renamed[1].pathClaims == nil, "a new path is not one that was claimed")
        #expect(BatchWorkUnits(renamed).rejected.map(\.0) == [1])

        let twice = BatchWorkUnits(outputs + outputs.prefix(1))
        #expect(twice.rejected.map(\.0) == [6], "an output given twice is claimed again, and refused")
        let other = BatchOutput(path: "../x.png", source: "mine", size: Size(4), scale: 1) { SVGBatch.withPost(
            SVGImage(SVGDocument(unvalidatedData: Data(), externalReferences: .blocked, source: nil)), []) }
        #expect(BatchWorkUnits(outputs + [other]).rejected.map(\.0) == [6])
    }

    @Test func plansRefuseCaseClashes() {
        let square = BatchNamingTests.Square()
        #expect(throws: BatchPlanError.outputsDifferOnlyInCase(path: "button-normal.png", other: "Button-normal.png",
                                                               first: "Button/normal", second: "button/normal")) {
            try BatchPlan(items: [BatchItem(name: "Button", state: "normal", component: square, sizes: [Size(8)]),
                                  BatchItem(name: "button", state: "normal", component: square, sizes: [Size(8)])], format: .png)
        }
    }

    @Test func svgFoldersRefuseCaseClashes() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/Star.svg")
        try fixture.writeSVG("icons/star.svg")
        let batch = SVGBatch(inputs: [fixture.folder.appendingPathComponent("icons")], sizes: [16])
        #expect {
            _ = try batch.outputs()
        } throws: { error in
            guard case .outputsDifferOnlyInCase = error as? BatchPlanError else { return false }
            return "\(error)".contains("differ only in case")
        }
    }

    @Test func theRendererRefusesCaseClashesAndBadPathsItIsGiven() throws {
        let out = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let outputs = ["Tile.png", "tile.png", "../up.png"].map { path in
            BatchOutput(path: path, source: path, size: Size(8), scale: 1) { TransferTile(number: 3) }
        }
        let summary = BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(outputs, into: out)
        #expect(summary.failed == 2 && summary.drawn == 1)
        let reasons = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.file, $0.reason) })
        #expect(reasons["tile.png"]?.contains("differ only in case") == true, "\(reasons)")
        #expect(reasons["../up.png"]?.contains("goes through '..'") == true, "\(reasons)")
    }
}
