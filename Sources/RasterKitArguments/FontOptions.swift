import ArgumentParser
import Foundation
import RasterKit

/// `--font-dir DIR` (repeatable): folders of fonts the text of a run may use besides
/// RasterKit's DejaVu, for `render`, `svg` and the server alike. A manifest adds its own with
/// `fonts:`, and the fallback set for other scripts and emoji with `fallbackFonts: noto`.
package struct FontOptions: ParsableArguments {
    /// No fonts added.
    package init() {}

    @Option(name: .customLong("font-dir"),
            help: ArgumentHelp("A folder of fonts (TTF, OTF, TTC; searched at any depth) text may use; repeat for more.",
                               valueName: "folder"))
    package var directories: [String] = []

    /// The folders as URLs.
    package var urls: [URL] { directories.map { URL(fileURLWithPath: $0, isDirectory: true) } }

    /// The digest of the fonts in the folders, for render keys; nil when none are given.
    package var digest: StableDigest? {
        let files = directories.flatMap { FontLibrary.fontFiles(in: URL(fileURLWithPath: $0).standardizedFileURL.path) }
        return files.isEmpty ? nil : FontLibrary.digest(ofFontFiles: files)
    }

    /// Registers the fonts with ``FontLibrary`` here, among the usage checks: a folder that is
    /// missing, is not a folder or holds no font fontconfig reads exits with 2 before anything
    /// is read or drawn.
    package func validate() throws {
        for directory in directories {
            try PathChecks.requireNonEmpty(directory, "--font-dir")
            do {
                try FontLibrary.register(directory: URL(fileURLWithPath: directory, isDirectory: true))
            } catch {
                throw ValidationError("--font-dir \(directory): \(error)")
            }
        }
    }
}
