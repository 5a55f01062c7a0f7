import RasterKit
import Foundation

extension StoredRunRecord {
    /// The record of a run of `run` that wrote every output of `plan` into its folder, with its
    /// identity; nil when the run cannot be recorded: an input not stamped when it was read or
    /// changed since, an output not made from a component's render (a vector document, a custom
    /// render), an output whose key cannot be made, or a fallback whose primary failed for a
    /// reason that may not recur.
    static func of(_ run: ManifestRun, plan: BatchPlan, log: [BatchRunLog.Entry]) -> (identity: StableDigest, record: StoredRunRecord)? {
        guard let stamps = plan.inputStamps, !stamps.isEmpty, log.count == plan.outputs.count else { return nil }
        var outputs: [(path: String, content: Content)] = []
        outputs.reserveCapacity(plan.outputs.count)
        for (output, entry) in zip(plan.outputs, log) {
            guard output.document == nil, let encoder = output.encoder else { return nil }
            if entry.fellBack {
                guard !entry.mayNotRecur,
                      let bytes = try? FileReader.read(run.outputDirectory.path + "/" + output.path, limit: runRecordByteLimit)
                else { return nil }
                outputs.append((output.path, .fellBack(bytes)))
            } else {
                guard let key = entry.key ?? (try? output.renderKey?())?.value else { return nil }
                outputs.append((output.path, .stored(key: key, encoding: encoder.identifier)))
            }
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
        var inputs: [Input] = []
        for path in plan.inputPaths where path != manifestPath {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            guard let digest = contentDigest(of: path, isFolder: isFolder, limit: limit) else { return nil }
            inputs.append(Input(path: relative(path, to: directory), isFolder: isFolder, digest: digest))
        }
        guard unchanged() else { return nil }
        let record = StoredRunRecord(inputs: inputs, files: plan.files.map { ($0.path, $0.contents) }, outputs: outputs)
        return (identity, record)
    }

    /// The largest fallback image a record holds.
    static let runRecordByteLimit = DiskCache.runRecordByteLimit
}
