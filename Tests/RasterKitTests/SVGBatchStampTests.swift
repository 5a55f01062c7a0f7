import Foundation
import Synchronization
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// A warm `svg` batch tells unchanged sources by their stamps (identity, size and times) and does
/// not read them; any change to a source, or to how it is rendered, reads it again.
@Suite struct SVGBatchStampTests {
    /// A folder with one SVG whose times are an hour old, as if unchanged since long ago.
    private func settledFolder() throws -> (folder: URL, file: URL) {
        let folder = try SVGBatchTests.iconFolder()
        let file = folder.appendingPathComponent("sub/b.svg")
        try setTimes(of: file, secondsAgo: 3600)
        return (folder, file)
    }

    private func setTimes(of file: URL, secondsAgo: Int) throws {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [timespec(tv_sec: now.tv_sec - secondsAgo, tv_nsec: 0), timespec(tv_sec: now.tv_sec - secondsAgo, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
    }

    /// The batch's outputs, counting how often a fingerprint is computed (which reads the source).
    private func outputs(of file: URL, settle: Double, tint: Color? = nil, counter: Counter) throws -> [BatchOutput] {
        var batch = SVGBatch(inputs: [file], sizes: [16, 24], tint: tint)
        batch.settleTime = settle
        return try batch.outputs().map { output in
            var counted = output
            let fingerprint = output.fingerprint
            counted.fingerprint = { counter.increment(); return try fingerprint?() ?? "" }
            return counted
        }
    }

    @Test func anUnchangedSourceIsNotReadAgain() throws {
        let (folder, file) = try settledFolder()
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        // The change time cannot be set back: here any file counts as settled.
        let reads = Counter()
        let first = BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(try outputs(of: file, settle: -1e9, counter: reads), into: out)
        #expect(first.drawn == 2 && reads.count == 2)

        let warmReads = Counter()
        let warm = BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(try outputs(of: file, settle: -1e9, counter: warmReads), into: out)
        #expect(warm.cached == 2 && warm.drawn == 0)
        #expect(warmReads.count == 0)

        // Another tint is another render: the stamp includes the parameters.
        let tinted = Counter()
        let retinted = BatchRenderer(rasterizer: Rasterizer(), jobs: 2)
            .run(try outputs(of: file, settle: -1e9, tint: .red, counter: tinted), into: out)
        #expect(retinted.drawn == 2 && tinted.count == 2)
    }

    /// A worker stamps and reads one file once for all its outputs. A file rewritten between
    /// them still gives the later outputs the first stamp with the first read's bytes, which
    /// belong together, so the next run, whose stamp differs, draws them again.
    @Test func theOutputsOfOneFileShareOneLookAndOneRead() throws {
        let (folder, file) = try settledFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try outputs(of: file, settle: -1e9, counter: Counter())
        #expect(made.count == 2)
        let firstStamp = try #require(made[0].sourceStamp?())
        let firstFingerprint = try made[0].fingerprint?()
        // Rewritten with other bytes between the two outputs, an hour old again.
        try SVGSamples.redSquare.write(to: file)
        try setTimes(of: file, secondsAgo: 3600)
        let secondStamp = try #require(made[1].sourceStamp?())
        let secondFingerprint = try made[1].fingerprint?()
        #expect(secondStamp.split(separator: "|").first == firstStamp.split(separator: "|").first,
                "the look before the first read stamps both")

        let next = try outputs(of: file, settle: -1e9, counter: Counter())
        let nextStamp = try #require(next[1].sourceStamp?())
        #expect(nextStamp != secondStamp, "the next run sees the rewrite")
        #expect(try next[1].fingerprint?() != secondFingerprint, "and draws the new bytes")
        #expect(firstFingerprint != nil)
    }

    @Test func aTouchedSourceIsReadAndARewrittenOneRedrawn() throws {
        let (folder, file) = try settledFolder()
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        let rasterizer = Rasterizer()
        _ = BatchRenderer(rasterizer: rasterizer, jobs: 1).run(try outputs(of: file, settle: -1e9, counter: Counter()), into: out)

        // New times, same bytes: read again, found up to date by fingerprint, not drawn.
        try setTimes(of: file, secondsAgo: 1800)
        let touchedReads = Counter()
        let touched = BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(try outputs(of: file, settle: -1e9, counter: touchedReads), into: out)
        #expect(touchedReads.count == 2 && touched.cached == 2 && touched.drawn == 0)
        // ... and its new stamp is remembered.
        let againReads = Counter()
        _ = BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(try outputs(of: file, settle: -1e9, counter: againReads), into: out)
        #expect(againReads.count == 0)

        // New bytes of the same size, times set back to what they were: the change time and the
        // content still tell.
        let original = try String(contentsOf: file, encoding: .utf8)
        let changed = original.replacingOccurrences(of: "fill=\"blue\"", with: "fill=\"lime\"")
        #expect(changed != original && changed.utf8.count == original.utf8.count)
        try Data(changed.utf8).write(to: file)
        try setTimes(of: file, secondsAgo: 1800)
        let rewrittenReads = Counter()
        let rewritten = BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(try outputs(of: file, settle: -1e9, counter: rewrittenReads), into: out)
        #expect(rewrittenReads.count == 2)
        #expect(rewritten.drawn == 2)
    }

    /// Times with nanoseconds (ext4, XFS, Btrfs, tmpfs) settle once the kernel's clock has
    /// ticked past them; whole-second times (FAT, old file systems) after the settle time.
    @Test func nanosecondTimesSettleWithinATickWholeSecondsAfterTheSettleTime() {
        let now = 1_800_000_000.5
        func info(_ seconds: Int, _ nanoseconds: Int) -> stat {
            var info = stat()
            info.st_mtim = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
            info.st_ctim = info.st_mtim
            return info
        }
        let wholeSecond = info(1_799_999_999, 0)  // 1.5 s ago
        #expect(FileStamp.of(wholeSecond, settledFor: 5, now: now) == nil)
        #expect(FileStamp.of(wholeSecond, settledFor: 5, now: now + 4) != nil)
        let twentyMillisecondsAgo = info(1_800_000_000, 480_000_000), fiveAgo = info(1_800_000_000, 495_000_000)
        #expect(FileStamp.of(twentyMillisecondsAgo, settledFor: 5, now: now) != nil)
        #expect(FileStamp.of(fiveAgo, settledFor: 5, now: now) == nil)
        #expect(FileStamp.of(fiveAgo, settledFor: 0, now: now) != nil, "a shorter settle time still applies")
        #expect(FileStamp.of(info(1_800_000_001, 1), settledFor: 5, now: now) == nil, "a time ahead of the clock never settles")
    }

    @Test func aSourceChangedMomentsAgoIsAlwaysRead() throws {
        let folder = try SVGBatchTests.iconFolder()
        let out = try TestSupport.temporaryDirectory()
        defer { for url in [folder, out] { try? FileManager.default.removeItem(at: url) } }
        let file = folder.appendingPathComponent("sub/b.svg")
        // Changed within the file system's last clock tick, as far as its times can tell: a time
        // ahead of the clock is the one way to say so that does not depend on when this runs.
        try setTimes(of: file, secondsAgo: -2)
        _ = BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(try outputs(of: file, settle: 5, counter: Counter()), into: out)
        let reads = Counter()
        let warm = BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(try outputs(of: file, settle: 5, counter: reads), into: out)
        #expect(warm.cached == 2 && reads.count == 2)
        #expect(FileStamp.of( file.path, settledFor: 5) == nil)
        #expect(FileStamp.of( file.path, settledFor: -1e9) != nil)
        #expect(FileStamp.of( folder.appendingPathComponent("missing.svg").path, settledFor: -1e9) == nil)
    }

    /// An input written a moment ago is waited for, a tick at most, and stamped: a run started
    /// right after a checkout still records itself. A time ahead of the clock is not waited for.
    @Test func anInputWrittenAMomentAgoIsStampedAfterATick() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("new.svg")
        try Data("<svg/>".utf8).write(to: file)
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(FileStamp.waitingToSettle(file.path, info, settledFor: 5) != nil)
        #expect(DispatchTime.now().uptimeNanoseconds - start < 1_000_000_000)
        let ahead = folder.appendingPathComponent("ahead.svg")
        try Data("<svg/>".utf8).write(to: ahead)
        try setTimes(of: ahead, secondsAgo: -2)
        #expect(stat(ahead.path, &info) == 0)
        #expect(FileStamp.waitingToSettle(ahead.path, info, settledFor: 5) == nil)
    }

    @Test func documentsThatMayLoadOtherFilesHaveNoStamp() throws {
        let (folder, file) = try settledFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = try SVGBatch(inputs: [file], sizes: [16], allowsExternalReferences: true).outputs()
        #expect(outputs.allSatisfy { $0.sourceStamp == nil })
        #expect(try SVGBatch(inputs: [file], sizes: [16]).outputs().allSatisfy { $0.sourceStamp != nil })
    }
}
