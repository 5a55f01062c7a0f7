import RasterKit
import Foundation
import Synchronization

extension ManifestRun {
    /// The record an identical run left in `store`, when every input still holds what that run
    /// read: the run can then be written from the store with ``StoredManifestRun/write(jobs:progress:)``
    /// without loading the manifest. Nil when there is no such record (another build, other
    /// options, a changed manifest or input), when runs are not reused (``reusesUpToDateOutputs``
    /// false) or a contact sheet is asked for. Reads the manifest and each input the record
    /// names, by content — so a fresh checkout with the store restored matches — and writes nothing.
    ///
    /// ```swift
    /// if let stored = run.storedRun(in: store), let result = stored.write() {
    ///     print("\(result.summary.cached) outputs copied from the store")
    /// } else {
    ///     // prepare() and render as usual
    /// }
    /// ```
    public func storedRun(in store: DiskCache) -> StoredManifestRun? {
        storedRun(store: store) { identity in
            guard let body = store.runRecord(for: identity) else { return nil }
            guard let record = StoredRunRecord(data: body) else {
                store.forgetRunRecord(identity)
                return nil
            }
            return record
        }
    }

    /// The record of an identical run in `cache`'s remote store (its pack), read but not yet
    /// trusted: ``PreparedManifestRun/storedRun(from:cache:)`` checks it against the run's own
    /// plan. Nil without a remote store, for a miss or a fault. The command line asks for it
    /// while it loads and plans the manifest, so that a slow remote store's wait and the
    /// planning overlap.
    package func remoteRunRecord(in cache: RasterCache) -> StoredRunRecord? {
        guard cache.hasRemote, reusesUpToDateOutputs, contactSheet == nil,
              let bytes = try? FileReader.read(manifest.path, limit: loadingLimits.maximumInputBytes),
              let identity = StoredRunRecord.identity(of: self, manifest: bytes),
              let pack = cache.remoteRunPack(for: identity) else { return nil }
        return StoredRunRecord(data: pack)
    }

    /// The record `find` has for this run's identity, when every input it names still holds
    /// what it held.
    private func storedRun(store: DiskCache?, find: (StableDigest) -> StoredRunRecord?) -> StoredManifestRun? {
        guard reusesUpToDateOutputs, contactSheet == nil else { return nil }
        let limit = loadingLimits.maximumInputBytes
        let manifestPath = manifest.path
        // Stamped before reading, for the folder's own record (see `ManifestRunRecord`).
        let manifestStamp = FileStamp.of(manifestPath, settledFor: inputSettleTime)
        guard let bytes = try? FileReader.read(manifestPath, limit: limit),
              let identity = StoredRunRecord.identity(of: self, manifest: bytes),
              let record = find(identity) else { return nil }
        let directory = manifest.deletingLastPathComponent().path
        var stamps: [String: String]? = manifestStamp.map { [manifestPath: $0] }
        for (input, path) in zip(record.inputs, record.inputPaths(manifestDirectory: directory)) {
            let stamp = FileStamp.of(path, settledFor: inputSettleTime)
            guard StoredRunRecord.contentDigest(of: path, isFolder: input.isFolder, limit: limit) == input.digest else { return nil }
            if let stamp { stamps?[path] = stamp } else { stamps = nil }
        }
        return StoredManifestRun(run: self, store: store, record: record, inputStamps: stamps)
    }
}

/// A manifest run an identical earlier run recorded in the render store (found by
/// ``ManifestRun/storedRun(in:)`` or ``PreparedManifestRun/storedRun(inRemoteStoreOf:)``):
/// every output's bytes are named by the record and copied from the store (or carried in the
/// remote store's pack of the run), without loading the manifest, planning it or computing a key.
public struct StoredManifestRun: Sendable {
    /// The run it was found for.
    public let run: ManifestRun
    /// Where the outputs' bytes are; nil for a record that carries them (a remote run pack).
    let store: DiskCache?
    let record: StoredRunRecord
    /// The inputs' stamps, taken before they were read, for the folder's record; nil when one
    /// changed too recently to be stamped.
    let inputStamps: [String: String]?

    /// The images the run writes.
    public var outputCount: Int { record.outputs.count }

