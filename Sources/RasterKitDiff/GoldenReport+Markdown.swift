import Foundation

extension GoldenReport {
    /// The failures as GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY`: a heading with
    /// the count, a table of each failed golden with its share of differing pixels and the
    /// paths of its images, and each failure's message folded under `<details>`.
    ///
    /// ```sh
    /// rasterkit report .build/rasterkit-artifacts --out report.html --markdown "$GITHUB_STEP_SUMMARY"
    /// ```
    public func markdown() -> String {
        let count = failures.count
        var text = "## " + (count == 0 ? "No golden failures" : "\(count) golden failure\(count == 1 ? "" : "s")") + "\n\n"
        if count > 0 {
            text += "| Golden | Different pixels | Where | Images |\n| --- | ---: | --- | --- |\n"
            for failure in failures {
                let share = failure.ratio.map { String(format: "%.4f%%", $0 * 100) } ?? "size differs"
                let pixels = failure.differentPixels.map { "\($0) of \(failure.totalPixels ?? 0) (\(share))" } ?? share
                let images = imagePaths(of: failure).dropFirst().map { ReportText.codeSpan($0) }.joined(separator: "<br>")
                let location = failure.whereText.map { ReportText.codeSpan($0) } ?? ""
                text += "| \(ReportText.codeSpan(failure.identifier)) | \(pixels) | \(location) | \(images) |\n"
            }
            text += "\n"
            for failure in failures {
                // The message in a fence longer than any run of backticks in it, so nothing closes it.
                let fence = String(repeating: "`", count: max(3, Self.longestBacktickRun(in: failure.message) + 1))
                text += "<details><summary>\(ReportText.html(failure.identifier))</summary>\n\n\(fence)\n"
                    + failure.message + "\n\(fence)\n\n</details>\n\n"
            }
        }
        for (folder, reason) in skipped { text += "- skipped \(ReportText.codeSpan(folder)): \(ReportText.codeSpan(reason))\n" }
        return text
    }

    private static func longestBacktickRun(in text: String) -> Int {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

}
