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

    /// A folder of symbolic links to `files`, made once in RasterKit's fontconfig cache folder
    /// and named by the files' names, sizes and modification times: fontconfig caches the scan of
    /// a folder (the CJK collections alone took 60 ms to scan in every process), and a package
    /// upgrade names a new folder, so a stale scan is never read. nil when it cannot be made (a
    /// read-only cache folder); the files are then added one by one.
    func linkedDirectory(for files: [String]) -> String? {
        let stamp = FontLibrary.digest(ofFontFiles: files, packaged: Set(files))
        let directory = FontConfiguration.cacheDirectory + "/fallback-\(rawValue)-\(stamp.hex.prefix(16))"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        for file in files {
            let link = directory + "/" + (file as NSString).lastPathComponent
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == file { continue }
            // Made aside and renamed into place: processes starting together each make their own.
            let temporary = link + ".\(getpid()).tmp"
            unlink(temporary)
            guard symlink(file, temporary) == 0, rename(temporary, link) == 0 else {
                unlink(temporary)
                return nil
            }
        }
        return directory
    }
}