    /// Writes the recorded catalog files, then every image from the store on `jobs` threads, then
    /// the folder's index and record (so the next run into the same folder is answered from
    /// it). Returns nil when the store no longer holds some image's bytes (evicted, or failing
    /// its checksum): the outputs written so far are correct, and the caller prepares and renders
    /// the run as usual, which draws what is missing. A file that cannot be written is a failure
    /// in the summary, as in a render. The store's pending writes (the last use of each image
    /// served) are flushed before it returns.
    ///
    /// An output folder that does not exist yet is built beside it under a hidden name and moved
    /// into place whole (`StagedFolder`): it appears with every file in it or not at all.
    public func write(jobs: Int = Processors.available,
                      progress: (@Sendable (BatchProgress) -> Void)? = nil) -> ManifestRunResult? {
        defer { try? store?.flush() }
        let directory = run.outputDirectory
        var written: WrittenRun?
        if let staged = StagedFolder.make(for: directory.path) {
            written = writeFiles(with: FolderWriter(staged: staged), jobs: jobs, progress: progress)
            if written == nil || !staged.publish() {
                staged.remove()
                // Another run made the folder meanwhile: written into like any existing folder.
                if written != nil { written = writeIntoExisting(directory, jobs: jobs, progress: progress) }
            }
        } else {
            written = writeIntoExisting(directory, jobs: jobs, progress: progress)
        }
        guard let written else { return nil }
        if let inputStamps, written.summary.failed == 0,
           let invocation = ManifestRunRecord.invocation(manifest: run.manifest, format: run.format, shard: run.shard,
                                                         webpQuality: run.webpQuality, data: run.data, fonts: run.fontDirectories) {
            ManifestRunRecord.remember(outputs: record.outputs.map(\.path), files: record.files.map(\.path), inputs: inputStamps,
                                       fellBack: written.summary.fellBack, invocation: invocation, in: directory,
                                       written: written.states)
        }
        return ManifestRunResult(summary: written.summary, files: record.files.count)
    }

    /// What writing the files did: the summary, and each file's state as it was written.
    private struct WrittenRun {
        var summary: BatchSummary
        var states: [String: FileState]
    }

    /// Writes the run into `directory`, which may hold an earlier run's files: its record goes
    /// first (an interrupted run leaves none), its leftover temporary files are swept, and files
    /// that already hold the bytes are left alone.
    private func writeIntoExisting(_ directory: URL, jobs: Int,
                                   progress: (@Sendable (BatchProgress) -> Void)?) -> WrittenRun? {
        let root = directory.path
        ManifestRunRecord.forget(in: directory)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        BatchRenderer.sweepStaleTemporaryFiles(under: root, paths: record.outputs.lazy.map(\.path) + record.files.lazy.map(\.path))
        return writeFiles(with: FolderWriter(root: root), jobs: jobs, progress: progress)
    }

    /// Writes every file of the run with `writer` and saves the folder's index beside them; nil
    /// when the store no longer holds some image's bytes.
    private func writeFiles(with writer: FolderWriter, jobs: Int,
                            progress: (@Sendable (BatchProgress) -> Void)?) -> WrittenRun? {
        let root = writer.root
        let clock = ContinuousClock()
        let start = clock.now
        let source = run.manifest.relativePath
        var fileFailures: [BatchSummary.Failure] = []
        for file in record.files {
            do { try writer.write(file.contents, to: file.path) } catch {
                fileFailures.append(BatchSummary.Failure(file: source, output: file.path, reason: error.description))
            }
        }
        let tally = BatchTally(total: record.outputs.count, progress: progress) { (clock.now - start) / .seconds(1) }
        let index = BatchOutputIndex.load(from: root)
        let missing = Atomic<Bool>(false)
        let next = Atomic<Int>(0)
        let outputs = record.outputs
        let finished = DispatchGroup()
        let started = WorkerThreads(stackSize: 1 << 20).start(max(1, min(jobs, outputs.count)), finished: finished) { [store] _ in
            while !missing.load(ordering: .relaxed) {
                let claimed = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard claimed < outputs.count else { break }
                let (path, content) = outputs[claimed]
                let bytes: Data
                let fingerprint: String?
                switch content {
                case let .stored(key, encoding):
                    guard let stored = store?.encodedOutput(forDigest: key, encoding: encoding) else {
                        missing.store(true, ordering: .relaxed)
                        return
                    }
                    bytes = stored
                    fingerprint = BatchOutput.fingerprint(key, encoding: encoding)
                case let .inline(key, encoding, carried):
                    bytes = carried
                    fingerprint = BatchOutput.fingerprint(key, encoding: encoding)
                case .fellBack(let kept):
                    bytes = kept
                    fingerprint = nil
                }
                do {
                    let written = try writer.write(bytes, to: path)
                    index.record(path, fingerprint: fingerprint, written: written)
                    if case .fellBack = content {
                        tally.record(path: path, source: source, .fellBack)
                    } else {
                        tally.record(path: path, source: source, .cached)
                    }
                } catch {
                    index.record(path, fingerprint: nil)
                    tally.record(path: path, source: source, .failure(BatchRenderer.reason(for: error)))
                }
            }
        }
        finished.wait()
        // The last uses of what was served are written while the index is saved and the folder
        // published; `write` flushes before it returns.
        store?.startWriting()
        guard started.started > 0, !missing.load(ordering: .relaxed) else { return nil }
        try? index.save()
        var summary = tally.summary()
        summary.add(fileFailures: fileFailures)
        return WrittenRun(summary: summary, states: index.recordedStates())
    }
}

