import Foundation
import RasterKit
import RasterKitDiff
import RasterKitTestSupport
import Testing

/// The golden lockfile: stable bytes, merged saves, and a clear error for every bad file.
@Suite struct GoldenLockfileTests {
    let environment = RenderEnvironment(libraries: ["cairo": "1.18.0", "Pango": "1.54.0"], fonts: ["DejaVuSans.ttf (759720 bytes)"])
    let pixels = StableDigest(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)

    func folder(_ name: String = #function) throws -> URL {
        let folder = TestScratch.path("golden-lockfile-" + name.filter(\.isLetter))
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theSameLockGivesTheSameBytesAndReadsBack() throws {
        var lock = GoldenLockfile()
        lock.lock("badge/unread@2x", key: "3a9e0000000000000000000000000000-png1", pixels: pixels, environment: environment)
        lock.lock("badge/read", key: "77770000000000000000000000000000-png1", pixels: pixels, environment: environment)
        var other = GoldenLockfile()
        other.lock("badge/read", key: "77770000000000000000000000000000-png1", pixels: pixels, environment: environment)
        other.lock("badge/unread@2x", key: "3a9e0000000000000000000000000000-png1", pixels: pixels, environment: environment)
        #expect(try lock.data() == other.data())
        let text = try #require(String(data: try lock.data(), encoding: .utf8))
        #expect(text.hasSuffix("}\n") && text.contains("\"badge/unread@2x\" : {"))
        #expect(try GoldenLockfile(data: lock.data(), path: "x") == lock)
        #expect(lock.entry("badge/read")?.environment == environment)
        #expect(lock.entry("badge/read")?.entry.pixelDigest == pixels)
    }

    @Test func environmentsNoGoldenUsesAreLeftOut() throws {
        var lock = GoldenLockfile()
        let older = RenderEnvironment(libraries: ["cairo": "1.16.0"], fonts: [])
        lock.lock("a", key: "k", pixels: pixels, environment: older)
        lock.lock("a", key: "k", pixels: pixels, environment: environment)
        let read = try GoldenLockfile(data: lock.data(), path: "x")
        #expect(read.environments.count == 1 && read.environments.values.first == environment)
    }

    @Test func aSaveKeepsWhatWasLockedMeanwhile() throws {
        let url = try folder().appendingPathComponent("goldens.lock.json")
        let run = try GoldenLockSession(url: url)
        #expect(run.entry("a") == nil)
        // A review locks "b" while the run checks.
        let review = try GoldenLockSession(url: url)
        review.lock("b", key: "kb", pixels: pixels, environment: environment)
        try review.save()
        run.lock("a", key: "ka", pixels: pixels, environment: environment)
        #expect(run.unsavedCount == 1)
        try run.save()
        #expect(run.unsavedCount == 0)
        let saved = try GoldenLockfile(contentsOf: url)
        #expect(Set(saved.goldens.keys) == ["a", "b"])
    }

    @Test func racingSessionsLoseNoGolden() async throws {
        let url = try folder().appendingPathComponent("goldens.lock.json")
        let (environment, pixels) = (self.environment, self.pixels)
        // Eight sessions of one file, each locking 25 goldens from its own tasks, saving at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for session in 0..<8 {
                group.addTask {
                    let lock = try GoldenLockSession(url: url)
                    await withTaskGroup(of: Void.self) { names in
                        for index in 0..<25 {
                            names.addTask { lock.lock("s\(session)/g\(index)", key: "k\(index)", pixels: pixels, environment: environment) }
                        }
                    }
                    try lock.save()
                }
            }
            try await group.waitForAll()
        }
        #expect(try GoldenLockfile(contentsOf: url).goldens.count == 200)
    }

    @Test func noFileIsAnEmptyLock() throws {
        let lock = try GoldenLockfile(contentsOf: try folder().appendingPathComponent("missing.json"))
        #expect(lock.goldens.isEmpty)
    }

    static let badFiles: [(String, String)] = [
        ("", "not a golden lockfile"),
        ("not json", "not a golden lockfile"),
        ("[]", "not a golden lockfile"),
        (#"{"format": 1, "environments": {}}"#, "goldens is missing"),
        (#"{"format": 2, "environments": {}, "goldens": {}}"#, "its format is 2"),
        (#"{"format": 1, "environments": {}, "goldens": {"a": {"key": "k", "pixels": "xyz", "environment": "e"}}}"#,
         "its pixels must be 32 hexadecimal digits"),
        (#"{"format": 1, "environments": {}, "goldens": {"a": {"key": "k", "pixels": "0123456789abcdef0123456789abcdef", "environment": "e"}}}"#,
         "its environment \"e\" is not listed"),
        (#"{"format": 1, "environments": {"e": {"libraries": {}, "fonts": []}}, "goldens": {"a": {"key": "has space", "pixels": "0123456789abcdef0123456789abcdef", "environment": "e"}}}"#,
         "its key must be 1 to 256 characters"),
        (#"{"format": 1, "environments": {"e": {"libraries": {}, "fonts": []}}, "goldens": {"a\nb": {"key": "k", "pixels": "0123456789abcdef0123456789abcdef", "environment": "e"}}}"#,
         "control characters"),
        (#"{"format": 1, "environments": {"e": {"libraries": {}, "fonts": []}}, "goldens": {"": {"key": "k", "pixels": "0123456789abcdef0123456789abcdef", "environment": "e"}}}"#,
         "1 to 1,024 bytes"),
    ]

    @Test(arguments: badFiles)
    func aBadLockfileIsATypedErrorNamingIt(text: String, expected: String) throws {
        #expect {
            try GoldenLockfile(data: Data(text.utf8), path: "Goldens.lock.json")
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("golden lockfile Goldens.lock.json: ") && message.contains(expected)
        }
    }

    @Test func aFolderOrAnOversizedFileIsRefusedBeforeItIsRead() throws {
        let folder = try folder()
        #expect(throws: GoldenLockfileError.self) { try GoldenLockfile(contentsOf: folder) }
        let huge = folder.appendingPathComponent("huge.json")
        FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(GoldenLockfile.maximumBytes + 1))
        try handle.close()
        #expect {
            try GoldenLockfile(contentsOf: huge)
        } throws: { "\($0)".contains("over the limit") }
    }
}
