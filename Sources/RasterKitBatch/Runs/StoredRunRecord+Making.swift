import RasterKit
import Foundation

extension StoredRunRecord {
    /// The record of a run of `run` that wrote every output of `plan` into its folder, with its
    /// identity; nil when the run cannot be recorded: an input not stamped when it was read or
    /// changed since, an output not made from a component's render (a vector document, a custom
    /// render), an output whose key cannot be made, or a fallback whose primary failed for a
    /// reason that may not recur. An output whose bytes `store` does not hold (a component that
    /// is never stored, such as a fallback pair whose primary drew) is carried in the record, as
    /// the file holds it.
    static func of(_ run: ManifestRun, plan: BatchPlan, log: [BatchRunLog.Entry],
                   store: DiskCache) -> (identity: StableDigest, record: StoredRunRecord)? {
        guard let stamps = plan.inputStamps, !stamps.isEmpty, log.count == plan.outputs.count else { return nil }
        let folder = run.outputDirectory.path
        var outputs: [(path: String, content: Content)] = []
        outputs.reserveCapacity(plan.outputs.count)
        var carried = 0
        // Bytes kept by the writer are only visible once committed.
        try? store.flush()
        for (output, entry) in zip(plan.outputs, log) {
            guard output.document == nil, let encoder = output.encoder else { return nil }
            if entry.fellBack {
                guard !entry.mayNotRecur, let bytes = try? FileReader.read(folder + "/" + output.path, limit: recordByteLimit)
                else { return nil }
                carried += bytes.count
                outputs.append((output.path, .fellBack(bytes)))
                continue
            }
            guard let key = entry.key ?? (try? output.renderKey?())?.value else { return nil }
            if store.holdsEncodedOutput(forDigest: key, encoding: encoder.identifier) {
                outputs.append((output.path, .stored(key: key, encoding: encoder.identifier)))
            } else {
                guard let bytes = try? FileReader.read(folder + "/" + output.path, limit: recordByteLimit) else { return nil }
                carried += bytes.count
                outputs.append((output.path, .inline(key: key, encoding: encoder.identifier, bytes: bytes)))
            }
            guard carried <= recordByteLimit else { return nil }
        }
        // Every input still as it was when the run read it (its stamp unchanged), so what is
        // digested now is what the run read.
        func unchanged() -> Bool { stamps.allSatisfy { FileStamp.of($0.key, settledFor: -.infinity) == $0.value } }
        guard unchanged() else { return nil }
        let manifestPath = run.manifest.path
        let directory = run.manifest.deletingLastPathComponent().path
        let limit = run.loadingLimits.maximumInputBytes
        guard let manifest = try? FileReader.read(manifestPath, limit: limit),
              let identity = identity(of: run, manifest: manifest) else { return nil }
        let manifestText = String(decoding: manifest, as: UTF8.self)
        var inputs: [Input] = []
        for path in plan.inputPaths where path != manifestPath {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            guard let digest = contentDigest(of: path, isFolder: isFolder, limit: limit) else { return nil }
            inputs.append(Input(path: relative(path, to: directory, manifest: manifestText), isFolder: isFolder, digest: digest))
        }
        guard unchanged(), inputs.count <= inputLimit else { return nil }
        let record = StoredRunRecord(inputs: inputs, files: plan.files.map { ($0.path, $0.contents) }, outputs: outputs)
        return (identity, record)
    }

    /// The most bytes a record carries itself (fallbacks, outputs the store does not keep).
    static let recordByteLimit = DiskCache.runRecordByteLimit / 2
}
