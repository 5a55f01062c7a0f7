import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// The index a batch keeps in its output folder is a file users can break: any damage costs
/// renders, never a crash or a wrong "up to date".
@Suite struct BatchOutputIndexTests {
    /// A folder with one output file, and the (version 1) index line that describes it as written.
    private func folderWithOutput() throws -> (folder: URL, line: String) {
        let folder = TestScratch.path("rk-index")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("icon-48.png")
        try Data([1, 2, 3]).write(to: file)
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return (folder, "f1\t3\t\(modified)\ticon-48.png")
    }

    private func write(_ text: [UInt8], in folder: URL) throws {
        try Data(text).write(to: folder.appendingPathComponent(BatchOutputIndex.fileName))
    }

    /// Numbers are written as Swift writes them, from zero to both ends of Int64.
    @Test(arguments: [Int64(0), 7, 10, 1_700_000_000_123_456_789, -1, -10, .max, .min])
    func numbersAreWrittenInDecimal(value: Int64) {
        var bytes: [UInt8] = Array("x".utf8)
        BatchOutputIndex.appendDecimal(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
    }

    /// A saved index reads back as the entries recorded.
    @Test func aSavedIndexReadsBack() throws {
        let (folder, _) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = BatchOutputIndex.load(from: folder.path)
        index.record("icon-48.png", fingerprint: "f1", sourceStamp: "1:2:3|p")
        index.record("gone.png", fingerprint: "f2")
        try index.save()
        let again = BatchOutputIndex.load(from: folder.path)
        #expect(again.isUpToDate("icon-48.png", fingerprint: "f1"))
        #expect(again.isUpToDate("icon-48.png", sourceStamp: "1:2:3|p"))
        #expect(!again.isUpToDate("gone.png", fingerprint: "f2"), "no file, so nothing is up to date")
        let text = try String(contentsOf: folder.appendingPathComponent(BatchOutputIndex.fileName), encoding: .utf8)
        #expect(text.hasPrefix("# rasterkit batch index v2") && text.hasSuffix("\ticon-48.png\n"), "\(text)")
    }

    /// A field may hold anything but a tab or a line break of any kind (as `Character.isNewline`
    /// knows them), checked without walking graphemes.
    @Test func aFieldHoldsNoTabOrLineBreak() {
        for accepted in ["", "icons/star-24@2x.png", "café ☕️ 👩‍👩‍👧", "a b", "e\u{301}"] {
            #expect(TabSeparated.canHold(accepted), "\(accepted)")
        }
        for scalar in ["\t", "\n", "\u{0B}", "\u{0C}", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"] {
            let text = "a" + scalar + "b"
            #expect(!TabSeparated.canHold(text), "\(Array(text.unicodeScalars))")
            #expect(text.contains { $0 == "\t" || $0.isNewline }, "the same set as Character's")
        }
    }

    @Test func aGoodLineSurvivesDamageAroundIt() throws {
        let (folder, line) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = Array("# rasterkit batch index v1\n\n\t\t\t\nnot a line\nf2\tmany\t5\tother.png\nf3\t1\t2\n".utf8)
        bytes += [0xFF, 0xFE, 0x00, 0x09, 0x0A]  // invalid UTF-8 and a NUL
        bytes += Array((line + "\n").utf8)
        bytes += Array("f4\t1\t99999999999999999999999\tbig.png\r\n".utf8)
        try write(bytes, in: folder)
        let index = BatchOutputIndex.load(from: folder.path)
        #expect(index.isUpToDate("icon-48.png", fingerprint: "f1"))
        #expect(!index.isUpToDate("icon-48.png", fingerprint: "f2"))
        #expect(!index.isUpToDate("other.png", fingerprint: "f2"))
        #expect(!index.isUpToDate("big.png", fingerprint: "f4"))
    }

    @Test func sourceStampsAreSavedAndMatchedExactly() throws {
        let (folder, line) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Array(("# rasterkit batch index v1\n" + line + "\n").utf8), in: folder)
        let first = BatchOutputIndex.load(from: folder.path)
        #expect(!first.isUpToDate("icon-48.png", sourceStamp: ""))  // a version 1 entry has no stamp
        first.recordSourceStamp("icon-48.png", "1:2:3|48")
        try first.save()
        let text = try String(contentsOf: folder.appendingPathComponent(BatchOutputIndex.fileName), encoding: .utf8)
        #expect(text.hasPrefix("# rasterkit batch index v2"))

        let second = BatchOutputIndex.load(from: folder.path)
        #expect(second.isUpToDate("icon-48.png", sourceStamp: "1:2:3|48"))
        #expect(second.isUpToDate("icon-48.png", fingerprint: "f1"))
        #expect(!second.isUpToDate("icon-48.png", sourceStamp: "1:2:4|48"))
        #expect(!second.isUpToDate("icon-48.png", sourceStamp: ""))
        // A stamp that could break the line is not kept.
        second.recordSourceStamp("icon-48.png", "a\tb")
        try second.save()
        #expect(!BatchOutputIndex.load(from: folder.path).isUpToDate("icon-48.png", sourceStamp: "a\tb"))
    }

    @Test func binaryGarbageOrAMissingFileIsAnEmptyIndex() throws {
        let (folder, _) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!BatchOutputIndex.load(from: folder.path).isUpToDate("icon-48.png", fingerprint: "f1"))
        var generator = SystemRandomNumberGenerator()
        try write((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }, in: folder)
        #expect(!BatchOutputIndex.load(from: folder.path).isUpToDate("icon-48.png", fingerprint: "f1"))
    }

    @Test func aChangedFileIsNotUpToDate() throws {
        let (folder, line) = try folderWithOutput()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Array(("# rasterkit batch index v1\n" + line + "\n").utf8), in: folder)
        try Data([9, 9, 9, 9]).write(to: folder.appendingPathComponent("icon-48.png"))
        #expect(!BatchOutputIndex.load(from: folder.path).isUpToDate("icon-48.png", fingerprint: "f1"))
    }
}
