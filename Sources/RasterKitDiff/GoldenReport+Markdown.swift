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
            text += "| Golden | Different pixels | Images |\n| --- | ---: | --- |\n"
            for failure in failures {
                let share = failure.ratio.map { String(format: "%.4f%%", $0 * 100) } ?? "size differs"
                let pixels = failure.differentPixels.map { "\($0) of \(failure.totalPixels ?? 0) (\(share))" } ?? share
                let images = imagePaths(of: failure).dropFirst().map { "`\(cell($0))`" }.joined(separator: "<br>")
                text += "| `\(cell(failure.identifier))` | \(pixels) | \(images) |\n"
            }
            text += "\n"
            for failure in failures {
                text += "<details><summary>\(html(failure.identifier))</summary>\n\n```\n"
                    + failure.message.replacingOccurrences(of: "```", with: "'''") + "\n```\n\n</details>\n\n"
            }
        }
        for (folder, reason) in skipped { text += "- skipped `\(cell(folder))`: \(cell(reason))\n" }
        return text
    }

    /// Text safe inside a table cell's code span: no pipe, backtick or line break.
    private func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'")
            .replacingOccurrences(of: "\n", with: " ")
    }

    private func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