extension PreparedManifestRun {
    /// The pack an identical run on another machine left in `cache`'s remote store, when it is
    /// exactly this run: a run that rendered with a remote store shares its record there with
    /// every output's bytes in it, so a machine whose own store is empty writes the whole run
    /// with one request. A remote store can be written by anyone with access to it, so a pack is
    /// only a hint, checked against this run's plan (its inputs, files and outputs must be exactly
    /// the plan's): nil for a pack that is not exactly the plan, and the run then renders as usual.
    public func storedRun(inRemoteStoreOf cache: RasterCache) -> StoredManifestRun? {
        run.remoteRunRecord(in: cache).flatMap { storedRun(from: $0, cache: cache) }
    }

    /// `record` (a remote pack) as a run to write, when it is exactly this run's plan; nil otherwise.
    package func storedRun(from record: StoredRunRecord, cache: RasterCache) -> StoredManifestRun? {
        guard record.isExactly(plan, limits: manifest.limits) else { return nil }
        return StoredManifestRun(run: run, store: cache.diskCache, record: record, inputStamps: plan.inputStamps)
    }
}

extension StoredRunRecord {
    /// Whether this record (a remote pack) writes exactly what `plan` would: every output of the
    /// plan at its path, under the key and encoding the plan computes for it, with bytes that
    /// are the render the key names (their header read against its size, scale and caps, under
    /// `limits`); the plan's files byte for byte; and nothing else. The pack's own list of inputs
    /// is not read: the keys, computed here from the local manifest and files, cover them.
    func isExactly(_ plan: BatchPlan, limits: ResourceLimits) -> Bool {
        guard outputs.count == plan.outputs.count, files.count == plan.files.count else { return false }
        var plannedFiles = Dictionary(plan.files.map { ($0.path, $0.contents) }, uniquingKeysWith: { first, _ in first })
        for file in files {
            guard plannedFiles.removeValue(forKey: file.path) == file.contents else { return false }
        }
        var planned: [String: BatchOutput] = [:]
        for output in plan.outputs { planned[output.path] = output }
        for (path, content) in outputs {
            guard let output = planned.removeValue(forKey: path), let encoder = output.encoder,
                  let expected = try? output.expectedRender?(limits) else { return false }
            switch content {
            case let .inline(key, encoding, bytes):
                guard encoder.identifier == encoding, let planKey = try? output.renderKey?(), planKey.value == key,
                      KeptOutputCheck.matches(bytes, encoder: encoder, expected: expected) else { return false }
            case .fellBack(let bytes):
                // A fallback's render has no key of its own here; it is drawn at the output's size.
                guard KeptOutputCheck.matches(bytes, encoder: encoder, expected: expected.ignoringCapInsets) else { return false }
            case .stored:
                // A pack carries every output's bytes.
                return false
            }
        }
        return planned.isEmpty && plannedFiles.isEmpty
    }
}
