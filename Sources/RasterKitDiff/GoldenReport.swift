import Foundation

/// The failed golden assertions found in an artifacts directory (one folder per golden with
/// `result.json`, `expected.png`, `actual.png`, `diff.png`), as one self-contained HTML page.
///
/// ```swift
/// let report = try GoldenReport(artifactsDirectory: URL(fileURLWithPath: ".build/rasterkit-artifacts"))
/// try report.html().write(to: URL(fileURLWithPath: "report.html"), atomically: true, encoding: .utf8)
/// ```
public struct GoldenReport: Sendable {
    /// One failed golden and its pictures.
    public struct Failure: Sendable {
        /// `<TestFile>/<test>[.<name>]@<scale>x`: which assertion failed.
        public var identifier: String
        /// The assertion's failure message.
        public var message: String
        /// The path of the golden PNG.
        public var golden: String
        /// The folder holding this failure's `expected.png`, `actual.png` and `diff.png`.
        public var artifactsFolder: String = ""
        /// Share of differing pixels; nil when the sizes differed (shown first).
        public var ratio: Double?
        /// Pixels that differed; nil when the sizes differed.
        public var differentPixels: Int?
        /// Pixels compared; nil when the sizes differed.
        public var totalPixels: Int?
        /// The golden as a PNG encoded anew from its decoded pixels (no byte of the file itself
        /// is kept), when the artifacts hold a PNG that decodes.
        public var expected: Data?
        /// The rendered image as a PNG encoded anew from its decoded pixels, when the artifacts
        /// hold one that decodes.
        public var actual: Data?
        /// The difference image as a PNG encoded anew from its decoded pixels, when the
        /// artifacts hold one that decodes.
        public var diff: Data?
        /// Images of the folder that were not embedded, by file name, with the reason: a
        /// symbolic link, not a regular file, too large, or not a PNG that decodes whole.
        public var leftOut: [String: String] = [:]
        /// The regions the assertion ignored (`ignoring:`), as pixel rectangles; they are
        /// hatched in blue in the diff image.
        public var ignoredRegions: [String] = []
        /// The smallest rectangle holding every different pixel, when the comparison found any.
        public var differenceBounds: ImageDiff.PixelRect?
        /// The pixel whose colour changed most, with both colours
        /// (`(14, 3): #202020FF → #00FF00FF, distance 0.71`), when the comparison found any.
        public var largestChange: String?

        /// What failed, when the artifacts say (older ones do not).
        package var kind: FailureSummary.Kind?
        /// The goldens folder the golden lies in, when the artifacts say.
        package var goldensRoot: String?
        /// The lockfile entry, for a golden kept in a golden lockfile.
        package var lock: FailureSummary.LockReference?

        /// Whether `rasterkit goldens accept` may make this failure's actual image its golden: a
        /// golden assertion's mismatch or missing golden, with an actual image.
        public var isAcceptable: Bool { kind?.isAcceptable == true && (goldensRoot != nil || lock != nil) && actual != nil }

        /// The command that accepts this failure's actual image as its golden, run from the
        /// folder the tests run in; nil when it cannot be accepted.
        public var acceptCommand: String? {
            guard isAcceptable else { return nil }
            let artifacts = (artifactsFolder as NSString).deletingLastPathComponent
            let command = "rasterkit goldens accept \(ReportText.shellQuoted(identifier)) --artifacts \(ReportText.shellQuoted(artifacts))"
            // A locked golden's failure names its lockfile and remote cache itself.
            return lock != nil ? command : command + " --goldens \(ReportText.shellQuoted(goldensRoot ?? ""))"
        }

        /// `different pixels in x 3–9, y 4–4 (7×1 px); largest change at (5, 4): …`, or nil.
        var whereText: String? {
            guard let differenceBounds else { return nil }
            return "different pixels in \(differenceBounds)" + (largestChange.map { "; largest change at \($0)" } ?? "")
        }
    }

    /// Failures, the largest share of differing pixels first.
    public var failures: [Failure]
    /// Folders that were skipped, with the reason (unreadable or incomplete artifacts).
    public let skipped: [(folder: String, reason: String)]

