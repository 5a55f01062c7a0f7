import RasterKit
import Foundation

extension Manifest {
    /// Every output of the manifest that belongs to `shard`: each exported component in the
    /// formats its `outputs` name — or only in `format` when one is given, which replaces every
    /// component's own list — and every `svgs:` entry as PNGs named like `rasterkit svg` does.
    ///
    /// - Throws: ``ManifestError`` pointing at the manifest when a component's scales do not
    ///   fit a format, or two outputs would be written to one file.
    /// `webpQuality` makes `webp` outputs lossy at that quality (1–100); nil keeps them lossless.
    /// With `data`, only the components that declare parameters are planned, once per record
    /// (``components(with:)``), and no `svgs:` entry.
    public func plan(format: ExportFormat? = nil, shard: Shard = .whole, webpQuality: Int? = nil,
                     data: ManifestData? = nil) throws(ManifestError) -> BatchPlan {
        let drawn = try data.map { data throws(ManifestError) in try components(with: data) } ?? components
        let problems = ManifestProblems(file: file)
        var plan = BatchPlan()
        for candidate in ExportFormat.allCases {
            let selected = drawn.filter { !$0.sizes.isEmpty && (format.map { [$0] } ?? $0.outputs).contains(candidate) }
            guard !selected.isEmpty else { continue }
            for component in selected {
                for scale in component.scales where !candidate.supports(scale: scale) {
                    problems.add("component \"\(component.name)\" has scale \(scale.compactDescription), which "
                                 + "\(candidate) cannot hold; \(candidate) takes \(candidate.supportedScales)",
                                 at: component.scalesLocation)
                }
            }
            guard problems.isEmpty else { continue }
            do {
                plan.append(try BatchPlan(items: selected.flatMap(\.items), format: candidate, catalogName: name, shard: shard,
                                          webpQuality: webpQuality))
            } catch {
                problems.add(error.description, at: location(ofItem: error))
            }
        }
        // The SVG files and folders are noted whenever the manifest came from a file: their
        // paths are the plan's inputs even when some changed too recently to be stamped.
        let svgInputs = inputPaths.isEmpty ? nil : InputStamps(settleTime: inputSettleTime)
        for entry in svgs where data == nil { addSVGs(entry, to: &plan, shard: shard, problems: problems, noting: svgInputs) }
        reportConflicts(in: plan, problems: problems)
        try problems.check()
        if let stamps = inputStamps, let svgStamps = svgInputs?.completeStamps {
            plan.inputStamps = stamps.merging(svgStamps) { first, _ in first }
        }
        plan.inputPaths = (inputPaths + (svgInputs?.paths ?? [])).uniqued()
        return plan
    }

    private func addSVGs(_ entry: SVGEntry, to plan: inout BatchPlan, shard: Shard, problems: ManifestProblems,
                         noting inputs: InputStamps?) {
        let prefix = entry.folder.isEmpty ? "" : entry.folder + "/"
        do {
            let sources = try entry.batch.sources(noting: inputs)
            for var output in try entry.batch.outputs(for: sources) {
                output.path = prefix + output.path
                if shard.includes(output.path) { plan.outputs.append(output) }
            }
            // Each SVG once on a contact sheet: its largest size, at 2x when there is one.
            guard let size = entry.batch.sizes.max() else { return }
            let scale = BatchPreview.scale(among: entry.batch.scales)
            for source in sources {
                let name = SVGBatch.outputName(for: source.name, size: size, scale: scale)
                let path = prefix + source.outputPath(name)
                guard shard.includes(path) else { continue }
                plan.previews.append(BatchPreview(source: source.displayPath, label: name, path: path, size: Size(size), scale: scale,
                                                  capInsets: nil, hasNinePatchBorder: false))
            }
        } catch {
            problems.add("svgs entry: \(error.description)", at: entry.location)
        }
    }

    /// Outputs of different kinds (a component's PNG and an SVG's) that would share a file, or
    /// files whose paths differ only in case.
    private func reportConflicts(in plan: BatchPlan, problems: ManifestProblems) {
        var claims = OutputPathClaims()
        for output in plan.outputs {
            do { try claims.claim(output.path, by: output.source) } catch { problems.add(error.description, at: nil) }
        }
    }

    private func location(ofItem error: BatchPlanError) -> ManifestLocation? {
        let source: String
        switch error {
        case let .conflictingOutputs(_, _, second), let .outputsDifferOnlyInCase(_, _, _, second): source = second
        case let .unsupportedScale(_, _, item), let .invalidSize(item, _), let .invalidOutputPath(item, _, _): source = item
        case .inputNotFound, .noSVGFiles, .unreadableFolder, .invalidShard: return nil
        }
        return component(named: String(source.split(separator: "/").first ?? ""))?.location
    }
}
