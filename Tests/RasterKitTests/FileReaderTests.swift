import Foundation
import Testing
@testable import RasterKit

/// `FileReader` reads a file in as few calls as it can: a read that stops at the size `fstat`
/// gave ends there. These check that nothing is cut short or read past, whatever the size says.
@Suite struct FileReaderTests {
    @Test(arguments: [0, 1, 4095, 4096, 70_000])
    func readsExactlyTheFilesBytes(count: Int) throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let file = folder.appendingPathComponent("file.bin")
        try bytes.write(to: file)
        #expect(try FileReader.read(file.path) == bytes)
    }

    /// Files in /proc say they hold 0 bytes and hold more: they are read to their real end.
    @Test func aFileLargerThanItsStatedSizeIsReadToItsEnd() throws {
        let status = try FileReader.read("/proc/self/status")
        let text = String(decoding: status, as: UTF8.self)
        #expect(text.hasPrefix("Name:") && text.contains("\nPid:") && text.hasSuffix("\n"))
    }

    @Test func refusesWhatIsNotARegularFileOrIsOverTheLimit() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: FileReadError(path: fifo, reason: "not a regular file")) { try FileReader.read(fifo) }
        #expect(throws: FileReadError(path: "folder", reason: "not a regular file")) {
            try FileReader.read(folder.path, naming: "folder")
        }
        let large = folder.appendingPathComponent("large.bin")
        try Data(count: 101).write(to: large)
        #expect(throws: FileReadError(path: large.path, reason: "larger than 100 bytes")) {
            try FileReader.read(large.path, limit: 100)
        }
        #expect(try FileReader.read(large.path, limit: 101).count == 101)
    }
}
