import Foundation

/// Fonts for the scripts and symbols the DejaVu fonts lack, used after them when asked for
/// (``FontLibrary/useFallbackFonts(_:)``, a manifest's `fallbackFonts: noto`): text DejaVu
/// draws keeps its pixels, and Arabic, Hebrew, Devanagari, Thai, Chinese, Japanese, Korean and
/// colour emoji are drawn instead of empty boxes.
public enum FallbackFonts: String, Hashable, Sendable, CaseIterable {
    /// Google's Noto fonts as Debian packages them: `fonts-noto-core` (Noto Sans Arabic, Hebrew,
    /// Devanagari and Thai, regular and bold), `fonts-noto-cjk` (Noto Sans CJK) and
    /// `fonts-noto-color-emoji` (Noto Color Emoji). `make deps` installs them.
    case noto

    /// Each file of the set with the folders it is looked for in and the package holding it.
    var files: [(name: String, directories: [String], package: String)] {
        switch self {
        case .noto:
            let core = ["/usr/share/fonts/truetype/noto", "/usr/share/fonts/noto"]
            let cjk = ["/usr/share/fonts/opentype/noto", "/usr/share/fonts/noto-cjk", "/usr/share/fonts/noto"]
            let scripts = ["Arabic", "Hebrew", "Devanagari", "Thai"].flatMap { script in
                ["Regular", "Bold"].map { ("NotoSans\(script)-\($0).ttf", core, "fonts-noto-core") }
            }
            return scripts + [("NotoSansCJK-Regular.ttc", cjk, "fonts-noto-cjk"), ("NotoSansCJK-Bold.ttc", cjk, "fonts-noto-cjk"),
                              ("NotoColorEmoji.ttf", core, "fonts-noto-color-emoji")]
        }
    }

    /// The set's files as installed here; throws when one is missing.
    package func resolvedFiles() throws(FontError) -> [String] {
        try files.map { file throws(FontError) in
            guard let found = file.directories.map({ $0 + "/" + file.name })
                .first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                throw .fallbackFontsMissing(rawValue, missing: file.name, package: file.package)
            }
            return found
        }
    }
}