    /// Reads every artifact folder directly inside `artifactsDirectory`.
    public init(artifactsDirectory: URL) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: artifactsDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GoldenError.notAnArtifactsFolder(artifactsDirectory.path)
        }
        var failures: [Failure] = [], skipped: [(String, String)] = []
        // Only real folders: a symbolic link in the artifacts directory is not followed.
        let folders = try manager.contentsOfDirectory(atPath: artifactsDirectory.path)
            .map { artifactsDirectory.appendingPathComponent($0) }
            .filter { ArtifactFile.isFolder($0.path) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        for folder in folders {
            guard case .contents(let json) = ArtifactFile.read(folder.appendingPathComponent("result.json").path),
                  let summary = try? JSONDecoder().decode(FailureSummary.self, from: json) else {
                skipped.append((folder.lastPathComponent, "no readable result.json"))
                continue
            }
            var leftOut: [String: String] = [:]
            func image(_ name: String) -> Data? {
                switch ArtifactFile.png(folder.appendingPathComponent(name).path) {
                case .missing: return nil
                case .refused(let reason):
                    leftOut[name] = reason
                    return nil
                case .contents(let data): return data
                }
            }
            let actual = image("actual.png")
            if actual == nil, leftOut["actual.png"] == nil {
                skipped.append((folder.lastPathComponent, "no actual.png"))
                continue
            }
            failures.append(Failure(identifier: summary.identifier, message: summary.message, golden: summary.golden,
                                    artifactsFolder: folder.path, ratio: summary.ratio, differentPixels: summary.differentPixels,
                                    totalPixels: summary.totalPixels, expected: image("expected.png"), actual: actual,
                                    diff: image("diff.png"), leftOut: leftOut,
                                    ignoredRegions: summary.ignoredRegions ?? [], differenceBounds: summary.differenceBounds,
                                    largestChange: summary.largestDifference?.text, kind: summary.kind,
                                    goldensRoot: summary.goldensRoot, lock: summary.lock))
        }
        self.failures = failures.sorted { ($0.ratio ?? 2, $1.identifier) > ($1.ratio ?? 2, $0.identifier) }
        self.skipped = skipped
    }

    /// The page: a summary, then each failure with expected, actual and diff side by side, and a
    /// slider and an onion-skin view to compare expected with actual. Images are embedded.
    public func html() -> String { html(reviewToken: nil) }

    /// ``html()``, and with `reviewToken` Accept and Reject buttons on each failure that can be
    /// accepted, for the review page `rasterkit report --serve` serves.
    package func html(reviewToken: String?) -> String {
        var body = ""
        for (index, failure) in failures.enumerated() {
            body += section(failure, index: index, reviewing: reviewToken != nil)
        }
        let count = failures.count
        let heading = count == 0 ? "No golden failures" : "\(count) golden failure\(count == 1 ? "" : "s")"
        let skippedNote = skipped.isEmpty ? "" : "<p class=\"note\">Skipped: "
            + skipped.map { "\(escape($0.folder)) (\(escape($0.reason)))" }.joined(separator: ", ") + "</p>"
        return ReportTemplate.page(title: heading, summary: skippedNote, body: body, reviewToken: reviewToken)
    }

    private func section(_ failure: Failure, index: Int, reviewing: Bool) -> String {
        let ratio = failure.ratio.map { String(format: "%.4f%%", $0 * 100) } ?? "size differs"
        let pixels = failure.differentPixels.map { "\($0) of \(failure.totalPixels ?? 0) pixels" } ?? ""
        let location = failure.whereText.map { " · " + escape($0) } ?? ""
        func figure(_ label: String, _ data: Data?) -> String {
            guard let data else {
                let note = failure.leftOut["\(label).png"].map { "left out: " + escape($0) } ?? "none"
                return "<figure><figcaption>\(label)</figcaption><div class=\"missing\">\(note)</div></figure>"
            }
            return "<figure><figcaption>\(label)</figcaption><img src=\"\(dataURL(data))\" alt=\"\(label)\"\(zoom(data))></figure>"
        }
        var compare = ""
        if let expected = failure.expected, let actual = failure.actual {
            compare = """
            <div class="compare" data-index="\(index)">
              <div class="modes"><label><input type="radio" name="mode\(index)" value="slider" checked> Slider</label>
              <label><input type="radio" name="mode\(index)" value="onion"> Onion skin</label></div>
              <div class="stage"><img class="under" src="\(dataURL(expected))" alt="expected"\(zoom(expected))>
              <img class="over" src="\(dataURL(actual))" alt="actual"\(zoom(actual))><div class="divider"></div></div>
              <input class="amount" type="range" min="0" max="100" value="50" aria-label="expected ↔ actual">
              <div class="legend"><span>expected</span><span>actual</span></div>
            </div>
            """
        }
        return """
        <section>
          <h2>\(escape(failure.identifier)) <span class="ratio">\(ratio)</span></h2>
          <p class="stats">\(pixels)\(location) · golden <code>\(escape(failure.golden))</code></p>
          \(reviewing ? reviewControls(failure) : "")\(ignoredNote(failure))\(acceptNote(failure))<pre>\(ReportText.html(failure.message, multiline: true))</pre>
          <div class="row">\(figure("expected", failure.expected))\(figure("actual", failure.actual))\(figure("diff", failure.diff))</div>
          \(compare)
        </section>
        """
    }

    /// Accept (when the failure can be accepted) and Reject, posting the failure's name.
    private func reviewControls(_ failure: Failure) -> String {
        let accept = failure.isAcceptable ? "<button class=\"accept\" data-verdict=\"accept\">Accept</button>" : ""
        return "<div class=\"review\" data-golden=\"\(escape(failure.identifier))\">\(accept)"
            + "<button class=\"reject\" data-verdict=\"reject\">Reject</button><span class=\"status\"></span></div>"
    }

    private func acceptNote(_ failure: Failure) -> String {
        guard let command = failure.acceptCommand else { return "" }
        return "<p class=\"accept\">To accept the actual image as the golden: <code>\(escape(command))</code></p>"
    }

    private func ignoredNote(_ failure: Failure) -> String {
        guard !failure.ignoredRegions.isEmpty else { return "" }
        return "<p class=\"ignored\">Ignored regions (hatched blue in the diff): "
            + escape(failure.ignoredRegions.joined(separator: ", ")) + "</p>"
    }

    /// A width attribute that enlarges small images by a whole factor (they are drawn pixelated),
    /// so a 24-pixel icon's difference can be seen; large images keep their size.
    private func zoom(_ png: Data) -> String {
        // The width is the big-endian word at byte 16, inside the IHDR chunk.
        guard png.count >= 24 else { return "" }
        let width = png[png.startIndex + 16 ..< png.startIndex + 20].reduce(0) { $0 << 8 | Int($1) }
        guard width > 0, width < 160 else { return "" }
        return " width=\"\(width * min(8, 160 / width))\""
    }

    private func dataURL(_ data: Data) -> String { "data:image/png;base64," + data.base64EncodedString() }

    private func escape(_ text: String) -> String { ReportText.html(text) }
}
